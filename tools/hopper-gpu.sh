#!/bin/bash
# Runs on the GPU machine (device run), from the repository root, with
# build/hopper carried (tools/hopper-build.sh built it here).  Everything
# goes to $OUT (or ./hopper-out): gpu.log (all output), bench.csv.
#   tools/hopper-gpu.sh [check] [san] [bench ARGS...] [sdpa ARGS...] [table]
# Steps run in the order given; each wrapped in timeout.
set -u
O=${OUT:-hopper-out}; mkdir -p "$O"
LOG=$O/gpu.log
T=${HT:-build/hopper/hopper_test}
export PYTHONUNBUFFERED=1
log() { echo "== $(date -u +%FT%TZ) $*" | tee -a "$LOG"; }
log "start: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader)"
while [ $# -gt 0 ]; do
  step=$1; shift
  args=()
  while [ $# -gt 0 ] && [ "$1" != check ] && [ "$1" != san ] && [ "$1" != bench ] && [ "$1" != sdpa ] && [ "$1" != table ] && [ "$1" != sass ] && [ "$1" != ncu ]; do args+=("$1"); shift; done
  case $step in
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
    log "ncu ${args[*]}"
    timeout 300 ncu --clock-control none --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_tensor_op_gmma.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,dram__bytes_read.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum -k regex:hopper_fwd $T bench "${args[@]}" 2>&1 | grep -v "^csv" | tail -60 | tee -a "$LOG" ;;
  table)
    log "table"
    python3 tools/hopper_table.py $O/bench.log --csv $O/bench.csv --md $O/bench.md && cat $O/bench.md | tee -a "$LOG" ;;
  esac
done
log "end: $(nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader)"
