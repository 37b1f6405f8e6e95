#!/bin/sh
# Builds the Hopper forward's standalone test+bench into build/hopper/ (sm_90a).
#   tools/hopper-build.sh          all instantiations (rungs x HOPPER_HEAD_DIMS x dtype x causal)
#   DEV=1 tools/hopper-build.sh    d = 128 fp16 only (quick)
#   OUTD=build/hopper/s3 STAGES128=3 tools/hopper-build.sh   the 3-stage ring at d = 128
# Writes build/hopper/ptxas.log (registers, spills) and build/hopper/sass.txt;
# prints one line per instantiation (d, bf16, causal, rung: registers, spills).
set -e
cd "$(dirname "$0")/.."
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
OUTD=${OUTD:-build/hopper}
mkdir -p $OUTD
FLAGS="-gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 -lineinfo -Xcompiler -fopenmp"
DEF=""
[ "${DEV:-0}" = 1 ] && DEF="-DHOPPER_DEV_ONLY=1"
# STAGES128=3: a 3-deep K/V ring at d = 128 (224 KiB of shared memory) instead of 2
[ -n "${STAGES128:-}" ] && DEF="$DEF -DHOPPER_STAGES_D128=$STAGES128"
$NVCC $FLAGS $DEF -Xptxas -v -c kernels/hopper/hopper_fwd.cu -o $OUTD/hopper_fwd.o 2> $OUTD/ptxas.log || { cat $OUTD/ptxas.log; exit 1; }
$NVCC $FLAGS -c kernels/hopper/hopper_test.cu -o $OUTD/hopper_test.o
$NVCC $FLAGS $OUTD/hopper_fwd.o $OUTD/hopper_test.o -o $OUTD/hopper_test -lgomp
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$CUOBJDUMP" ]; then $CUOBJDUMP --dump-sass $OUTD/hopper_fwd.o > $OUTD/sass.txt; else echo "no cuobjdump here: SASS is checked on the GPU machine (tools/hopper-gpu.sh sass)"; : > $OUTD/sass.txt; fi
grep -E "warning|error" $OUTD/ptxas.log | sort | uniq -c | head -20 || true
# one line per instantiation: d, bf16, causal, rung (from the mangled name), registers, spills
awk "/Compiling entry function/ { match(\$0, /ILi[0-9]+ELb[01]ELb[01]ELi[0-9]/); k = substr(\$0, RSTART + 3, RLENGTH - 3); gsub(/E?L[bi]/, \" \", k) }
  /spill stores/ { sp = \$5 \"/\" \$9 } /Used [0-9]+ registers/ { print \"d bf16 causal rung:\", k, \" regs\", \$5, \" spill st/ld\", sp }" $OUTD/ptxas.log
echo "SASS: HGMMA $(grep -c HGMMA $OUTD/sass.txt), UTMALDG $(grep -c UTMALDG $OUTD/sass.txt), SYNCS $(grep -c SYNCS $OUTD/sass.txt), LDL $(grep -c 'LDL' $OUTD/sass.txt), STL $(grep -c 'STL' $OUTD/sass.txt)"
