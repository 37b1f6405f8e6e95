"""attnprof_hook: mark a Python program's attention calls for `attnprof record -- CMD`.

Installed by sitecustomize (ATTNPROF_HOOK=1).  It wraps, as they are imported,

  * torch.nn.functional.scaled_dot_product_attention   impl=sdpa-<backend PyTorch chose>
  * transformers' eager_attention_forward (every modeling_* module)   impl=transformers-eager
  * torch.nn.attention.flex_attention.flex_attention, called eagerly      impl=flex-eager
    and compiled by torch.compile(flex_attention)                         impl=flex-compiled
    (inside a model compiled whole it is traced, not called: the kernels
    are found by family instead, record --scan, shape unknown)
  * jax.nn.dot_product_attention                                        impl=jax-<implementation>
    (a jax.named_scope carrying the range: XLA's NVTX range of each
    thunk is named after its operation, so the range reaches attnprof at
    every execution of the compiled program; no check or re-timing)
  * jax.experimental.pallas.ops.gpu.attention.mha (JAX's Pallas
    FlashAttention, a Triton kernel)                                    impl=jax-pallas
    (the same named_scope)

and brackets each call with an NVTX range named by the grammar of
src/capture/range_name.h ("attnprof: impl=... B= H= Hkv= Nq= Nkv= d= causal=
dtype= pass=fwd call=N origin=..."), and its backward with a pass=bwd range
(from the output's grad_fn pre-hook to the last of the q, k, v gradient hooks).
The injection library profiles only kernels inside such ranges.

After each forward call, outside any range (so nothing here is profiled), it
checks sampled rows of the output against an fp64 reference, re-times the call
unprofiled with CUDA events, and reports the device memory the call allocated
beyond its inputs, in one NVTX mark "attnprof-check: call=N ...".  The program's
results are never changed: every wrapper returns what the original returned.

Environment: ATTNPROF_HOOK_CHECK=0 / ATTNPROF_HOOK_TIME=0 turn the check / the
re-timing off; ATTNPROF_INJECT_SKIP_CALLS and _MAX_CALLS (set by record) limit
both to the calls that are captured.
"""
import contextlib
import functools
import os
import sys
import threading

__all__ = ["install", "range_name", "TOLERANCES"]

# the same tolerances as `attnprof record` (src/spec.c), per dtype; fp32 for MATH on fp32 inputs
TOLERANCES = {"fp16": (1e-2, 5e-3), "bf16": (5e-2, 2e-2), "fp32": (1e-3, 1e-3)}
CHECK_ROWS = 64        # query rows compared per call (first, last and seeded middle heads)
# gradients, as `attnprof record` checks its own backward (src/grad_check.c):
# (max |error| as a fraction of max |reference|, relative L2) per dtype
GRAD_TOLERANCES = {"fp16": (5e-2, 1e-2), "bf16": (2e-1, 4e-2), "fp32": (1e-3, 1e-3)}
GRAD_CHECK_MAX_PAIRS = 1 << 25  # Nq x Nkv of one head's fp64 reference (4 such matrices: 1 GiB); src/doc/capreview.c names it
TIME_REPS, TIME_WARMUP = 10, 2

_state = threading.local()
_counter = [0]
_lock = threading.Lock()
_installed = [False]


def _env_int(name, default):
    try:
        return int(os.environ.get(name, ""))
    except ValueError:
        return default


# CUDA graph captures begun through torch.cuda.CUDAGraph in this process and
# not yet ended (any stream, any thread): see _capturing
_captures = [0]


def _inject_captures():
    """The injection library's count of CUDA graph captures in progress in this
    process (every cuStreamBeginCapture it saw, any framework, any thread), or 0
    when it is not loaded or has no such count."""
    f = _inject_fn[0]
    if f is None:
        f = False
        path = os.environ.get("CUDA_INJECTION64_PATH", "")
        if path:
            try:
                import ctypes
                f = ctypes.CDLL(path).attnprof_inject_captures
                f.restype, f.argtypes = ctypes.c_int, []
            except Exception:
                f = False
        _inject_fn[0] = f
    try:
        return f() if f else 0
    except Exception:
        return 0


_inject_fn = [None]


def _capturing(torch):
    """True while a CUDA graph may be being captured anywhere in the process.
    Then nothing of the helper's may run that synchronises, copies to the host
    or launches work of its own (.item(), .cpu(), bool() of a CUDA tensor, event
    timing, the memory statistics' reset): it would invalidate the program's
    capture ("operation not permitted when stream is capturing")."""
    if _captures[0] > 0:
        return True
    try:
        if torch.cuda.is_current_stream_capturing():
            return True
    except Exception:
        pass
    return _inject_captures() > 0


def _compiling(torch):
    """True while torch.compile (Dynamo) traces the caller: the helper passes
    straight through to the original, so the compiled graph is the program's."""
    try:
        return bool(torch.compiler.is_compiling())
    except Exception:
        return False


