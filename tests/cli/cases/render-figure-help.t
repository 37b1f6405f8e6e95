args: figure --help
exit: 0
stdout: usage: attnprof figure KIND RESULTS
