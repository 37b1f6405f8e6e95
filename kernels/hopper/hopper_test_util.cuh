// hopper_test_util.cuh: host helpers of the Hopper standalone tests
// (hopper_test.cu: the forward; hopper_bwd_test.cu: the backward): the CUDA
// error check, the seeded inputs, 16-bit conversions, list parsing and the
// device fill of the benchmarks.
#pragma once
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                      \
	do {                                                                                       \
		cudaError_t e_ = (x);                                                              \
		if (e_ != cudaSuccess) {                                                           \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
			exit(2);                                                                   \
		}                                                                                  \
	} while (0)

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}
// uniform in [-amp, amp)
static float rnd(uint64_t seed, int tensor, uint64_t i, float amp)
{
	uint64_t h = mix(seed * 4 + tensor + mix(i));
	return ((float)(h >> 40) / 16777216.0f * 2.f - 1.f) * amp;
}
static uint16_t to16(float f, int bf)
{
	if (bf) {
		__nv_bfloat16 b = __float2bfloat16_rn(f);
		return *reinterpret_cast<uint16_t *>(&b);
	}
	__half h = __float2half_rn(f);
	return *reinterpret_cast<uint16_t *>(&h);
}
static float from16(uint16_t u, int bf)
{
	if (bf) {
		__nv_bfloat16 b = *reinterpret_cast<__nv_bfloat16 *>(&u);
		return __bfloat162float(b);
	}
	__half h = *reinterpret_cast<__half *>(&u);
	return __half2float(h);
}

struct Shape {
	int B, H, Hkv, Nq, Nkv, d;
};

static std::vector<int> parse_list(const char *s)
{
	std::vector<int> v;
	while (*s) {
		v.push_back(atoi(s));
		const char *c = strchr(s, ',');
		if (!c)
			break;
		s = c + 1;
	}
	return v;
}

static const char *dtname(int bf) { return bf ? "bf16" : "fp16"; }

__global__ void fill_kernel(uint16_t *p, size_t n, uint64_t seed, float amp, int bf)
{
	for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
		uint64_t x = seed * 0x9e3779b97f4a7c15ull + i * 0xbf58476d1ce4e5b9ull;
		x ^= x >> 31;
		x *= 0x94d049bb133111ebull;
		x ^= x >> 29;
		float f = ((float)(x >> 40) / 16777216.0f * 2.f - 1.f) * amp;
		if (bf) {
			__nv_bfloat16 b = __float2bfloat16_rn(f);
			p[i] = *reinterpret_cast<uint16_t *>(&b);
		} else {
			__half h = __float2half_rn(f);
			p[i] = *reinterpret_cast<uint16_t *>(&h);
		}
	}
}
