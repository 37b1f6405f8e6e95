// flash1_q.cu: the Q-outer rungs of the ladder short of flash2
// (+seqpar, +seqpar+splitq, +seqpar+lazyrescale), and the dispatch of all
// eight switch settings.
#include "flash.cuh"

cudaError_t flash_kvouter_launch(unsigned sw, const flash_params &p, enum dtype t, int d, cudaStream_t st, int *regs);

cudaError_t flash_ladder_launch(unsigned sw, const flash_params &p, enum dtype t, int d, cudaStream_t st, int *regs)
{
	switch (sw & FLASH_ALL) {
	case FLASH_SEQPAR: return flash::launch_sw<true, false, false>(p, t, d, st, regs);
	case FLASH_SEQPAR | FLASH_SPLITQ: return flash::launch_sw<true, true, false>(p, t, d, st, regs);
	case FLASH_SEQPAR | FLASH_LAZY: return flash::launch_sw<true, false, true>(p, t, d, st, regs);
	case FLASH_ALL: return flash2_launch(p, t, d, st, regs);
	default: return flash_kvouter_launch(sw, p, t, d, st, regs);
	}
}
