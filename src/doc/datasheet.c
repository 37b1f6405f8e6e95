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
} table[] = {
	{ "NVIDIA H200", 989.5, "NVIDIA H200 SXM data sheet: 1,979 TFLOP/s FP16 with sparsity, dense half" },
	{ "NVIDIA H100 80GB HBM3", 989.5, "NVIDIA H100 SXM data sheet: 1,979 TFLOP/s FP16 with sparsity, dense half" },
};

double datasheet_tensor_tflops(const char *name, const char **source)
{
	if (source)
		*source = NULL;
	for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(name, table[i].name)) {
			if (source)
				*source = table[i].source;
			return table[i].dense_fp16_tflops;
		}
	return 0;
}
