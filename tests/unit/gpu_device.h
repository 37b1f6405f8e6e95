/* gpu_device.h: the GPU tests' device, looked up once per test binary.
 * gpu() is 1 when a CUDA GPU is visible (gpu_dev then holds its
 * attributes), 0 otherwise: the tests then print "skipped: no GPU". */
#ifndef ATTNPROF_TESTS_GPU_DEVICE_H
#define ATTNPROF_TESTS_GPU_DEVICE_H

#include "attn.h"

static struct attn_device gpu_dev;

static int gpu(void)
{
	static int known = -1;
	if (known < 0)
		known = attn_device_count() >= 1 && !attn_device_info(&gpu_dev);
	return known;
}

#endif
