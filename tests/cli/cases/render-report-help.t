args: report --help
exit: 0
stdout: usage: attnprof report RESULTS... -t TEMPLATE
