/* cmd_common.c: what several subcommands share (built-out messages, the spec argument). */

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "spec.h"
#include "util/error.h"

int built_without_gpu(const char *cmd)
{
	error("'%s' needs the GPU half, and this attnprof was built without it", cmd);
	note("rebuild with 'make CUDA=1' on a machine with the CUDA toolkit and CUPTI "
	     "(set CUDA_HOME if nvcc is not on PATH)");
	return EXIT_NO_GPU;
}

static int built_without_render(const char *cmd)
{
	error("'%s' needs the renderer, and this attnprof was built without it", cmd);
	note("run 'make deps' (installs libcairo2-dev libpango1.0-dev), then 'make RENDER=1'");
	return EXIT_FAILURE_RUN;
}

int render_command_absent(int argc, char **argv, const char *cmd, const char *usage)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("%s\n(this attnprof was built without the renderer: make RENDER=1)\n", usage);
		return EXIT_OK;
	}
	return built_without_render(cmd);
}

int command_load_spec(int argc, char **argv, int optind_, const char *cmd, struct spec *s)
{
	spec_init(s);
	if (optind_ != argc - 1) {
		error(optind_ >= argc ? "%s needs a spec file" : "%s takes one spec file", cmd);
		note("see 'attnprof %s --help'", cmd);
		return EXIT_BAD_INPUT;
	}
	if (spec_load(s, argv[optind_])) {
		spec_release(s);
		return EXIT_BAD_INPUT;
	}
	return 0;
}
