# issue 54: a hand-written Triton attention kernel with no markup: --scan off lists it
# with the command that captures it (and finds no call)
needs: gpu
args: record -o $TMP/t.yaml --scan off --timeout 200 -- python3 experiments/programs/triton_attention.py
exit: 1
stdout: done
stderr: candidate attention kernel '_attn_fwd'
stderr: --kernel-regex '_attn_fwd' --shape 'impl=_attn_fwd pass=fwd'
