// flash2.cu: the FlashAttention-2 instantiations of the flash template
// (SEQPAR, SPLITQ, LAZY all on), in their own unit so tuning rebuilds fast.
#include "flash.cuh"

cudaError_t flash2_launch(const flash_params &p, enum dtype t, int d, cudaStream_t st, int *regs)
{
	return flash::launch_sw<true, true, true>(p, t, d, st, regs);
}
