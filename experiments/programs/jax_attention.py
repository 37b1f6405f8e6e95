"""A JAX program's attention: jax.nn.dot_product_attention under jax.jit,
with XLA's own implementation and with cuDNN's fused kernel, forward and
gradient, at the FA2-paper token budget (B*N = 16k, H = 16, d = 128).

    attnprof record -o jax.yaml -- python3 experiments/programs/jax_attention.py

The last line is a checksum of every output and gradient, so a run under
attnprof can be compared with a plain run (docs/capture.md)."""
import argparse
import os
import time

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")  # leave the GPU's memory to others
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

p = argparse.ArgumentParser()
p.add_argument("--impls", default="xla,cudnn")
p.add_argument("--seqlens", default="1024,4096")
p.add_argument("--batch-tokens", type=int, default=16384)
p.add_argument("--heads", type=int, default=16)
p.add_argument("--head-dim", type=int, default=128)
p.add_argument("--causal", type=int, default=1)
p.add_argument("--iters", type=int, default=2)
p.add_argument("--no-backward", action="store_true")
a = p.parse_args()

checksum = 0.0
t0 = time.time()
key = jax.random.PRNGKey(0)
for impl in a.impls.split(","):
    def attend(q, k, v, impl=impl):
        return jax.nn.dot_product_attention(q, k, v, is_causal=bool(a.causal), implementation=impl)

    fwd = jax.jit(attend)
    grad = jax.jit(jax.grad(lambda q, k, v: jnp.sum(attend(q, k, v).astype(jnp.float32)), argnums=(0, 1, 2)))
    for n in (int(s) for s in a.seqlens.split(",")):
        b = max(1, a.batch_tokens // n)
        # jax's layout: [batch, seqlen, heads, head_dim]
        key, *ks = jax.random.split(key, 4)
        q, k, v = (jax.random.normal(kk, (b, n, a.heads, a.head_dim), dtype=jnp.float16) for kk in ks)
        for _ in range(a.iters):
            out = fwd(q, k, v).block_until_ready()
            checksum += float(jnp.sum(out.astype(jnp.float32)))
            if not a.no_backward:
                g = grad(q, k, v)
                checksum += sum(float(jnp.sum(t.astype(jnp.float32))) for t in g)
print("jax_attention: impls %s, seqlens %s, done in %.2f s" % (a.impls, a.seqlens, time.time() - t0))
print("checksum %.6e" % checksum)
