"""A JAX program's own attention kernel written in Pallas: JAX's example
FlashAttention kernel for GPUs (jax.experimental.pallas.ops.gpu.attention.mha,
lowered through Triton), under jax.jit, forward and gradient, at the
FA2-paper token budget (B*N = 16k, H = 16, d = 128), causal.

    attnprof record -o pallas.yaml -- python3 experiments/programs/jax_pallas_attention.py

The program checks its own first output against a float64 NumPy reference on
a few rows of one head (its line 'pallas check'), and its last line is a
checksum of every output and gradient, so a run under attnprof can be
compared with a plain run (docs/capture.md)."""
import argparse
import inspect
import math
import os
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave the GPU's memory to others
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.experimental.pallas.ops.gpu import attention as pallas_attention  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--seqlens", default="1024,4096")
p.add_argument("--batch-tokens", type=int, default=16384)
p.add_argument("--heads", type=int, default=16)
p.add_argument("--head-dim", type=int, default=128)
p.add_argument("--causal", type=int, default=1)
p.add_argument("--iters", type=int, default=2)
p.add_argument("--no-backward", action="store_true")
a = p.parse_args()


def reference_rows(q, k, v, rows, b, h, scale, causal):
    """float64 attention of query rows `rows` of batch b, head h."""
    q64, k64, v64 = (np.asarray(t[b, :, h, :], dtype=np.float64) for t in (q, k, v))
    s = q64[rows] @ k64.T * scale
    if causal:
        s = np.where(np.arange(k64.shape[0])[None, :] > np.asarray(rows)[:, None], -np.inf, s)
    s = np.exp(s - s.max(axis=1, keepdims=True))
    return (s / s.sum(axis=1, keepdims=True)) @ v64


scale = 1.0 / math.sqrt(a.head_dim)
# the keyword arguments this JAX's mha takes (segment_ids is positional in
# every version seen; block sizes moved into a BlockSizes object in 2025)
params = inspect.signature(pallas_attention.mha).parameters


def attend(q, k, v):
    kw = {"sm_scale": scale, "causal": bool(a.causal)}
    return pallas_attention.mha(q, k, v, None, **{n: x for n, x in kw.items() if n in params})


fwd = jax.jit(attend)
grad = jax.jit(jax.grad(lambda q, k, v: jnp.sum(attend(q, k, v).astype(jnp.float32)), argnums=(0, 1, 2)))
checksum = 0.0
t0 = time.time()
key = jax.random.PRNGKey(0)
for n in (int(s) for s in a.seqlens.split(",")):
    b = max(1, a.batch_tokens // n)
    key, *ks = jax.random.split(key, 4)
    # jax's layout: [batch, seqlen, heads, head_dim]
    q, k, v = (jax.random.normal(kk, (b, n, a.heads, a.head_dim), dtype=jnp.float16) for kk in ks)
    for it in range(a.iters):
        out = fwd(q, k, v).block_until_ready()
        if it == 0:
            rows = [0, n // 3, n - 1]
            ref = reference_rows(q, k, v, rows, b - 1, a.heads - 1, scale, a.causal)
            got = np.asarray(out[b - 1, :, a.heads - 1, :], dtype=np.float64)[rows]
            err = np.linalg.norm(got - ref) / np.linalg.norm(ref)
            print("pallas check N=%d: rel. L2 %.2e over %d rows (fp64 reference)" % (n, err, len(rows)))
        checksum += float(jnp.sum(out.astype(jnp.float32)))
        if not a.no_backward:
            g = grad(q, k, v)
            checksum += sum(float(jnp.sum(t.astype(jnp.float32))) for t in g)
print("jax_pallas_attention: seqlens %s, done in %.2f s" % (a.seqlens, time.time() - t0))
print("checksum %.6e" % checksum)
