# The patent's description of the warp-specialised thread block said 'a ring buffer of 2 stages
# in shared memory, each stage of 32.0 KiB' where the kernel keeps a ring of key blocks and a
# ring of value blocks, each stage one block (32.0 KiB of K, or of V): 'K and V per stage'
# read 64 KiB a stage or half the ring (issue 47 item 7, 'patent FIG. 10's stage size')
needs: render
args: report experiments/results/hopper.yaml -t templates/patent.yaml -o $TMP/wsrings.md -q
exit: 0
file: $TMP/wsrings.md
check: grep -qF 'into two ring buffers in shared memory, one of key blocks and one of value blocks, each of 2 stages of 32.0 KiB, one block a stage;' $TMP/wsrings.md
check: grep -qF 'into the stages of a ring buffer of key blocks and one of value blocks in shared memory' $TMP/wsrings.md
