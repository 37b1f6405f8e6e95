# record --help names the in-graph calls' and the workload's options
args: record --help
exit: 0
stdout: --graphs on|off
stdout: --per-replay
stdout: --workload on|off
