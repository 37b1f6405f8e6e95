# a program that ignores SIGTERM is killed 5 s after --timeout
needs: cuda-build
args: record --timeout 1 -o $TMP/x.yaml -- sh -c 'trap "" TERM; sleep 8; :'
exit: 1
stderr: was stopped by --timeout after 1 s (SIGKILL: it outlived SIGTERM by 5 s)
