# --timeout stops a program that runs too long (SIGTERM) and says so; what it captured would be kept
needs: cuda-build
args: record --timeout 1 -o $TMP/x.yaml -- sleep 30
exit: 1
stderr: 'sleep' was stopped by --timeout after 1 s (SIGTERM)
