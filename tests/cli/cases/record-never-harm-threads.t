# issue 30: SDPA from four threads on four streams at once: the program runs to its
# end under record and its calls are captured (the checksums of plain and captured
# runs are both printed in the log; whether plain runs differ is docs/capture.md's question)
needs: gpu
args: record -o $TMP/threads.yaml --timeout 120 -- python3 experiments/programs/threads_streams.py
exit: 0
stdout: threads_streams: 4 threads x 3 calls
stderr: attention calls captured
