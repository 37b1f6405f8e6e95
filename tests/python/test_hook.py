"""tests/python/test_hook.py ATTNPROF_BINARY: the Python helper without a GPU.

A fake `torch` (NVTX calls recorded, tensors that only have shapes) stands in
for PyTorch, so the test runs where torch is absent.  Checks: the SDPA and
transformers wrappers emit one forward range per call with the grammar's
name (parsed back by `attnprof record --parse-range`), the backend PyTorch
would choose in the name, a pass=bwd range from the grad_fn pre-hook to the
last input gradient, nested wrappers emit once, results are returned
unchanged, and the import hook patches modules imported after install().
Prints "# python: N passed, N failed, N skipped" last.
"""
import enum
import os
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "src", "capture", "python"))
BIN = sys.argv[1] if len(sys.argv) > 1 else "./attnprof"
os.environ["ATTNPROF_HOOK_CHECK"] = "0"
os.environ["ATTNPROF_HOOK_TIME"] = "0"

events = []


class FakeTensor:
    def __init__(self, *shape, dtype="torch.float16", requires_grad=False):
        self.shape, self.dtype, self.is_cuda, self.requires_grad = shape, dtype, True, requires_grad
        self.grad_fn = None
        self.hooks = []

    def detach(self):
        return self

    def transpose(self, a, b):
        s = list(self.shape)
        s[a], s[b] = s[b], s[a]
        return FakeTensor(*s, dtype=self.dtype)

    def register_hook(self, fn):
        self.hooks.append(fn)


class FakeNode:
    def __init__(self):
        self.pre, self.post = [], []

    def register_prehook(self, fn):
        self.pre.append(fn)


def make_fake_torch():
    torch = types.ModuleType("torch")
    torch.__path__ = []
    cuda = types.ModuleType("torch.cuda")
    nvtx = types.ModuleType("torch.cuda.nvtx")
    nvtx.range_push = lambda name: events.append(("push", name))
    nvtx.range_pop = lambda: events.append(("pop", None))
    nvtx.mark = lambda msg: events.append(("mark", msg))
    cuda.nvtx = nvtx
    cuda.memory_allocated = lambda: 1000
    cuda.reset_peak_memory_stats = lambda: None
    cuda.max_memory_allocated = lambda: 5000
    torch.cuda = cuda
    nn = types.ModuleType("torch.nn")
    nn.__path__ = []
    attention = types.ModuleType("torch.nn.attention")

    class SDPBackend(enum.IntEnum):
        ERROR = -1
        MATH = 0
        FLASH_ATTENTION = 1
        EFFICIENT_ATTENTION = 2
        CUDNN_ATTENTION = 3
        OVERRIDEABLE = 4
    attention.SDPBackend = SDPBackend
    nn.attention = attention
    torch.nn = nn
    torch.chosen = [1]
    torch._fused_sdp_choice = lambda *a, **k: torch.chosen[0]
    functional = types.ModuleType("torch.nn.functional")

    def scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                     enable_gqa=False):
        events.append(("kernel", "sdpa"))
        out = FakeTensor(*q.shape, dtype=q.dtype, requires_grad=q.requires_grad)
        if q.requires_grad:
            out.grad_fn = FakeNode()
        return out
    functional.scaled_dot_product_attention = scaled_dot_product_attention
    nn.functional = functional
    for m in (torch, cuda, nvtx, nn, attention, functional):
        sys.modules[m.__name__] = m
    return torch


passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL " + what)


def parses(name):
    r = subprocess.run([BIN, "record", "--parse-range", name], capture_output=True, text=True)
    return r.returncode == 0, r.stdout


torch = make_fake_torch()
import attnprof_hook  # noqa: E402

attnprof_hook.install()
F = sys.modules["torch.nn.functional"]
check(getattr(F.scaled_dot_product_attention, "_attnprof", False), "already-imported torch.nn.functional is patched")

# one forward call: push, the kernel, pop, then the check mark (outside the range)
q = FakeTensor(2, 16, 2048, 128)
k = FakeTensor(2, 4, 2048, 128)
out = F.scaled_dot_product_attention(q, k, k, is_causal=True)
kinds = [e[0] for e in events]
check(kinds[:3] == ["push", "kernel", "pop"], "the call's kernels are inside its range: %s" % kinds)
check(kinds[3:] == ["mark", "push", "mark", "pop"] and events[3][1].startswith("attnprof-env: torch=")
      and events[4][1] == "attnprof-helper" and events[5][1].startswith("attnprof-check: call=0"),
      "after the range: the libraries once, then the check mark inside the helper's own (non-attention) range: %s" % kinds)
