#!/bin/bash
# Runs on the GPU machine (device run), from the repository root, with
# build/hopper carried (tools/hopper-build.sh built it here).  Everything
# goes to $OUT (or ./hopper-out): gpu.log (all output), bench.csv.
#   tools/hopper-gpu.sh [check] [san] [bench ARGS...] [sdpa ARGS...] [table]
#   tools/hopper-gpu.sh build bwd    builds build/hopper here (tools/hopper-build.sh, 120 s at
#                                    most), then the backward (hopper_bwd_test): info-bwd,
#                                    check-bwd, bench-bwd (+ flash2's), memcheck, racecheck and
#                                    synccheck of small-bwd,
#                                    SDPA CUDNN/FLASH --pass bwd; 400 s in all at most
#   (or its parts: check-bwd, bench-bwd ARGS, san-bwd, sdpa-bwd ARGS); bench-bwd.log
#   tools/hopper-gpu.sh build check-fp8 bench-fp8   the FP8 forward (hopper_fp8.cu): its accuracy
#                                    against the bf16 rung (check-fp8, 150 s at most) and its speed
#                                    beside +overlap bf16 at d = 128 (bench-fp8.log, 120 s at most)
# Steps run in the order given; each wrapped in timeout.
#   d = 256 in one call (kernels/hopper/README.md has the line): build sass check bench --d 256 ... sdpa --d 256 ... table
set -u
O=${OUT:-hopper-out}; mkdir -p "$O"
LOG=$O/gpu.log
T=${HT:-build/hopper/hopper_test}
TB=${HTB:-build/hopper/hopper_bwd_test}
# the backward's default shapes: d 64/128, fp16/bf16, causal or not, N 1k-16k (bench-bwd's own)
BWD_N=${BWD_N:-1024,2048,4096,8192,16384}
export PYTHONUNBUFFERED=1
log() { echo "== $(date -u +%FT%TZ) $*" | tee -a "$LOG"; }
log "start: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader)"
while [ $# -gt 0 ]; do
  step=$1; shift
  args=()
  while [ $# -gt 0 ] && [ "$1" != check ] && [ "$1" != san ] && [ "$1" != bench ] && [ "$1" != sdpa ] && [ "$1" != table ] && [ "$1" != sass ] && [ "$1" != ncu ] && [ "$1" != bwd ] && [ "$1" != build ] && [ "$1" != check-bwd ] && [ "$1" != bench-bwd ] && [ "$1" != san-bwd ] && [ "$1" != sdpa-bwd ] && [ "$1" != check-fp8 ] && [ "$1" != bench-fp8 ]; do args+=("$1"); shift; done
  case $step in
  build)
    log "build (tools/hopper-build.sh)"
    timeout 120 tools/hopper-build.sh > $O/build.log 2>&1; echo "build rc $?" | tee -a "$LOG"; tail -16 $O/build.log | tee -a "$LOG"; cp build/hopper/ptxas.log $O/ptxas.log 2>/dev/null; cp build/hopper/ptxas-bwd.log $O/ptxas-bwd.log 2>/dev/null; cp build/hopper/ptxas-fp8.log $O/ptxas-fp8.log 2>/dev/null ;;
  bwd)
    set -- check-bwd bench-bwd --settle 0.3 --reps 10 san-bwd sdpa-bwd --settle 0.3 --reps 10 "$@"; continue ;;
  check-bwd)
    log "check-bwd ${args[*]}"
    timeout 10 $TB info-bwd 2>&1 | tee -a "$LOG"
    timeout 50 $TB check-bwd "${args[@]}" 2>&1 | tee -a "$LOG"; echo "check-bwd rc ${PIPESTATUS[0]}" | tee -a "$LOG" ;;
  bench-bwd)
    log "bench-bwd ${args[*]}"
    timeout 90 $TB bench-bwd --n $BWD_N "${args[@]}" 2>&1 | tee -a "$LOG" | tee -a $O/bench-bwd.log | grep -v '^csv,impl' ;;
  san-bwd)
    log "compute-sanitizer memcheck (small-bwd) ${args[*]}"
    timeout 50 compute-sanitizer --tool memcheck --leak-check full $TB small-bwd --dtype 0 "${args[@]}" 2>&1 | tail -12 | tee -a "$LOG"
    # racecheck sees shared memory written and read by threads, not by the async proxy (TMA, wgmma, the TMA reduction)
    for tool in racecheck synccheck; do
      log "compute-sanitizer $tool (small-bwd, fp16) ${args[*]}"
      timeout 45 compute-sanitizer --tool $tool $TB small-bwd --dtype 0 "${args[@]}" 2>&1 | grep -E "hazard|Race|RACECHECK|ERROR SUMMARY|error|summary" | tail -40 | tee -a "$LOG"
    done ;;
  sdpa-bwd)
    log "sdpa --pass bwd ${args[*]}"
    timeout 80 python3 tools/hopper_sdpa.py --pass bwd --gemm 0 --n $BWD_N "${args[@]}" 2>&1 | tee -a "$LOG" | tee -a $O/bench-bwd.log | grep -v '^csv,impl' ;;
  check-fp8)
    # the FP8 forward's accuracy (RMSE against fp64 of the bf16 inputs, normal and outlier inputs) and the bf16 rung's
    log "check-fp8 ${args[*]}"
    timeout 20 $T info --rungs 3 --d 128 --dtype 1 2>&1 | grep -E "device|fp8|bf16 d=128" | tee -a "$LOG"
    timeout 150 $T check-fp8 "${args[@]}" 2>&1 | tee -a "$LOG"; echo "check-fp8 rc ${PIPESTATUS[0]}" | tee -a "$LOG" ;;
  bench-fp8)
    # the FP8 forward beside the best bf16 rung (+overlap), d = 128, N 1k-16k, B·N = 16384, H·d = 2048
    log "bench-fp8 ${args[*]}"
    timeout 120 $T bench --fp8 1 --rungs 3 --dtype 1 --d 128 --n 1024,2048,4096,8192,16384 --settle 0.5 --reps 20 "${args[@]}" 2>&1 | tee -a "$LOG" | tee -a $O/bench-fp8.log | grep -v '^csv,impl' ;;
  sass)
    log "sass"
    cuobjdump --dump-sass build/hopper/hopper_fwd.o > $O/sass.txt 2>&1
    for f in $(grep -o 'Function : .*' $O/sass.txt | awk '{print $3}'); do :; done
    echo "SASS totals: HGMMA $(grep -c HGMMA $O/sass.txt) UTMALDG $(grep -c UTMALDG $O/sass.txt) SYNCS $(grep -c SYNCS $O/sass.txt) LDL $(grep -c 'LDL' $O/sass.txt) STL $(grep -c ' STL' $O/sass.txt) USETMAXREG $(grep -c USETMAXREG $O/sass.txt)" | tee -a "$LOG"
    awk '/Function :/{f=$3} /HGMMA/{h[f]++} /UTMALDG/{t[f]++} /SYNCS/{s[f]++} /USETMAXREG/{r[f]++} END{for(k in h) print "  " k, "HGMMA", h[k], "UTMALDG", t[k]+0, "SYNCS", s[k]+0, "USETMAXREG", r[k]+0}' $O/sass.txt | sort | head -40 | tee -a "$LOG"
    gzip -f $O/sass.txt ;;
  check)
    log "check ${args[*]}"
    timeout 240 $T info 2>&1 | tee -a "$LOG"
    timeout 300 $T check "${args[@]}" 2>&1 | tee -a "$LOG"; echo "check rc ${PIPESTATUS[0]}" | tee -a "$LOG" ;;
  san)
    log "compute-sanitizer memcheck + racecheck (small shape) ${args[*]}"
    timeout 240 compute-sanitizer --tool memcheck --leak-check full $T small "${args[@]}" 2>&1 | tail -25 | tee -a "$LOG"
    timeout 240 compute-sanitizer --tool racecheck --racecheck-report all $T small "${args[@]}" 2>&1 | tail -25 | tee -a "$LOG"
    timeout 240 compute-sanitizer --tool synccheck $T small "${args[@]}" 2>&1 | tail -8 | tee -a "$LOG" ;;
  bench)
    log "bench ${args[*]}"
    timeout 400 $T bench "${args[@]}" 2>&1 | tee -a "$LOG" | tee -a $O/bench.log | grep -v '^csv,impl' ;;
  sdpa)
    log "sdpa ${args[*]}"
    timeout 400 python3 tools/hopper_sdpa.py "${args[@]}" 2>&1 | tee -a "$LOG" | tee -a $O/bench.log | grep -v '^csv,impl' ;;
  ncu)
    # counters for the ablation: one launch per rung (d=128 fp16 N=4096 non-causal), then SDPA FLASH and CUDNN
    log "ncu ${args[*]}"
    ncu --query-metrics --chip gh100 2>&1 | awk '{print $1}' > $O/metrics-all.txt || true
    grep -i gmma $O/metrics-all.txt > $O/gmma-metrics.txt || true
    M=""
    for m in sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active \
      sm__inst_executed_pipe_tensor_op_gmma.sum sm__inst_executed_pipe_tensor_op_hmma.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum \
      sm__warps_active.avg.pct_of_peak_sustained_active smsp__inst_executed.sum dram__bytes_read.sum dram__bytes_write.sum gpu__time_duration.sum \
      smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio \
      smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio smsp__average_warps_issue_stalled_wait_per_issue_active.ratio \
      smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio smsp__average_warps_issue_stalled_membar_per_issue_active.ratio \
      smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio; do
      grep -qx "${m%%.*}" $O/metrics-all.txt && M=$M${M:+,}$m
    done
    [ -n "$M" ] || M=gpu__time_duration.sum
    echo "ncu metrics used: $M" | tee -a "$LOG"
    echo "gmma metrics listed: $(tr '\n' ' ' < $O/gmma-metrics.txt)" | tee -a "$LOG"
    S="--section SpeedOfLight --section Occupancy --section LaunchStats"
    timeout 200 ncu --clock-control none $S --metrics $M -k regex:hopper_fwd -s 0 -c 8 $T bench --rungs 0,1,2,3 --d 128 --dtype 0 --causal 0 --n 4096 --settle 0 --reps 1 > $O/ncu-hopper.txt 2>&1; echo "ncu hopper rc $?" | tee -a "$LOG"
    [ "${args[*]:-}" = nosdpa ] || timeout 200 ncu --clock-control none $S --metrics $M -k regex:flash -c 4 python3 tools/hopper_sdpa.py --d 128 --n 4096 --dtype fp16 --causal 0 --settle 0 --reps 1 --gemm 0 > $O/ncu-sdpa.txt 2>&1; echo "ncu sdpa rc $?" | tee -a "$LOG"
    rm -f $O/metrics-all.txt
    grep -E "hopper_fwd_kernel|flash_fwd|fprop|Duration|__|Registers Per|Achieved Occupancy|Compute \(SM\) Throughput|Dynamic Shared" $O/ncu-hopper.txt $O/ncu-sdpa.txt | cut -c1-200 | head -200 | tee -a "$LOG" ;;
  table)
    log "table"
    python3 tools/hopper_table.py $O/bench.log --csv $O/bench.csv --md $O/bench.md && cat $O/bench.md | tee -a "$LOG" ;;
  esac
done
log "end: $(nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader)"
