# model --help names the spec argument, the output formats and the SM option
args: model --help
exit: 0
stdout: usage: attnprof model SPEC [--json | --csv] [--gpu-sms N]
stdout: docs/model.md
