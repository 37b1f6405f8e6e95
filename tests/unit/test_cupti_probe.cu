// test_cupti_probe.cu: small kernels whose counter values are known, for
// tests/unit/test_cupti_gpu.c.  The test embeds their PTX (it is C and is
// built by cc): regenerate test_cupti_probe_ptx.h after editing with
//   sh tests/unit/test_cupti_probe_gen.sh
#include <stddef.h>

// Streams n float4 from in to out: n*16 bytes read and written in HBM.
extern "C" __global__ void probe_copy(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
	     i += (size_t)gridDim.x * blockDim.x)
		out[i] = in[i];
}

// Each thread adds 1 to its element: correct only if kernel replay restores
// memory between passes.
extern "C" __global__ void probe_inc(float *x, size_t n)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += 1.0f;
}

// Per iteration each warp issues one 32-bit shared store and one shared load
// of 32 consecutive words (1 wavefront each, no bank conflict), and the block
// meets at two barriers.  Blocks of 128 threads.
extern "C" __global__ void probe_smem(float *out, int iters)
{
	__shared__ volatile float buf[128];
	float v = (float)threadIdx.x;
	for (int k = 0; k < iters; k++) {
		buf[threadIdx.x] = v;
		__syncthreads();
		v = v * 0.5f + buf[threadIdx.x ^ 1];
		__syncthreads();
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Uses dynamic shared memory and many registers: an occupancy probe.
extern "C" __global__ void __launch_bounds__(128, 1) probe_heavy(float *out, int iters)
{
	extern __shared__ float dyn[];
	float acc[48];
#pragma unroll
	for (int j = 0; j < 48; j++)
		acc[j] = (float)(threadIdx.x + j);
	for (int k = 0; k < iters; k++) {
#pragma unroll
		for (int j = 0; j < 48; j++)
			acc[j] = acc[j] * acc[(j + 7) % 48] + 1.0f;
	}
	float s = 0;
#pragma unroll
	for (int j = 0; j < 48; j++)
		s += acc[j];
	dyn[threadIdx.x] = s;
	__syncthreads();
	out[blockIdx.x * blockDim.x + threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}
