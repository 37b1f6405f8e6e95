// inputs.cu: fill a device tensor with attn_input_value() rounded to the
// dtype (see inputs.h).  Separate from the variants so every run, of every
// variant, sees the same inputs for the same seed.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "attn.h"
#include "inputs.h"

namespace {

template <typename T> __device__ T from_float(float x);
template <> __device__ __half from_float<__half>(float x) { return __float2half_rn(x); }
template <> __device__ __nv_bfloat16 from_float<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

template <typename T>
__global__ void fill_inputs(T *dst, uint64_t n, uint64_t seed, int tensor)
{
	for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
	     i += (uint64_t)gridDim.x * blockDim.x)
		dst[i] = from_float<T>(attn_input_value(seed, tensor, i));
}

} // namespace

extern "C" int attn_fill_input(void *dst, uint64_t n, enum dtype t, uint64_t seed, int tensor)
{
	const int threads = 256, blocks = 4 * 132 * 8;
	if (t == DTYPE_FP16)
		fill_inputs<<<blocks, threads>>>(static_cast<__half *>(dst), n, seed, tensor);
	else
		fill_inputs<<<blocks, threads>>>(static_cast<__nv_bfloat16 *>(dst), n, seed, tensor);
	cudaError_t e = cudaGetLastError();
	if (e == cudaSuccess)
		e = cudaDeviceSynchronize();
	return e == cudaSuccess ? 0 : -1;
}
