// clock.cu: the SM clock a timed repetition ran at.
//
// CUPTI 13 cannot lock clocks, so the card runs at the boost clock it picks,
// and under its power cap that clock drops for a while when load starts after
// an idle spell (the fp64 reference is built on the CPU between configs).  A
// probe before each timed repetition measures it: one thread counts SM
// cycles (clock64) across a fixed span of the global timer (ns).  It starts
// and stops on a tick of the timer, so the timer's granularity does not enter;
// what is left is the poll loop's latency (tens of cycles in ~40,000).
#include <cuda_runtime.h>

#include "common.cuh"

static constexpr unsigned long long PROBE_SPAN_NS = 20000; // 20 us: 0.4 ms per 20 repetitions

static __device__ __forceinline__ unsigned long long global_ns()
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

extern "C" __global__ void attnprof_clock_probe(unsigned long long *out)
{
	if (threadIdx.x)
		return;
	unsigned long long g = global_ns(), t0;
	while ((t0 = global_ns()) == g) // wait for a tick
		;
	long long c0 = clock64();
	unsigned long long t1;
	while ((t1 = global_ns()) < t0 + PROBE_SPAN_NS)
		;
	long long c1 = clock64();
	out[0] = (unsigned long long)(c1 - c0);
	out[1] = t1 - t0;
}

cudaError_t clock_probe_launch(unsigned long long *slot, cudaStream_t st)
{
	attnprof_clock_probe<<<1, 32, 0, st>>>(slot);
	return cudaGetLastError();
}