name = events[0][1]
ok, shown = parses(name)
check(ok, "the range name parses: %s" % name)
check("impl:    sdpa-flash" in shown and "B=2 H=16 Hkv=4 Nq=2048 Nkv=2048 d=128" in shown and "causal:  1" in shown,
      "impl, shape and mask read back")
check(out.shape == q.shape, "the result is returned unchanged")

# the backend PyTorch would pick is named; calls are numbered
events.clear()
torch.chosen[0] = 0
F.scaled_dot_product_attention(FakeTensor(1, 8, 1, 64, dtype="torch.bfloat16"), FakeTensor(1, 8, 300, 64), FakeTensor(1, 8, 300, 64))
ok, shown = parses(events[0][1])
check(ok and "impl:    sdpa-math" in shown and "(decode)" in shown and "dtype:   bf16" in shown and "call:    1" in shown,
      "math backend, decode shape, bf16, call 1")

# backward: a pass=bwd range from the grad_fn pre-hook to the last input gradient hook
events.clear()
torch.chosen[0] = 3
qg, kg, vg = (FakeTensor(2, 16, 1024, 128, requires_grad=True) for _ in range(3))
o = F.scaled_dot_product_attention(qg, kg, vg)
check(len(o.grad_fn.pre) == 1 and all(len(t.hooks) == 1 for t in (qg, kg, vg)), "backward hooks registered")
events.clear()
o.grad_fn.pre[0]((None,))
for t in (qg, kg, vg):
    check(events[-1][0] != "pop", "backward range still open before the last gradient")
    t.hooks[0](None)
check([e[0] for e in events] == ["push", "pop"], "one backward range")
ok, shown = parses(events[0][1])
check(ok and "pass:    bwd" in shown and "impl:    sdpa-cudnn" in shown, "the backward range names pass=bwd")

# nested: a wrapper inside a wrapper emits once
events.clear()
inner = F.scaled_dot_product_attention
attnprof_hook._state.inside = True
inner(q, k, k)
attnprof_hook._state.inside = False
check([e[0] for e in events] == ["kernel"], "no range inside another captured call")

# transformers: a modeling module imported after install() is patched
pkg = types.ModuleType("transformers")
pkg.__path__ = []
models = types.ModuleType("transformers.models")
models.__path__ = []
sys.modules["transformers"] = pkg
sys.modules["transformers.models"] = models
mod = types.ModuleType("transformers.models.llama.modeling_llama")


def eager_attention_forward(module, query, key, value, attention_mask, scaling, dropout=0.0, **kw):
    events.append(("kernel", "gemm+softmax+gemm"))
    return FakeTensor(query.shape[0], query.shape[2], query.shape[1], query.shape[3]), None


mod.eager_attention_forward = eager_attention_forward
attnprof_hook.patch_module(mod)
events.clear()
res = mod.eager_attention_forward(types.SimpleNamespace(training=False), q, k, k, None, 0.088)
check([e[0] for e in events][:3] == ["push", "kernel", "pop"], "transformers eager call in a range")
ok, shown = parses(events[0][1])
check(ok and "impl:    transformers-eager" in shown and "Hkv=4" in shown, "eager range names its impl and GQA")
check(isinstance(res, tuple) and res[1] is None, "eager result unchanged")

# calls outside --skip-calls/--max-calls get no check mark
events.clear()
os.environ["ATTNPROF_INJECT_SKIP_CALLS"] = "1000"
F.scaled_dot_product_attention(q, k, k)
check("mark" not in [e[0] for e in events], "no check for a call record leaves unprofiled")

os.environ["ATTNPROF_INJECT_SKIP_CALLS"] = "0"

# FlexAttention: eager calls and torch.compile(flex_attention) are marked with the
# block mask's density; traced inside a compiled model, the original runs unmarked
compiling = [False]
torch.compiler = types.SimpleNamespace(is_compiling=lambda: compiling[0])
compiled = []


