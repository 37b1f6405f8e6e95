/* datasheet.c: see datasheet.h. */
#include "doc/datasheet.h"

#include <string.h>

/* Exact driver names (cudaGetDeviceProperties): "NVIDIA H200" is the SXM
 * board (the NVL card reports "NVIDIA H200 NVL" and has a lower peak).  The
 * data sheets give FP16/BF16 Tensor Core throughput with 2:4 sparsity;
 * dense is half of it. */
static const struct {
	const char *name;
	double dense_fp16_tflops;
	const char *source;
	double fp32_tflops;         /* FP32 (FFMA, no tensor cores), as the same sheet gives it */
	const char *fp32_source;
} table[] = {
	{ "NVIDIA H200", 989.5, "NVIDIA H200 SXM data sheet: 1,979 TFLOP/s FP16 with sparsity, dense half",
	  67, "NVIDIA H200 SXM data sheet: FP32 67 TFLOP/s" },
	{ "NVIDIA H100 80GB HBM3", 989.5, "NVIDIA H100 SXM data sheet: 1,979 TFLOP/s FP16 with sparsity, dense half",
	  67, "NVIDIA H100 SXM data sheet: FP32 67 TFLOP/s" },
};

/* The row of the board the driver names, or -1 */
static int board_row(const char *name)
{
	for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(name, table[i].name))
			return (int)i;
	return -1;
}

double datasheet_fp32_tflops(const char *name, const char **source)
{
	int i = board_row(name);
	if (source)
		*source = i < 0 ? NULL : table[i].fp32_source;
	return i < 0 ? 0 : table[i].fp32_tflops;
}

double datasheet_tensor_tflops(const char *name, const char **source)
{
	int i = board_row(name);
	if (source)
		*source = i < 0 ? NULL : table[i].source;
	return i < 0 ? 0 : table[i].dense_fp16_tflops;
}
