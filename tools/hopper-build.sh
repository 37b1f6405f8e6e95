#!/bin/sh
# Builds the Hopper forward's and backward's standalone tests+benches into
# build/hopper/ (sm_90a): hopper_test (forward, 16-bit and FP8), hopper_bwd_test (backward).
#   tools/hopper-build.sh          all instantiations (rungs x HOPPER_HEAD_DIMS x dtype x causal)
#   DEV=1 tools/hopper-build.sh    d = 128 fp16 only (quick)
#   OUTD=build/hopper/s3 STAGES128=3 tools/hopper-build.sh   the 3-stage ring at d = 128
# Writes build/hopper/ptxas.log (registers, spills; ptxas-bwd.log for the
# backward, ptxas-fp8.log the FP8 forward) and build/hopper/sass.txt (sass-bwd.txt, sass-fp8.txt).
# Prints one line per forward instantiation (d, bf16, causal, rung: registers, spills).
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
# the objects compile side by side (JOBS at a time, default 3: the GPU
# machine's cores; JOBS=1 on a shared machine), then link
JOBS=${JOBS:-3}
pids=""
job() { # LOG CMD...: run in the background, stderr to LOG; JOBS at most at once
	log=$1; shift
	while [ "$(echo $pids | wc -w)" -ge "$JOBS" ]; do
		p=${pids%% *}; pids=${pids#"$p"}; pids=${pids# }
		wait $p || fail=1
	done
	"$@" 2> "$log" &
	pids="$pids${pids:+ }$!"
}
fail=0
job $OUTD/ptxas.log $NVCC $FLAGS $DEF -Xptxas -v -c kernels/hopper/hopper_fwd.cu -o $OUTD/hopper_fwd.o
job $OUTD/ptxas-fp8.log $NVCC $FLAGS -Xptxas -v -c kernels/hopper/hopper_fp8.cu -o $OUTD/hopper_fp8.o
job $OUTD/ptxas-bwd.log $NVCC $FLAGS $DEF -Xptxas -v -c kernels/hopper/hopper_bwd.cu -o $OUTD/hopper_bwd.o
# flash2's backward (mma.sync) for bench-bwd's baseline, through flash2_bwd_launch
job $OUTD/flash_bwd.log $NVCC $FLAGS -Ikernels -Isrc -c kernels/flash_bwd.cu -o $OUTD/flash_bwd.o
job $OUTD/test.log $NVCC $FLAGS -c kernels/hopper/hopper_test.cu -o $OUTD/hopper_test.o
job $OUTD/bwd_test.log $NVCC $FLAGS -c kernels/hopper/hopper_bwd_test.cu -o $OUTD/hopper_bwd_test.o
job $OUTD/l2flush.log $NVCC $FLAGS -Ikernels -Isrc -c kernels/l2flush.cu -o $OUTD/l2flush.o
for p in $pids; do wait $p || fail=1; done
if [ $fail = 1 ]; then
	for l in ptxas ptxas-fp8 ptxas-bwd flash_bwd test bwd_test l2flush; do grep -E "error" $OUTD/$l.log; done
	echo "hopper-build: a compile failed (logs in $OUTD)"; exit 1
fi
$NVCC $FLAGS $OUTD/hopper_fwd.o $OUTD/hopper_fp8.o $OUTD/hopper_test.o -o $OUTD/hopper_test -lgomp
$NVCC $FLAGS $OUTD/hopper_fwd.o $OUTD/hopper_bwd.o $OUTD/hopper_bwd_test.o $OUTD/flash_bwd.o $OUTD/l2flush.o -o $OUTD/hopper_bwd_test -lgomp
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$CUOBJDUMP" ]; then $CUOBJDUMP --dump-sass $OUTD/hopper_fwd.o > $OUTD/sass.txt; $CUOBJDUMP --dump-sass $OUTD/hopper_fp8.o > $OUTD/sass-fp8.txt; $CUOBJDUMP --dump-sass $OUTD/hopper_bwd.o > $OUTD/sass-bwd.txt
else echo "no cuobjdump here: SASS is checked on the GPU machine (tools/hopper-gpu.sh sass)"; : > $OUTD/sass.txt; : > $OUTD/sass-fp8.txt; : > $OUTD/sass-bwd.txt; fi
grep -E "warning|error" $OUTD/ptxas.log | sort | uniq -c | head -20 || true
# one line per instantiation: d, bf16, causal, rung (from the mangled name), registers, spills
awk "/Compiling entry function/ { match(\$0, /ILi[0-9]+ELb[01]ELb[01]ELi[0-9]/); k = substr(\$0, RSTART + 3, RLENGTH - 3); gsub(/E?L[bi]/, \" \", k) }
  /spill stores/ { sp = \$5 \"/\" \$9 } /Used [0-9]+ registers/ { print \"d bf16 causal rung:\", k, \" regs\", \$5, \" spill st/ld\", sp }" $OUTD/ptxas.log
echo "SASS: HGMMA $(grep -c HGMMA $OUTD/sass.txt), UTMALDG $(grep -c UTMALDG $OUTD/sass.txt), SYNCS $(grep -c SYNCS $OUTD/sass.txt), LDL $(grep -c 'LDL' $OUTD/sass.txt), STL $(grep -c 'STL' $OUTD/sass.txt)"
echo "fp8 (hopper_fp8.cu):"
grep -E "warning|error" $OUTD/ptxas-fp8.log | sort | uniq -c | head -20 || true
awk '/Compiling entry/{n=$0; sub(/.*_ZN7hopper8/, "", n); sub(/EEE?v.*/, "", n); k=/hopper_fp8_kernel/} /spill/{sp=$0} /Used/{if (k) {sub(/.*Used/, "Used", $0); print "  " n ": " $0 ";" sp}}' $OUTD/ptxas-fp8.log
echo "SASS fp8: HGMMA $(grep -c HGMMA $OUTD/sass-fp8.txt), QGMMA $(grep -c QGMMA $OUTD/sass-fp8.txt), UTMALDG $(grep -c UTMALDG $OUTD/sass-fp8.txt), LDL $(grep -c 'LDL' $OUTD/sass-fp8.txt), STL $(grep -c 'STL' $OUTD/sass-fp8.txt)"
echo "backward:"
grep -E "warning|error" $OUTD/ptxas-bwd.log | sort | uniq -c | head -20 || true
# one line per main-kernel instantiation: rung (+wgmma: hopper_bwd_kernel, +tma+ws: hopper_bwd_ws_kernel), d, bf16, causal, det (deterministic)
awk '/Compiling entry/{n=$0; r=/hopper_bwd_ws_kernel/ ? "+tma+ws" : "+wgmma"; sub(/.*hopper_bwd_(ws_)?kernelILi/, "d=", n); sub(/ELb/, " bf16=", n); sub(/ELb/, " causal=", n); sub(/ELb/, " det=", n); sub(/EEE.*/, "", n); k=/hopper_bwd_(ws_)?kernel/} /spill/{sp=$0} /Used/{if (k) {sub(/.*Used/, "Used", $0); print "  " r " " n ": " $0 ";" sp}}' $OUTD/ptxas-bwd.log
echo "SASS bwd: HGMMA $(grep -c HGMMA $OUTD/sass-bwd.txt), UTMALDG $(grep -c UTMALDG $OUTD/sass-bwd.txt), RED $(grep -c 'RED' $OUTD/sass-bwd.txt), LDL $(grep -c 'LDL' $OUTD/sass-bwd.txt), STL $(grep -c 'STL' $OUTD/sass-bwd.txt)"