def real_compile(fn, *a, **kw):
    compiled.append(fn)

    def run(*args, **kwargs):
        events.append(("kernel", "compiled"))
        return fn(*args, **kwargs)
    return run


torch.compile = real_compile
flexmod = types.ModuleType("torch.nn.attention.flex_attention")


def flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None, enable_gqa=False,
                   return_lse=False, kernel_options=None):
    events.append(("kernel", "flex"))
    out = FakeTensor(*query.shape, dtype=query.dtype, requires_grad=query.requires_grad)
    if query.requires_grad:
        out.grad_fn = FakeNode()
    return (out, None) if return_lse else out


class FakeBlockMask:
    mask_mod = None

    def sparsity(self):
        return 43.75  # percent of tile pairs skipped


flexmod.flex_attention = flex_attention
attnprof_hook.patch_module(flexmod)
check(getattr(flexmod.flex_attention, "_attnprof", False) and getattr(torch.compile, "_attnprof", False),
      "flex_attention and torch.compile patched when the flex module loads")
events.clear()
qf = FakeTensor(4, 16, 4096, 128, requires_grad=True)
res = flexmod.flex_attention(qf, qf, qf, block_mask=FakeBlockMask(), return_lse=True)
check(isinstance(res, tuple) and [e[0] for e in events][:3] == ["push", "kernel", "pop"], "eager flex call in a range")
ok, shown = parses(events[0][1])
check(ok and "impl:    flex-eager" in shown and "density: 0.5625" in shown, "eager flex names its impl and density: %s" % shown)
res[0].grad_fn.pre[0]((None,))
check(events[-1][0] == "push" and "pass=bwd" in events[-1][1] and "density=0.562500" in events[-1][1],
      "the flex backward range carries the density")
events.clear()
cf = torch.compile(flexmod.flex_attention)
check(compiled[-1] is flex_attention, "torch.compile(flex_attention) compiles the original")
cf(qf, qf, qf, block_mask=FakeBlockMask())
ok, shown = parses(events[0][1])
check(ok and "impl:    flex-compiled" in shown and [e[0] for e in events][:4] == ["push", "kernel", "kernel", "pop"],
      "a compiled flex call is marked around its compiled kernels")
check(torch.compile(len) is not None and compiled[-1] is len, "torch.compile of anything else is the original")
events.clear()
compiling[0] = True
flexmod.flex_attention(qf, qf, qf, block_mask=FakeBlockMask())
compiling[0] = False
check([e[0] for e in events] == ["kernel"], "traced by torch.compile: no range, the original call")

# JAX: jax.nn.dot_product_attention runs inside a jax.named_scope carrying its
# range (a fake jax records the scopes; JAX's layout is [B, T, N, H])
scopes = []


class FakeArray:
    def __init__(self, *shape, dtype="bfloat16"):
        self.shape, self.dtype = shape, dtype


class _Scope:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        scopes.append(("enter", self.name))

    def __exit__(self, *exc):
        scopes.append(("exit", self.name))
        return False


jax = types.ModuleType("jax")
jax.named_scope = _Scope
jaxnn = types.ModuleType("jax.nn")


def dot_product_attention(query, key, value, bias=None, mask=None, *, scale=None, is_causal=False,
                          implementation=None):
    scopes.append(("call", implementation))
    return query


jaxnn.dot_product_attention = dot_product_attention
jax.nn = jaxnn
sys.modules["jax"], sys.modules["jax.nn"] = jax, jaxnn
attnprof_hook.patch_module(jaxnn)
check(getattr(jaxnn.dot_product_attention, "_attnprof", False), "jax.nn.dot_product_attention is patched")
q, kv = FakeArray(4, 1024, 16, 128), FakeArray(4, 1024, 8, 128)
res = jaxnn.dot_product_attention(q, kv, kv, is_causal=True, implementation="cudnn")
check(res is q and [e[0] for e in scopes] == ["enter", "call", "exit"], "the call runs inside one scope: %s" % scopes)
ok, shown = parses(scopes[0][1])
check(ok and "impl:    jax-cudnn" in shown and "B=4 H=16 Hkv=8 Nq=1024 Nkv=1024 d=128" in shown and "causal:  1" in shown
      and "dtype:   bf16" in shown and "call:" in shown, "the scope is the call's range: %s" % shown)