def _no_trace(fn):
    """fn excluded from Dynamo's tracing (torch.compiler.disable, or
    torch._dynamo.disable on older PyTorch), resolved at the first call so
    that importing the helper imports nothing of torch's."""
    done = [None, fn]  # the disable it was resolved with, the function to call

    @functools.wraps(fn)
    def call(*a, **kw):
        torch = sys.modules.get("torch")
        dis = getattr(getattr(torch, "compiler", None), "disable", None)
        if dis is None:
            dis = getattr(getattr(torch, "_dynamo", None), "disable", None)
        if dis is not done[0]:
            f = fn
            if dis is not None:
                try:
                    f = dis(fn)
                except Exception:
                    f = fn
            done[0], done[1] = dis, f
        return done[1](*a, **kw)
    return call


def wrap_capture(cls):
    """torch.cuda.CUDAGraph: capture_begin / capture_end counted (_captures),
    what the program passes and gets back unchanged."""
    begin, end = getattr(cls, "capture_begin", None), getattr(cls, "capture_end", None)
    if begin is None or end is None or getattr(begin, "_attnprof", False):
        return

    def capture_begin(self, *a, **kw):
        res = begin(self, *a, **kw)
        with _lock:
            _captures[0] += 1
        return res

    def capture_end(self, *a, **kw):
        try:
            return end(self, *a, **kw)
        finally:
            with _lock:
                _captures[0] = max(0, _captures[0] - 1)
    for f, o in ((capture_begin, begin), (capture_end, end)):
        f.__wrapped__, f._attnprof = o, True
        functools.update_wrapper(f, o, assigned=("__name__", "__qualname__", "__doc__"), updated=())
    cls.capture_begin, cls.capture_end = capture_begin, capture_end


def _skip_mark(call, why, pass_=None):
    """The check mark of a call the helper left alone: no check, no re-timing,
    the reason in the record (capture.check_skipped)."""
    _nvtx().mark("attnprof-check: call=%d%s skipped=%s" % (call, " pass=bwd" if pass_ == "bwd" else "", why))


def _dtype_name(t):
    s = str(getattr(t, "dtype", ""))
    return {"torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float32": "fp32"}.get(s, "")


def range_name(impl, q, k, causal, pass_, call, origin, density=None, mask=None):
    """The NVTX range name for one call (q: [B, H, Nq, d], k: [B, Hkv, Nkv, d]);
    density: the fraction of (query block, key block) pairs computed (a block mask);
    mask: what a mask tensor was read as (mask_kind)."""
    parts = ["attnprof:", "impl=%s" % impl]
    qs, ks = tuple(getattr(q, "shape", ())), tuple(getattr(k, "shape", ()))
    if len(qs) == 4 and len(ks) == 4 and qs[0] == ks[0] and qs[3] == ks[3] and ks[1] > 0 and qs[1] % ks[1] == 0:
        parts.append("B=%d H=%d Hkv=%d Nq=%d Nkv=%d d=%d" % (qs[0], qs[1], ks[1], qs[2], ks[2], qs[3]))
    parts.append("causal=%d" % (1 if causal else 0))
    if density is not None:
        parts.append("density=%.6f" % density)
    if mask:
        parts.append("mask=" + mask)
    dt = _dtype_name(q)
    if dt:
        parts.append("dtype=" + dt)
    parts.append("pass=" + pass_)
    parts.append("call=%d" % call)
    parts.append("origin=" + origin)
    return " ".join(parts)


# An additive mask entry at or below this hides its key: transformers writes the
# dtype's minimum (-65504 in fp16), others -inf; exp(-1e4) is 0 in every float format.
MASK_HIDDEN = -1e4
MASK_SAMPLE_ROWS = 8


