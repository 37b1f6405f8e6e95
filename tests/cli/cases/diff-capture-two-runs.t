# two captures of one program (another pid, other call indices, every call 90 ms slower) are matched call by
# call, by implementation, kernel family, shape and order within the shape, and the gate fails; diff says how it
# matched (pid and call index made every call 'only in' one side, exit 0)
setup: sed 's/pid: 100/pid: 200/; s/^    call: \([0-9]*\)/    call: 1\1/; s/\(time_ms[a-z_]*: \)/\19/g' tests/fixtures/capture-small.yaml >$TMP/cap-run2.yaml
args: diff tests/fixtures/capture-small.yaml $TMP/cap-run2.yaml --fail-above 5
exit: 1
stdout: capture/sdpa-flash/prefill/fp16/B4/H16/Hkv16/Nq4096/Nkv4096/d128/c0/flash-attn-2/#2
stdout: matched by implementation, kernel family, shape and call order within the shape
stdout: 6 configs in both
stderr: 6 regressions beyond the run-to-run spread exceed --fail-above 5 %