first_call = scopes[0][1]
scopes[:] = []
jaxnn.dot_product_attention(q, kv, kv, is_causal=True, implementation="cudnn")
check(scopes[0][1] != first_call, "a second call site has its own call number: %s" % scopes[0][1])
scopes[:] = []
res = jaxnn.dot_product_attention(FakeArray(7, 3), kv, kv)
check([e[0] for e in scopes] == ["call"], "a call whose shapes are not attention's runs unmarked")
# JAX's Pallas FlashAttention (q, k, v, segment_ids, *, sm_scale, causal): the same scope
pallas = types.ModuleType("jax.experimental.pallas.ops.gpu.attention")


def mha(q, k, v, segment_ids, sm_scale=1.0, causal=False, block_q=128, block_k=128):
    scopes.append(("call", "pallas"))
    return q


pallas.mha = mha
attnprof_hook.patch_module(pallas)
check(getattr(pallas.mha, "_attnprof", False), "pallas attention.mha is patched")
scopes[:] = []
qp = FakeArray(2, 2048, 16, 128, dtype="float16")
res = pallas.mha(qp, qp, qp, None, sm_scale=0.088, causal=True)
check(res is qp and [e[0] for e in scopes] == ["enter", "call", "exit"], "a Pallas call runs inside one scope: %s" % scopes)
ok, shown = parses(scopes[0][1])
check(ok and "impl:    jax-pallas" in shown and "B=2 H=16 Hkv=16 Nq=2048 Nkv=2048 d=128" in shown and "causal:  1" in shown
      and "dtype:   fp16" in shown, "the Pallas scope is the call's range: %s" % shown)
attnprof_hook.patch_module(pallas)
check(pallas.mha.__wrapped__ is mha, "patching twice wraps once")
# masks: transformers' eager path passes an additive mask (0 visible, the dtype's minimum hidden);
# the causal pattern (bottom-right aligned) makes the call causal, anything else stays masked


class ListMask:
    """A [B, H, Nq, Nkv] mask of Python numbers with the few tensor operations mask_kind uses."""
    def __init__(self, rows, dtype="torch.float16", shape=None):
        self.rows, self.dtype = rows, dtype  # rows[b][h][i] -> list of Nkv values
        self.shape = shape or (len(rows), len(rows[0]), len(rows[0][0]), len(rows[0][0][0]))

    def __getitem__(self, key):
        if len(key) == 4 and isinstance(key[2], slice):  # [:, :, :, :nkv]
            return ListMask([[[row[key[3]] for row in r] for r in bh] for bh in self.rows], self.dtype)
        if len(key) == 4:  # [:, :, i, :nkv]
            i, cols = key[2], key[3]
            return ListMask([[[r[i][cols]] for r in bh] for bh in self.rows], self.dtype)
        cols = key[2]  # [:, :, a:b] of a row view
        return ListMask([[[r[0][cols]] for r in bh] for bh in self.rows], self.dtype)

    def _values(self):
        return [x for bh in self.rows for r in bh for row in r for x in row]

    def _map(self, f):
        return ListMask([[[[f(x) for x in row] for row in r] for r in bh] for bh in self.rows], "torch.bool")

    def __eq__(self, v):
        return self._map(lambda x: x == v)

    def __le__(self, v):
        return self._map(lambda x: x <= v)

    def all(self):
        return all(self._values())

    def any(self):
        return any(self._values())


MIN16 = -65504.0


def causal_rows(nq, nkv, hidden=MIN16, visible=0.0):
    off = nkv - nq
    return [[visible if j <= i + off else hidden for j in range(nkv)] for i in range(nq)]


def mask_of(rows, B=2, dtype="torch.float16"):
    return ListMask([[[list(r) for r in rows]] for _ in range(B)], dtype)


kind = attnprof_hook.mask_kind
check(kind(mask_of(causal_rows(64, 64)), 64, 64) == "additive-causal", "an additive causal mask reads as causal")
check(kind(mask_of(causal_rows(16, 80, hidden=float("-inf"))), 16, 80) == "additive-causal",
      "bottom-right aligned with Nq < Nkv (a KV cache), -inf hidden")