def _mask_rows(nq):
    """The query rows mask_kind reads: the first two, the last two, and evenly between."""
    rows = {0, min(1, nq - 1), max(nq - 2, 0), nq - 1}
    for i in range(1, MASK_SAMPLE_ROWS - 3):
        rows.add(i * (nq - 1) // (MASK_SAMPLE_ROWS - 3))
    return sorted(rows)


def mask_kind(mask, nq, nkv):
    """What an attention mask is, read cheaply on sampled query rows of every batch and head:
    "additive-causal" / "bool-causal" when it equals the causal pattern (key j visible to
    query i iff j <= i + Nkv - Nq: bottom-right aligned, as a KV cache sees it) and hides
    something; "additive-none" / "bool-none" when it hides nothing (a decode step's mask);
    "additive" / "bool" otherwise (padding, a window: the call stays masked); None without
    a mask.  Additive: 0 is visible, <= MASK_HIDDEN hidden, anything else is another mask;
    bool: True is visible."""
    if mask is None:
        return None
    boolean = "bool" in str(getattr(mask, "dtype", ""))
    kind = "bool" if boolean else "additive"
    shape = tuple(getattr(mask, "shape", ()))
    if len(shape) != 4 or shape[-2] != nq or shape[-1] < nkv or nq <= 0 or nkv <= 0:
        return kind
    causal = none = True
    for i in _mask_rows(nq):
        row = mask[:, :, i, :nkv]
        last = i + nkv - nq  # the last key row i sees under the causal pattern
        seen, hidden = row[:, :, : max(last + 1, 0)], row[:, :, max(last + 1, 0):]
        if boolean:
            if not bool(seen.all()) or (last + 1 < nkv and bool(hidden.any())):
                causal = False
            if not bool(row.all()):
                none = False
        else:
            if not bool((seen == 0).all()) or (last + 1 < nkv and not bool((hidden <= MASK_HIDDEN).all())):
                causal = False
            if not bool((row == 0).all()):
                none = False
        if not (causal or none):
            return kind
    return kind + ("-none" if none else "-causal")


def _mask_kind_now(torch, mask, nq, nkv):
    """mask_kind, but while a graph is captured the mask's values are not read
    (bool() of a CUDA tensor synchronises): the call stays masked ("additive" /
    "bool"), causal only if the program says is_causal."""
    if mask is not None and _capturing(torch):
        return "bool" if "bool" in str(getattr(mask, "dtype", "")) else "additive"
    return mask_kind(mask, nq, nkv)


def _next_call():
    with _lock:
        n = _counter[0]
        _counter[0] += 1
    return n


def _captured(call):
    skip = _env_int("ATTNPROF_INJECT_SKIP_CALLS", 0)
    most = _env_int("ATTNPROF_INJECT_MAX_CALLS", -1)
    return call >= skip and (most < 0 or call < skip + most)


def _nvtx():
    import torch
    return torch.cuda.nvtx


_env_said = [False]


def _say_env(torch):
    """Once: the library versions, for the results' header (attnprof-env mark)."""
    if _env_said[0]:
        return
    _env_said[0] = True
    parts = ["torch=%s" % getattr(torch, "__version__", "unknown")]
    try:
        parts.append("cudnn=%s" % torch.backends.cudnn.version())
    except Exception:
        pass
    for mod in ("transformers", "triton"):
        m = sys.modules.get(mod)
        if m is not None and getattr(m, "__version__", None):
            parts.append("%s=%s" % (mod, m.__version__))
    try:
        parts.append("cuda=%s" % torch.version.cuda)
    except Exception:
        pass
    _nvtx().mark("attnprof-env: " + " ".join(parts))


class _Quiet:
    """A range around the helper's own work (check, re-timing): not an
    attention range, so record's family scan takes none of its kernels."""

    def __enter__(self):
        _nvtx().range_push("attnprof-helper")

    def __exit__(self, *exc):
        _nvtx().range_pop()
        return False


def _sdpa_impl(torch, q, k, v, attn_mask, dropout_p, is_causal, scale, enable_gqa):
    """impl=sdpa-<backend>: the backend PyTorch's dispatcher picks for these arguments."""
    try:
        try:
            i = torch._fused_sdp_choice(q, k, v, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)
        except TypeError:
            i = torch._fused_sdp_choice(q, k, v, attn_mask, dropout_p, is_causal, scale=scale)
        from torch.nn.attention import SDPBackend
        name = SDPBackend(i).name
    except Exception:
        return "sdpa"
    return {"FLASH_ATTENTION": "sdpa-flash", "EFFICIENT_ATTENTION": "sdpa-efficient",
            "CUDNN_ATTENTION": "sdpa-cudnn", "MATH": "sdpa-math",
            "OVERRIDEABLE": "sdpa-overrideable"}.get(name, "sdpa-" + name.lower())


def _reference_rows(torch, q, k, v, rows, b, h, scale, causal, mask):
    """fp64 attention for rows of head (b, h); mask: None, bool or additive, broadcastable to [B, H, Nq, Nkv]."""
    hk = h // (q.shape[1] // k.shape[1])
    qd = q[b, h, rows].double()
    kd, vd = k[b, hk].double(), v[b, hk].double()
    s = (qd @ kd.transpose(0, 1)) * scale
    nq, nkv = q.shape[2], k.shape[2]
    if causal:
        # SDPA's is_causal: top-left aligned (key j visible to query i when j <= i)
        cols = torch.arange(nkv, device=q.device).unsqueeze(0)
        s = s.masked_fill(cols > rows.unsqueeze(1), float("-inf"))
    if callable(mask):  # a FlexAttention mask_mod, evaluated on these rows only
        cols = torch.arange(nkv, device=q.device)
        m = mask(torch.tensor(b, device=q.device), torch.tensor(h, device=q.device),
                 rows.unsqueeze(1), cols.unsqueeze(0)).expand(len(rows), nkv)
        s = s.masked_fill(~m, float("-inf"))
    elif mask is not None:
        m = mask.expand(q.shape[0], q.shape[1], nq, nkv)[b, h, rows]
        if m.dtype == torch.bool:
            s = s.masked_fill(~m, float("-inf"))
        else:
            s = s + m.double()
    p = torch.softmax(s, dim=-1)
    # a row with every key masked: FlexAttention and SDPA give 0, softmax NaN
    p = torch.nan_to_num(p, nan=0.0)
    return p @ vd


def _check(torch, q, k, v, out_bhnd, scale, causal, mask):
    """(max_abs, rel_l2, rows) of out against fp64 on sampled rows of three heads."""
    B, H, Nq = q.shape[0], q.shape[1], q.shape[2]
    g = torch.Generator(device="cpu")
    g.manual_seed(Nq * 1000003 + B * 131 + H)
    heads = {(0, 0), (B - 1, H - 1), (int(torch.randint(B, (1,), generator=g)), int(torch.randint(H, (1,), generator=g)))}
    n = min(Nq, max(1, CHECK_ROWS // len(heads)))
    rows = torch.randperm(Nq, generator=g)[:n].sort().values.to(q.device)
    err2 = ref2 = 0.0
    max_abs = 0.0
    for b, h in sorted(heads):
        ref = _reference_rows(torch, q, k, v, rows, b, h, scale, causal, mask)
        got = out_bhnd[b, h, rows].double()
        d = (got - ref)
        if not torch.isfinite(got).all():
            return float("inf"), float("inf"), n * len(heads)
        max_abs = max(max_abs, float(d.abs().max()))
        err2 += float((d * d).sum())
        ref2 += float((ref * ref).sum())
    return max_abs, (err2 ** 0.5) / max(ref2 ** 0.5, 1e-300), n * len(heads)


def _retime(torch, fn):
    """Median, min, max of TIME_REPS unprofiled runs (ms) between CUDA events."""
    with torch.no_grad():
        for _ in range(TIME_WARMUP):
            fn()
        ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(TIME_REPS)]
        for a, b in ev:
            a.record()
            fn()
            b.record()
        torch.cuda.synchronize()
        ms = sorted(a.elapsed_time(b) for a, b in ev)
    n = len(ms)
    med = ms[n // 2] if n % 2 else 0.5 * (ms[n // 2 - 1] + ms[n // 2])
    return med, ms[0], ms[-1], n


def _retime_backward(torch, forward, inputs, go):
    """Median, min, max (ms) of TIME_REPS unprofiled backwards, each of a fresh
    forward's graph, only the backward between the CUDA events."""
    ms = []
    for i in range(TIME_WARMUP + TIME_REPS):
        out = forward()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        torch.autograd.grad(out, inputs, go)
        b.record()
        b.synchronize()
        if i >= TIME_WARMUP:
            ms.append(a.elapsed_time(b))
    ms.sort()
    n = len(ms)
    med = ms[n // 2] if n % 2 else 0.5 * (ms[n // 2 - 1] + ms[n // 2])
    return med, ms[0], ms[-1], n


@_no_trace
def _after_forward(torch, call, q, k, v, out_bhnd, scale, causal, mask, rerun, footprint, dropout):
    if not _captured(call):
        return
    if _capturing(torch):
        _skip_mark(call, "capture")
        return
    _say_env(torch)
    with _Quiet():
        _check_and_time(torch, call, q, k, v, out_bhnd, scale, causal, mask, rerun, footprint, dropout)


@_no_trace
def _check_and_time(torch, call, q, k, v, out_bhnd, scale, causal, mask, rerun, footprint, dropout):
    if _capturing(torch):
        _skip_mark(call, "capture")
        return
    fields = ["call=%d" % call]
    if os.environ.get("ATTNPROF_HOOK_CHECK", "1") != "0" and dropout == 0 and len(q.shape) == 4:
        try:
            dt = _dtype_name(q) or "fp32"
            tol = TOLERANCES.get(dt, TOLERANCES["fp32"])
            max_abs, rel, rows = _check(torch, q, k, v, out_bhnd, scale, causal, mask)
            ok = max_abs <= tol[0] and rel <= tol[1]
            fields.append("max_abs=%.6g rel_l2=%.6g tol_max_abs=%g tol_rel_l2=%g rows=%d correct=%d"
                          % (max_abs, rel, tol[0], tol[1], rows, 1 if ok else 0))
        except Exception as e:
            sys.stderr.write("attnprof-hook: call %d not checked: %s\n" % (call, e))
    if os.environ.get("ATTNPROF_HOOK_TIME", "1") != "0":
        try:
            med, lo, hi, n = _retime(torch, rerun)
            fields.append("time_ms=%.6g time_ms_min=%.6g time_ms_max=%.6g reps=%d" % (med, lo, hi, n))
        except Exception as e:
            sys.stderr.write("attnprof-hook: call %d not re-timed: %s\n" % (call, e))
    if footprint is not None:
        fields.append("footprint=%d" % footprint)
    _nvtx().mark("attnprof-check: " + " ".join(fields))


def _heads_checked(torch, B, H, N):
    """The (batch, head) pairs a check samples: the first, the last and one seeded."""
    g = torch.Generator(device="cpu")
    g.manual_seed(N * 1000003 + B * 131 + H)
    return sorted({(0, 0), (B - 1, H - 1),
                   (int(torch.randint(B, (1,), generator=g)), int(torch.randint(H, (1,), generator=g)))})


def _grad_reference(torch, q, k, v, go, b, h, scale, causal, mask):
    """fp64 dQ, dK, dV of head (b, h) (dK, dV of its KV head from this query head alone)."""
    hk = h // (q.shape[1] // k.shape[1])
    qd, kd, vd, god = q[b, h].double(), k[b, hk].double(), v[b, hk].double(), go[b, h].double()
    nq, nkv = qd.shape[0], kd.shape[0]
    s = (qd @ kd.transpose(0, 1)) * scale
    rows = torch.arange(nq, device=q.device)
    if causal:
        cols = torch.arange(nkv, device=q.device).unsqueeze(0)
        s = s.masked_fill(cols > rows.unsqueeze(1), float("-inf"))
    if callable(mask):
        cols = torch.arange(nkv, device=q.device)
        m = mask(torch.tensor(b, device=q.device), torch.tensor(h, device=q.device),
                 rows.unsqueeze(1), cols.unsqueeze(0)).expand(nq, nkv)
        s = s.masked_fill(~m, float("-inf"))
    elif mask is not None:
        m = mask.expand(q.shape[0], q.shape[1], nq, nkv)[b, h]
        s = s.masked_fill(~m, float("-inf")) if m.dtype == torch.bool else s + m.double()
    p = torch.nan_to_num(torch.softmax(s, dim=-1), nan=0.0)
    o = p @ vd
    ds = p * ((god @ vd.transpose(0, 1)) - (god * o).sum(-1, keepdim=True))
    return ds @ kd * scale, ds.transpose(0, 1) @ qd * scale, p.transpose(0, 1) @ god


@_no_trace
def _bwd_after(torch, call, fwd, q, k, v, go, scale, causal, mask):
    """After a captured backward, outside its range: the gradients of clones of
    q, k, v computed again and checked against fp64 on sampled heads (dQ; dK and
    dV where every query head has its own KV head), and the backward re-timed
    unprofiled (autograd.grad on a retained graph).  One mark "attnprof-check:
    call=N pass=bwd ..."; the program's own tensors and gradients are untouched."""
    if not _captured(call) or go is None or len(q.shape) != 4:
        return
    if _capturing(torch):  # a backward captured into a graph (torch.compile's CUDA graphs of a training step)
        _skip_mark(call, "capture", "bwd")
        return
    fields = ["call=%d pass=bwd" % call]
    with _Quiet():
        try:
            qc, kc, vc = (t.detach().clone().requires_grad_(True) for t in (q, k, v))

            def forward():
                with torch.enable_grad():
                    o = fwd(qc, kc, vc)
                return o[0] if isinstance(o, tuple) else o
            # a fresh graph per backward: a compiled backward with donated
            # buffers refuses retain_graph (FlexAttention, H200 2026-12-02)
            grads = torch.autograd.grad(forward(), (qc, kc, vc), go)
            B, H, Nq = q.shape[0], q.shape[1], q.shape[2]
            if (os.environ.get("ATTNPROF_HOOK_CHECK", "1") != "0" and Nq * k.shape[2] <= GRAD_CHECK_MAX_PAIRS):
                dt = _dtype_name(q) or "fp32"
                frac, tol_rel = GRAD_TOLERANCES.get(dt, GRAD_TOLERANCES["fp32"])
                err2 = ref2 = max_abs = ref_max = 0.0
                n = 0
                for b, h in _heads_checked(torch, B, H, Nq):
                    hk = h // (H // k.shape[1])
                    refs = _grad_reference(torch, q, k, v, go, b, h, scale, causal, mask)
                    got = [grads[0][b, h]] + ([grads[1][b, hk], grads[2][b, hk]] if H == k.shape[1] else [])
                    for ref, g in zip(refs, got):
                        d = g.double() - ref
                        max_abs = max(max_abs, float(d.abs().max()))
                        ref_max = max(ref_max, float(ref.abs().max()))
                        err2 += float((d * d).sum())
                        ref2 += float((ref * ref).sum())
                    n += Nq  # dQ rows of this head (and its dK, dV rows)
                rel = (err2 ** 0.5) / max(ref2 ** 0.5, 1e-300)
                tol_abs = frac * ref_max
                ok = max_abs <= tol_abs and rel <= tol_rel
                fields.append("max_abs=%.6g rel_l2=%.6g tol_max_abs=%g tol_rel_l2=%g rows=%d correct=%d"
                              % (max_abs, rel, tol_abs, tol_rel, n, 1 if ok else 0))
            if os.environ.get("ATTNPROF_HOOK_TIME", "1") != "0":
                med, lo, hi, n = _retime_backward(torch, forward, (qc, kc, vc), go)
                fields.append("time_ms=%.6g time_ms_min=%.6g time_ms_max=%.6g reps=%d" % (med, lo, hi, n))
            del grads
        except Exception as e:
            sys.stderr.write("attnprof-hook: backward of call %d not checked or re-timed: %s\n" % (call, e))
        _nvtx().mark("attnprof-check: " + " ".join(fields))


def _mark_backward(torch, out, inputs, impl, q, k, causal, call, origin, density=None, after=None, mask=None):
    """A pass=bwd range around the gradient of this call: from out's grad_fn pre-hook
    to the last of the inputs' gradient hooks, on the autograd thread; then
    after(grad_out), outside the range."""
    fn = getattr(out, "grad_fn", None)
    need = [t for t in inputs if getattr(t, "requires_grad", False)]
    if fn is None or not need or not hasattr(fn, "register_prehook"):
        return
    name = range_name(impl, q, k, causal, "bwd", call, origin, density, mask)
    left = [0]
    grad_out = [None]

    def pre(grad_outputs):
        left[0] = len(need)
        grad_out[0] = grad_outputs[0] if grad_outputs else None
        _nvtx().range_push(name)

    def done(grad):
        left[0] -= 1
        if left[0] == 0:
            _nvtx().range_pop()
            if after is not None:
                after(grad_out[0])
            grad_out[0] = None

    fn.register_prehook(pre)
    for t in need:
        t.register_hook(done)


def _footprint_begin(torch):
    try:
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        return before
    except Exception:
        return None


def _footprint_end(torch, before):
    if before is None:
        return None
    try:
        return max(0, torch.cuda.max_memory_allocated() - before)
    except Exception:
        return None


def _run_marked(torch, call, name, run):
    """run() inside the call's NVTX range, the memory footprint taken around
    it for a captured call.  Returns (result, footprint in bytes or None)."""
    before = _footprint_begin(torch) if _captured(call) and not _capturing(torch) else None
    _nvtx().range_push(name)
    try:
        res = run()
    finally:
        _nvtx().range_pop()
    return res, _footprint_end(torch, before)


@contextlib.contextmanager
def _inside():
    """While a marked call and its check run, the attention they call is not marked again."""
    _state.inside = True
    try:
        yield
    finally:
        _state.inside = False


def wrap_sdpa(orig):
    def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                     scale=None, enable_gqa=False, **kw):
        import torch

        def run():
            return orig(query, key, value, attn_mask=attn_mask, dropout_p=dropout_p, is_causal=is_causal,
                        scale=scale, enable_gqa=enable_gqa, **kw)
        if _compiling(torch) or getattr(_state, "inside", False) or not getattr(query, "is_cuda", False):
            return run()
        call = _next_call()
        impl = _sdpa_impl(torch, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
        kind = _mask_kind_now(torch, attn_mask, query.shape[-2], key.shape[-2]) if not is_causal else None
        causal = is_causal or kind in ("additive-causal", "bool-causal")
        name = range_name(impl, query, key, causal, "fwd", call, "python-sdpa", mask=kind)
        with _inside():
            out, foot = _run_marked(torch, call, name, run)
            sc = scale if scale is not None else query.shape[-1] ** -0.5
            if attn_mask is None and dropout_p == 0:
                def bwd(go, q=query, k=key, v=value):
                    _bwd_after(torch, call, lambda a, b, c: orig(a, b, c, is_causal=is_causal, scale=scale,
                                                                 enable_gqa=enable_gqa, **kw),
                               q.detach(), k.detach(), v.detach(), go, sc, is_causal, None)
            else:
                bwd = None
            _mark_backward(torch, out, (query, key, value), impl, query, key, causal, call, "python-sdpa",
                           after=bwd, mask=kind)
            _after_forward(torch, call, query.detach(), key.detach(), value.detach(), out.detach(), sc, is_causal,
                           attn_mask, run, foot, dropout_p)
        return out
    scaled_dot_product_attention.__wrapped__ = orig
    scaled_dot_product_attention._attnprof = True
    return scaled_dot_product_attention


def wrap_eager(orig):
    """transformers' eager_attention_forward(module, query, key, value, attention_mask, scaling, dropout=0.0, **kw)
    -> (attn_output [B, Nq, H, d], attn_weights): GEMMs + softmax, S and P between kernels."""
    def eager_attention_forward(module, query, key, value, attention_mask, scaling=None, dropout=0.0, **kw):
        import torch

        def run():
            return orig(module, query, key, value, attention_mask, scaling, dropout, **kw)
        if _compiling(torch) or getattr(_state, "inside", False) or not getattr(query, "is_cuda", False):
            return run()
        call = _next_call()
        mask = attention_mask[:, :, :, : key.shape[-2]] if attention_mask is not None else None
        # an additive causal mask is a causal call (FLOPs, verdicts; it pairs with SDPA's is_causal)
        kind = _mask_kind_now(torch, mask, query.shape[-2], key.shape[-2])
        causal = kind == "additive-causal"
        name = range_name("transformers-eager", query, key, causal, "fwd", call, "transformers-eager", mask=kind)
        with _inside():
            res, foot = _run_marked(torch, call, name, run)
            out = res[0] if isinstance(res, tuple) else res
            _mark_backward(torch, out, (query, key, value), "transformers-eager", query, key, causal, call,
                           "transformers-eager", mask=kind)
            sc = scaling if scaling is not None else query.shape[-1] ** -0.5
            drop = dropout if getattr(module, "training", False) else 0.0
            _after_forward(torch, call, query.detach(), key.detach(), value.detach(),
                           out.detach().transpose(1, 2), sc, False, mask, run, foot, drop)
        return res
    eager_attention_forward.__wrapped__ = orig
    eager_attention_forward._attnprof = True
    return eager_attention_forward


def _flex_density(block_mask):
    """The fraction of (query block, key block) pairs a BlockMask computes, or None."""
    try:
        return max(0.0, min(1.0, 1.0 - float(block_mask.sparsity()) / 100.0))
    except Exception:
        return None


def _flex_call(orig, impl, origin, query, key, value, score_mod, block_mask, scale, enable_gqa, args, kw):
    """One marked FlexAttention call: forward range, backward range, check of a
    mask_mod-only call against fp64 (a score_mod is not reproduced: unchecked)."""
    import torch
    call = _next_call()
    density = _flex_density(block_mask) if block_mask is not None else 1.0
    name = range_name(impl, query, key, False, "fwd", call, origin, density)

    def run():
        return orig(query, key, value, score_mod, block_mask, scale, enable_gqa, *args, **kw)
    with _inside():
        res, foot = _run_marked(torch, call, name, run)
        out = res[0] if isinstance(res, tuple) else res
        sc = scale if scale is not None else query.shape[-1] ** -0.5
        mask = getattr(block_mask, "mask_mod", None) if block_mask is not None else None

        def bwd(go):
            if score_mod is None:
                _bwd_after(torch, call, lambda a, b, c: orig(a, b, c, None, block_mask, scale, enable_gqa, *args, **kw),
                           query.detach(), key.detach(), value.detach(), go, sc, False, mask)
        _mark_backward(torch, out, (query, key, value), impl, query, key, False, call, origin, density, after=bwd)
        if score_mod is None:
            _after_forward(torch, call, query.detach(), key.detach(), value.detach(), out.detach(), sc, False, mask,
                           run, foot, 0.0)
        elif _captured(call):
            with _Quiet():
                _check_and_time(torch, call, query, key, value, out, sc, False, None, run,
                                foot, 1.0)  # dropout 1.0: no check (a score_mod), re-timing only
    return res


def wrap_flex(orig, impl="flex-eager", origin="python-flex"):
    """flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None, enable_gqa=False, ...)."""
    def flex_attention(query, key, value, score_mod=None, block_mask=None, scale=None, enable_gqa=False,
                       *args, **kw):
        # traced by torch.compile (a model compiled whole): the original, so
        # the graph is the program's own; its kernels are found by family
        import torch
        if _compiling(torch) or getattr(_state, "inside", False) or not getattr(query, "is_cuda", False):
            return orig(query, key, value, score_mod, block_mask, scale, enable_gqa, *args, **kw)
        return _flex_call(orig, impl, origin, query, key, value, score_mod, block_mask, scale, enable_gqa, args, kw)
    flex_attention.__wrapped__ = orig
    flex_attention._attnprof = True
    return flex_attention


def wrap_compile(real_compile):
    """torch.compile: compiling flex_attention itself (the idiom of PyTorch's
    docs) gives a function whose calls are marked impl=flex-compiled."""
    def compile(model=None, *args, **kw):
        if model is None:  # @torch.compile(options...)
            return lambda m: compile(m, *args, **kw)
        flex = getattr(model, "__wrapped__", model)
        if getattr(model, "_attnprof", False) and getattr(flex, "__name__", "") == "flex_attention":
            return wrap_flex(real_compile(flex, *args, **kw), "flex-compiled", "python-flex")
        return real_compile(model, *args, **kw)
    compile.__wrapped__ = real_compile
    compile._attnprof = True
    return compile


_JAX_DTYPES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32"}


def jax_range_name(query, key, is_causal, implementation, call):
    """The range for one jax.nn.dot_product_attention call (JAX's layout:
    query [B, T, N, H] or [T, N, H], key [B, S, K, H]), or None when the
    shapes are not attention's.  No pass: XLA names the backward's
    operations transpose(...), and attnprof reads the pass from that.
    call: the call site's number in trace order (under jit each site is
    traced once and runs at every execution); it tells two calls of one
    shape in a row apart, as attnprof joins consecutive thunks of one name
    into one call."""
    qs, ks = tuple(getattr(query, "shape", ())), tuple(getattr(key, "shape", ()))
    if len(qs) == 3 and len(ks) == 3:
        qs, ks = (1,) + qs, (1,) + ks
    if not (len(qs) == 4 and len(ks) == 4 and qs[0] == ks[0] and qs[3] == ks[3] and ks[2] > 0 and qs[2] % ks[2] == 0):
        return None
    parts = ["attnprof:", "impl=jax-%s" % (implementation or "default"),
             "B=%d H=%d Hkv=%d Nq=%d Nkv=%d d=%d" % (qs[0], qs[2], ks[2], qs[1], ks[1], qs[3]),
             "causal=%d" % (1 if is_causal else 0)]
    dt = _JAX_DTYPES.get(str(getattr(query, "dtype", "")), "")
    if dt:
        parts.append("dtype=" + dt)
    parts.append("call=%d" % call)
    parts.append("origin=jax-helper")
    return " ".join(parts)


def _wrap_jax_scoped(orig, name_of):
    """orig(query, key, ...) run inside a jax.named_scope named name_of(query,
    key, kw), or unmarked when that is None.  Under jax.jit the Python
    function runs once, at trace time, so nothing can be pushed then; the
    scope goes into every operation's name instead, and XLA's NVTX range of
    each thunk (its title is the operation's name) brings it to attnprof at
    every execution."""
    @functools.wraps(orig)
    def scoped(query, key, *args, **kw):
        try:
            name = name_of(query, key, kw)
        except Exception:  # never harm the program: an unreadable call runs unmarked
            name = None
        if name is None:
            return orig(query, key, *args, **kw)
        import jax
        with jax.named_scope(name):
            return orig(query, key, *args, **kw)
    scoped.__wrapped__ = orig
    scoped._attnprof = True
    return scoped


def wrap_jax_attention(orig):
    """jax.nn.dot_product_attention(query, key, value, ..., is_causal=,
    implementation=): the call inside a scope carrying its range."""
    return _wrap_jax_scoped(orig, lambda q, k, kw: jax_range_name(
        q, k, kw.get("is_causal", False), kw.get("implementation"), _next_call()))


def wrap_pallas_mha(orig):
    """JAX's example Pallas FlashAttention for GPUs
    (jax.experimental.pallas.ops.gpu.attention.mha(q, k, v, segment_ids, ...,
    causal=), q/k/v [B, N, H, d]): the same scope, so the Triton kernel's
    thunk names it."""
    return _wrap_jax_scoped(orig, lambda q, k, kw: jax_range_name(q, k, kw.get("causal", False), "pallas", _next_call()))


_PATCHED = ("torch.cuda.graphs", "torch.nn.functional", "torch.nn.attention.flex_attention", "jax.nn",
            "jax.experimental.pallas.ops.gpu.attention")


def patch_module(module):
    """Wrap what this module defines that we know; idempotent."""
    name = getattr(module, "__name__", "")
    if name == "torch.cuda.graphs":
        cls = getattr(module, "CUDAGraph", None)
        if cls is not None:
            try:
                wrap_capture(cls)
            except (AttributeError, TypeError):  # a class that takes no attributes: is_current_stream_capturing only
                pass
    elif name == "torch.nn.functional":
        f = getattr(module, "scaled_dot_product_attention", None)
        if f is not None and not getattr(f, "_attnprof", False):
            module.scaled_dot_product_attention = wrap_sdpa(f)
    elif name == "torch.nn.attention.flex_attention":
        f = getattr(module, "flex_attention", None)
        if f is not None and not getattr(f, "_attnprof", False):
            module.flex_attention = wrap_flex(f)
            torch = sys.modules.get("torch")
            if torch is not None and not getattr(torch.compile, "_attnprof", False):
                torch.compile = wrap_compile(torch.compile)
    elif name == "jax.nn":
        f = getattr(module, "dot_product_attention", None)
        if f is not None and not getattr(f, "_attnprof", False):
            module.dot_product_attention = wrap_jax_attention(f)
    elif name == "jax.experimental.pallas.ops.gpu.attention":
        f = getattr(module, "mha", None)
        if f is not None and not getattr(f, "_attnprof", False):
            module.mha = wrap_pallas_mha(f)
    elif name.startswith("transformers.models.") and ".modeling_" in name:
        f = getattr(module, "eager_attention_forward", None)
        if f is not None and not getattr(f, "_attnprof", False):
            module.eager_attention_forward = wrap_eager(f)


class _Finder:
    """A meta-path finder that lets the real finder load a module, then patches it."""

    def find_spec(self, fullname, path=None, target=None):
        if not (fullname in _PATCHED or
                (fullname.startswith("transformers.models.") and ".modeling_" in fullname)):
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                real = spec.loader

                class _Loader:
                    """The real loader, patching the module after it ran."""

                    def create_module(self, s):
                        return real.create_module(s) if hasattr(real, "create_module") else None

                    def exec_module(self, module):
                        real.exec_module(module)
                        patch_module(module)

                    def __getattr__(self, attr):
                        return getattr(real, attr)
                spec.loader = _Loader()
                return spec
        return None


def install():
    """Patch what is already imported and what will be."""
    if _installed[0]:
        return
    _installed[0] = True
    sys.meta_path.insert(0, _Finder())
    for name, module in list(sys.modules.items()):
        if module is not None:
            patch_module(module)
