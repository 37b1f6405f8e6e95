// flash1_kv.cu: the K/V-outer rungs of the ladder (flash1, +splitq,
// +lazyrescale, +splitq+lazyrescale): grid B·H, O/m/ℓ through HBM.
#include "flash.cuh"

cudaError_t flash_kvouter_launch(unsigned sw, const flash_params &p, enum dtype t, int d, cudaStream_t st, int *regs)
{
	switch (sw & (FLASH_SPLITQ | FLASH_LAZY)) {
	case 0: return flash::launch_sw<false, false, false>(p, t, d, st, regs);
	case FLASH_SPLITQ: return flash::launch_sw<false, true, false>(p, t, d, st, regs);
	case FLASH_LAZY: return flash::launch_sw<false, false, true>(p, t, d, st, regs);
	default: return flash::launch_sw<false, true, true>(p, t, d, st, regs);
	}
}