check(kind(mask_of(causal_rows(64, 64)), 64, 48) == "additive", "a mask that does not match the keys' length")
# top-left aligned with Nq < Nkv is not the KV cache's causal pattern
tl = [[0.0 if j <= i else MIN16 for j in range(80)] for i in range(16)]
check(kind(mask_of(tl), 16, 80) == "additive", "top-left aligned with Nq < Nkv stays masked")
# padding: one batch element hides its first 3 keys (left padding)
pad = ListMask([[causal_rows(64, 64)], [[[MIN16 if j < 3 else v for j, v in enumerate(r)] for r in causal_rows(64, 64)]]])
check(kind(pad, 64, 64) == "additive", "a padded batch element keeps the call masked")
win = [[0.0 if i - 8 < j <= i else MIN16 for j in range(64)] for i in range(64)]
check(kind(mask_of(win), 64, 64) == "additive", "a sliding window stays masked")
check(kind(mask_of([[0.0] * 300]), 1, 300) == "additive-none", "a decode step's mask hides nothing")
check(kind(mask_of([[-0.5 if j == 0 else 0.0 for j in range(64)] if i == 63 else r
                    for i, r in enumerate(causal_rows(64, 64))]), 64, 64) == "additive",
      "a bias (neither 0 nor hidden) is not causal")
bools = mask_of([[v == 0.0 for v in r] for r in causal_rows(32, 32)], dtype="torch.bool")
check(kind(bools, 32, 32) == "bool-causal", "a boolean causal mask")
check(kind(None, 4, 4) is None, "no mask")

events.clear()
res = mod.eager_attention_forward(types.SimpleNamespace(training=False), FakeTensor(2, 16, 64, 128),
                                  FakeTensor(2, 4, 64, 128), FakeTensor(2, 4, 64, 128), mask_of(causal_rows(64, 64)), 0.088)
ok, shown = parses(events[0][1])
check(ok and "causal:  1" in shown and "mask:    additive-causal" in shown,
      "an eager call with an additive causal mask is recorded causal: %s" % shown)
events.clear()
mod.eager_attention_forward(types.SimpleNamespace(training=False), FakeTensor(2, 16, 64, 128),
                            FakeTensor(2, 4, 64, 128), FakeTensor(2, 4, 64, 128), pad, 0.088)
ok, shown = parses(events[0][1])
check(ok and "causal:  0" in shown and "mask:    additive\n" in shown, "a padded eager call stays masked: %s" % shown)
check(not parses("attnprof: impl=x causal=0 mask=additive-causal")[0] and
      not parses("attnprof: impl=x mask=causal")[0], "mask= contradicting causal=0, or unknown, is refused")


# never harm the program: while a CUDA graph is captured (this stream, or any
# in the process) nothing that synchronises or launches work of the helper's
# runs: no check, no re-timing, no mask read, no memory statistics reset; the
# check mark says why (skipped=capture).  Outside a capture the same call is
# checked and re-timed (so this test fails if the checks never run).
helper_ran = []
qt, kt = FakeTensor(2, 16, 2048, 128), FakeTensor(2, 4, 2048, 128)
real_check, real_retime = attnprof_hook._check, attnprof_hook._retime
attnprof_hook._check = lambda *a: helper_ran.append("check") or (0.0, 0.0, 1)
attnprof_hook._retime = lambda *a: helper_ran.append("retime") or (1.0, 1.0, 1.0, 1)
capturing = [False]
torch.cuda.is_current_stream_capturing = lambda: capturing[0]
torch.cuda.reset_peak_memory_stats = lambda: helper_ran.append("reset")
os.environ["ATTNPROF_HOOK_CHECK"] = "1"
os.environ["ATTNPROF_HOOK_TIME"] = "1"
events.clear()
F.scaled_dot_product_attention(qt, kt, kt)
check(helper_ran == ["reset", "check", "retime"], "an eager call is checked and re-timed: %s" % helper_ran)


class Unreadable:
    """A mask whose values must not be read (reading a CUDA tensor during capture synchronises)."""
    dtype, shape = "torch.float16", (2, 1, 2048, 2048)

    def __getitem__(self, key):
        helper_ran.append("mask read")
        raise RuntimeError("operation not permitted when stream is capturing")


