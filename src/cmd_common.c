/* cmd_common.c: what several subcommands share (built-out messages, progress). */
#include <unistd.h>

#include "commands.h"
#include "util/error.h"

int built_without_gpu(const char *cmd)
{
	error("'%s' needs the GPU half, and this attnprof was built without it", cmd);
	note("rebuild with 'make CUDA=1' on a machine with the CUDA toolkit and CUPTI "
	     "(set CUDA_HOME if nvcc is not on PATH)");
	return EXIT_NO_GPU;
}

int built_without_render(const char *cmd)
{
	error("'%s' needs the renderer, and this attnprof was built without it", cmd);
	note("run 'make deps' (installs libcairo2-dev libpango1.0-dev), then 'make RENDER=1'");
	return EXIT_FAILURE_RUN;
}

int progress_enabled(void)
{
	return isatty(STDERR_FILENO);
}
