/* datasheet.h: published peaks of known GPUs, for the documents only.
 *
 * attnprof measures its ceilings (copy bandwidth, a dense GEMM's tensor
 * rate: gpu.copy_gbs, gpu.tensor_tflops).  A reader also wants the
 * fraction of the vendor's figure, which no measurement gives: that figure
 * is taken from the data sheet, named as such, and quoted only for a GPU
 * whose driver name is in the table (src/doc/datasheet.c).
 */
#ifndef ATTNPROF_DOC_DATASHEET_H
#define ATTNPROF_DOC_DATASHEET_H

/* The dense fp16/bf16 tensor peak (TFLOP/s) of the GPU the driver calls
 * name, and where it comes from; 0 and NULL for a GPU not in the table. */
double datasheet_tensor_tflops(const char *name, const char **source);

/* The FP32 (FFMA, CUDA-core) peak of that GPU from the same data sheet,
 * and where it comes from: the roof of an FP32 GEMM, which no tensor-core
 * ceiling bounds; 0 and NULL for a GPU not in the table. */
double datasheet_fp32_tflops(const char *name, const char **source);

#endif
