/* attnprof_nvtx.h: mark an attention call in any C or C++ program for
 * `attnprof record -o FILE -- ./program` (header only; needs the CUDA
 * toolkit's NVTX 3 headers, nothing to link).
 *
 *   attnprof_range r;
 *   attnprof_range_begin(&r, "mykernel", B, H, Hkv, Nq, Nkv, d, causal, "fp16", "fwd");
 *   my_attention<<<grid, block>>>(...);
 *   attnprof_range_end(&r);
 *
 * Only kernels launched between begin and end, on that thread, are profiled
 * and counted as the call.  The name follows src/capture/range_name.h;
 * `attnprof record --parse-range NAME` shows how one reads.  Outside
 * attnprof the ranges are ordinary NVTX ranges (Nsight shows them).
 */
#ifndef ATTNPROF_NVTX_H
#define ATTNPROF_NVTX_H

#include <stdio.h>

#include <nvtx3/nvToolsExt.h>

typedef struct {
	char name[256];
	int open;
} attnprof_range;

static inline void attnprof_range_begin(attnprof_range *r, const char *impl, int B, int H, int Hkv, int Nq,
					int Nkv, int d, int causal, const char *dtype, const char *pass)
{
	static long call;
	snprintf(r->name, sizeof r->name,
		 "attnprof: impl=%s B=%d H=%d Hkv=%d Nq=%d Nkv=%d d=%d causal=%d dtype=%s pass=%s call=%ld origin=c-helper",
		 impl, B, H, Hkv, Nq, Nkv, d, causal ? 1 : 0, dtype, pass, call++);
	nvtxRangePushA(r->name);
	r->open = 1;
}

static inline void attnprof_range_end(attnprof_range *r)
{
	if (r->open)
		nvtxRangePop();
	r->open = 0;
}

#endif