helper_ran.clear()
events.clear()
capturing[0] = True
out = F.scaled_dot_product_attention(qt, kt, kt, attn_mask=Unreadable())
check(out.shape == qt.shape and helper_ran == [], "captured on this stream: nothing of the helper's ran: %s" % helper_ran)
marks = [e[1] for e in events if e[0] == "mark"]
check(len(marks) == 1 and marks[0].endswith(" skipped=capture") and marks[0].startswith("attnprof-check: call="),
      "the call's check mark says it was skipped for the capture: %s" % marks)
ok, shown = parses([e[1] for e in events if e[0] == "push"][0])
check(ok and "mask:    additive\n" in shown and "causal:  0" in shown, "its mask is not read: masked, not causal: %s" % shown)
capturing[0] = False

# a capture on another stream or thread: torch.cuda.CUDAGraph's capture_begin/end are counted
graphs = types.ModuleType("torch.cuda.graphs")


class CUDAGraph:
    def capture_begin(self, pool=None, capture_error_mode="global"):
        return ("began", pool, capture_error_mode)

    def capture_end(self):
        return "ended"


graphs.CUDAGraph = CUDAGraph
attnprof_hook.patch_module(graphs)
gph = CUDAGraph()
check(gph.capture_begin(None, capture_error_mode="thread_local") == ("began", None, "thread_local"),
      "capture_begin passes its arguments and result through")
helper_ran.clear()
events.clear()
F.scaled_dot_product_attention(qt, kt, kt)
check(helper_ran == [] and [e[1] for e in events if e[0] == "mark"][-1].endswith("skipped=capture"),
      "a capture begun elsewhere in the process defers the helper: %s" % helper_ran)
check(gph.capture_end() == "ended", "capture_end passes its result through")
F.scaled_dot_product_attention(qt, kt, kt)
check(helper_ran == ["reset", "check", "retime"], "after the capture ended the helper runs again: %s" % helper_ran)
attnprof_hook.patch_module(graphs)
check(CUDAGraph.capture_begin.__wrapped__.__name__ == "capture_begin" and
      not getattr(CUDAGraph.capture_begin.__wrapped__, "_attnprof", False), "CUDAGraph is wrapped once")
# the injection library's count (any cuStreamBeginCapture in the process, JAX's too)
helper_ran.clear()
attnprof_hook._inject_fn[0] = lambda: 1
F.scaled_dot_product_attention(qt, kt, kt)
attnprof_hook._inject_fn[0] = None
check(helper_ran == [], "a capture the injection library counts defers the helper: %s" % helper_ran)

# a backward whose gradient hooks run while a graph is captured: no re-run, a skip mark
helper_ran.clear()
qg, kg, vg = (FakeTensor(2, 16, 1024, 128, requires_grad=True) for _ in range(3))
o = F.scaled_dot_product_attention(qg, kg, vg)
events.clear()
capturing[0] = True
o.grad_fn.pre[0](("grad",))
for t in (qg, kg, vg):
    t.hooks[0](None)
capturing[0] = False
marks = [e[1] for e in events if e[0] == "mark"]
check(len(marks) == 1 and marks[0].endswith("pass=bwd skipped=capture"), "a captured backward is skipped: %s" % marks)

# invisible to torch.compile: while Dynamo traces, the original runs (no range,
# no check), and the helper's own work is excluded from tracing (compiler.disable)
disabled = []


def disable(fn):
    disabled.append(fn.__name__)
    return fn


compiling[0] = True
events.clear()
helper_ran.clear()
F.scaled_dot_product_attention(qt, kt, kt)
mod.eager_attention_forward(types.SimpleNamespace(training=False), qt, kt, kt, Unreadable(), 0.088)
check([e[0] for e in events] == ["kernel", "kernel"] and helper_ran == [],
      "traced by torch.compile: SDPA and eager attention are the originals: %s %s" % (events, helper_ran))
compiling[0] = False
torch.compiler.disable = disable
F.scaled_dot_product_attention(qt, kt, kt)
check("_after_forward" in disabled, "the helper's checking is excluded from Dynamo: %s" % disabled)
del torch.compiler.disable
attnprof_hook._check, attnprof_hook._retime = real_check, real_retime
os.environ["ATTNPROF_HOOK_CHECK"] = "0"
os.environ["ATTNPROF_HOOK_TIME"] = "0"

print("# python: %d passed, %d failed, 0 skipped" % (passed, failed))
sys.exit(1 if failed else 0)
