# -o in a folder that does not exist is refused before the program starts
args: record -o /nonexistent-attnprof/x.yaml -- sh -c 'echo the program ran'
exit: 2
stderr: the folder '/nonexistent-attnprof' does not exist
not-stdout: the program ran
