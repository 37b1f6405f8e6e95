/* commands.h: the subcommands.  Each lives in its own src/cmd_<name>.c,
 * takes (argc, argv) with argv[0] the subcommand name, and returns an exit
 * code from error.h.  src/main.c holds the table. */
#ifndef ATTNPROF_COMMANDS_H
#define ATTNPROF_COMMANDS_H

int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_figure(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* "'<cmd>' needs the GPU half" message + fix; returns EXIT_NO_GPU. */
int built_without_gpu(const char *cmd);
/* A renderer's command in a build without the renderer: for --help its
 * usage line and how to build it (EXIT_OK), else a message + fix
 * (EXIT_FAILURE_RUN). */
int render_command_absent(int argc, char **argv, const char *cmd, const char *usage);

struct spec;
/* Load the command's one SPEC argument (argv[optind], after options) into s
 * (spec_init'ed here).  0, or EXIT_BAD_INPUT after a message naming the
 * command; s is released on failure. */
int command_load_spec(int argc, char **argv, int optind_, const char *cmd, struct spec *s);


#endif
