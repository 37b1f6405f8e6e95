#!/bin/sh
# tools/gpu-run.sh STEP... — the batched work of one call on the lent GPU
# machine (docs/gpu-runs.md).  Runs from the repository root with a binary
# built here by `make CUDA=1 RENDER=0 STATIC_YAML=1` and carried along.
# Outputs go to $OUT (at most 8 files come back): results files and logs.
#
# steps: info ceilings workload workloadtrace jaxcapture pallas pallasscan threadsdiag neverharm graphsneverharm graphcalls frontcheck frontends frontprobe hopper hopperbwd shards orderdiag timingdiag bwdvariants ncubwdvs ncusass windowcause windowsettle ncubwd kernelmode capturetrace testrunner capturesmoke capture capturellama captureoverhead capturefidelity gputest bwd bwdsan sdpabwd smoke fa2 sdpa ncu ncu-memory ncu-nocache overhead cuptitest decode decodepaged decodetiming ablation ablation2 resume sass decodesan
# CAPTURE_OPTS: more options for the capture steps' record -- CMD (e.g. --window off).
# ATTNPROF (./attnprof) is the binary the ncu steps run; CUPTI_TEST the
# test_cupti_gpu binary of cuptitest, BWD_TEST the test_bwd_gpu binary of bwd.
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
for d in /usr/local/cuda-13.0/targets/x86_64-linux/lib /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/lib64; do
	[ -d "$d" ] && LD_LIBRARY_PATH="$d:${LD_LIBRARY_PATH:-}"
done
export LD_LIBRARY_PATH PYTHONUNBUFFERED=1
log="$OUT/gpu-run.log"
# what the clock-sampling steps ask nvidia-smi (read back by tools/clock_during.py's read_smi)
smi_query=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active
say() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$log"; }

for step in "$@"; do
	case "$step" in
	info)
		say "info"
		{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
		  ./attnprof info; grep -i profil /proc/driver/nvidia/params; } 2>&1 | tee -a "$log" ;;
	gputest)
		say "gpu-test (correctness of every variant)"
		./attnprof record experiments/gpu-test.yaml -o "$OUT/gpu-test.yaml" --force --progress --copy-probe 0 2>&1 | tail -40 | tee -a "$log" ;;
	testrunner)
		say "test runner (tests/run.sh: unit, CLI, GPU steps) on the real kernels, then with flash2's output planted wrong (must fail)"
		b=${TEST_BUILD:-build/cuda1-render0}
		RUN_STEPS="unit cli gpu" sh tests/run.sh "$b" >"$OUT/testrunner.log" 2>&1
		rc=$?; echo "exit $rc (expected 0)" >>"$OUT/testrunner.log"
		RUN_STEPS=gpu GPU_TEST_PLANT=flash2 GPU_TEST_SPEC=experiments/smoke.yaml sh tests/run.sh "$b" >"$OUT/testrunner-planted.log" 2>&1
		rc2=$?; echo "exit $rc2 (expected non-zero: flash2's output was overwritten before the check)" >>"$OUT/testrunner-planted.log"
		grep -E '^(FAIL|failing|skip|gpu-test:|[0-9]+ passed)|exit [0-9]' "$OUT/testrunner.log" | tee -a "$log"
		grep -E '^(FAIL|failing|gpu-test:|[0-9]+ passed)|exit [0-9]|PLANT' "$OUT/testrunner-planted.log" | tee -a "$log"
		if [ $rc -eq 0 ] && [ $rc2 -ne 0 ] && grep -q '^FAIL flash2 ' "$OUT/testrunner-planted.log" &&
		   ! grep '^FAIL ' "$OUT/testrunner-planted.log" | grep -qv '^FAIL \(flash2 \|gpu-test\)'; then
			echo "testrunner: PASS (real kernels pass; the planted wrong result fails, and only flash2)" | tee -a "$log"
		else
			echo "testrunner: FAIL (real run exit $rc, planted run exit $rc2)" | tee -a "$log"
		fi ;;
	bwd)
		say "backward: flash2 and standard bwd, fwd+bwd against fp64 (every dtype × d × causal × odd N × GQA), registers vs descriptor, timing at the FA2-paper shapes"
		t=${BWD_TEST:-build/cuda1-render0/tests/unit/test_bwd_gpu}
		BWD_BENCH=1 "$t" >"$OUT/bwd.log" 2>&1; echo "exit $?" >>"$OUT/bwd.log"
		grep -E '^(ok|FAIL|skip|#|exit)|FAIL|cases|bench|registers' "$OUT/bwd.log" | tee -a "$log"
		# BWD_OLD: another build's test_bwd_gpu, timed in the same call (A/B; bench only)
		if [ -n "${BWD_OLD:-}" ]; then
			BWD_BENCH=1 CHECK_ONLY=test_gpu_bwd_bench "$BWD_OLD" >"$OUT/bwd-old.log" 2>&1; echo "exit $?" >>"$OUT/bwd-old.log"
			grep -E 'bench|exit' "$OUT/bwd-old.log" | sed 's/^/old: /' | tee -a "$log"
		fi ;;
	bwdvariants)
		say "backward A/B: every build under .gpu/bwdvar/ (tools/bwd-variants.sh), bench twice in turn against drift, the others also checked against fp64; then SDPA's backward in the same call"
		for round in 1 2; do
			for d in .gpu/bwdvar/*/; do
				v=$(basename "$d")
				if [ $round = 1 ] && [ "$v" != main ]; then
					BWD_BENCH=1 timeout 150 "$d/test_bwd_gpu" >"$OUT/bwdvar-$v-$round.log" 2>&1
				else
					BWD_BENCH=1 CHECK_ONLY=test_gpu_bwd_bench timeout 90 "$d/test_bwd_gpu" >"$OUT/bwdvar-$v-$round.log" 2>&1
				fi
				echo "exit $?" >>"$OUT/bwdvar-$v-$round.log"
				grep -E 'cases|FAIL|exit|bench flash2 +bwd .*d=128' "$OUT/bwdvar-$v-$round.log" | sed "s/^/$v ($(cat "$d/flags")) run $round: /" | tee -a "$log"
			done
		done
		for b in FLASH_ATTENTION; do
			timeout 100 python3 tools/sdpa_reference.py - --fa2-table --backend "$b" --warmup 3 --reps 20
		done 2>&1 | grep -E " bwd 128 " | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/bwdvariants.tar.gz" $(cd "$OUT" && ls bwdvar-*.log) && rm -f "$OUT"/bwdvar-*.log ;;
	ncubwdvs)
		say "ncu, the same metrics on flash_bwd (this build) and on SDPA FLASH_ATTENTION's backward kernel, d = 128, N = 4096, B = 4, H = 16, non-causal: instructions, stall reasons per issued instruction, shared-memory and atomic traffic"
		m="gpu__time_duration.sum,smsp__inst_executed.sum,smsp__inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,smsp__warps_eligible.avg.per_cycle_active,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_sectors_op_red.sum,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\\.ratio"
		CHECK_ONLY=test_gpu_bwd_bench BWD_BENCH=1 BWD_BENCH_N=4096 BWD_BENCH_D=128 \
			timeout 120 ncu --clock-control none --metrics "$m" -k regex:flash_bwd --launch-skip 3 -c 1 --csv \
			${BWD_TEST:-build/cuda1-render0/tests/unit/test_bwd_gpu} >"$OUT/ncubwdvs-ours.csv" 2>"$OUT/ncubwdvs-ours.err"
		echo "ours: exit $?" | tee -a "$log"
		timeout 120 ncu --clock-control none --metrics "$m" -k regex:flash_bwd_dq_dk_dv --launch-skip 2 -c 1 --csv python3 - >"$OUT/ncubwdvs-sdpa.csv" 2>"$OUT/ncubwdvs-sdpa.err" <<'PY'
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
q, k, v = (torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.float16, requires_grad=True) for _ in range(3))
do = torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.float16)
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    for _ in range(4):
        torch.nn.functional.scaled_dot_product_attention(q, k, v).backward(do)
torch.cuda.synchronize()
PY
		echo "sdpa: exit $?" | tee -a "$log"
		python3 tools/ncu_side_by_side.py "$OUT/ncubwdvs-ours.csv" "$OUT/ncubwdvs-sdpa.csv" 2>&1 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/ncubwdvs.tar.gz" ncubwdvs-ours.csv ncubwdvs-sdpa.csv ncubwdvs-ours.err ncubwdvs-sdpa.err && rm -f "$OUT"/ncubwdvs-* ;;
	ncubwd)
		say "ncu on flash_bwd (d = 128, N = 4096, non-causal), this build"
		for t in ${BWD_TEST:-build/cuda1-render0/tests/unit/test_bwd_gpu}; do
			echo "-- $t" | tee -a "$log"
			CHECK_ONLY=test_gpu_bwd_bench BWD_BENCH=1 BWD_BENCH_N=4096 BWD_BENCH_D=128 \
				ncu --clock-control none --set full -k regex:flash_bwd --launch-skip 3 -c 1 "$t" >"$OUT/ncu-bwd.txt" 2>&1
			grep -E 'Duration|Compute \(SM\) Throughput|Memory Throughput|L1/TEX Hit|Registers Per|Achieved Occupancy|Issue Slots Busy|Executed Ipc A|No Eligible|Warp Cycles Per Issued|Shared Memory.*Throughput|Bank Conflicts|est\. speedup|Stall|Tensor|pipe' "$OUT/ncu-bwd.txt" | head -45 | tee -a "$log"
			cp "$OUT/ncu-bwd.txt" "$OUT/ncu-bwd-$(basename "$(dirname "$t")").txt"
		done
		gzip -f "$OUT"/ncu-bwd-*.txt; rm -f "$OUT/ncu-bwd.txt" ;;
	ceilings)
		say "the roofline's ceilings (issue 31 items 2, 5, 7): test_ceilings_gpu (each kernel checks its own work, rates under the hardware bound, shared > L2 > copy), a smoke record's header, ncu: which tensor instruction each ceiling's kernel issues"
		t=${CEIL_TEST:-build/cuda1-render0/tests/unit/test_ceilings_gpu}
		"$t" >"$OUT/ceilings-test.log" 2>&1; echo "exit $? (expected 0)" >>"$OUT/ceilings-test.log"
		./attnprof record experiments/smoke.yaml -o "$OUT/ceilings-smoke.yaml" --force --progress --metrics none --settle 0 >"$OUT/ceilings-record.log" 2>&1
		echo "record exit $?" >>"$OUT/ceilings-record.log"
		# mma.sync's kernel must issue HMMA and no HGMMA; cuBLAS's GEMM HGMMA (wgmma): the two ceilings' paths
		: >"$OUT/ceilings-ncu.csv"
		for pair in "mma_sync:attnprof_ceil_mma" "gemm:nvjet|gemm|xmma|sm90"; do
			CHECK_ONLY=test_gpu_ceilings_${pair%%:*} timeout 150 ncu --clock-control none --csv \
				--metrics sm__inst_executed_pipe_tensor_op_hmma.sum,sm__inst_executed_pipe_tensor_op_gmma.sum \
				-k regex:"${pair#*:}" -c 1 "$t" >>"$OUT/ceilings-ncu.csv" 2>>"$OUT/ceilings-ncu.err"
			echo "ncu ${pair%%:*} exit $?" >>"$OUT/ceilings-ncu.err"
		done
		grep -E '^(ok|FAIL|skip|#)|TFLOP|GB/s|exit' "$OUT/ceilings-test.log" | tee -a "$log"
		grep -E 'ceilings|error|warning|exit' "$OUT/ceilings-record.log" | tee -a "$log"
		grep -E 'copy_gbs|tensor_tflops|smem_per_sm|ceilings|mma_sync_tflops|l2_gbs|smem_gbs|l2_buf_bytes|method' "$OUT/ceilings-smoke.yaml" | tee -a "$log"
		grep -E 'inst_executed_pipe_tensor' "$OUT/ceilings-ncu.csv" | awk -F'","' '{print $5, $(NF-2), $NF}' | cut -c1-200 | tee -a "$log"
		grep 'ncu .* exit' "$OUT/ceilings-ncu.err" | tee -a "$log" ;;
	workload)
		say "memory workload, warp states, dQ reductions (issue 31 items 3, 4, 6): experiments/workload.yaml (L1/L2 bytes and hit rates, L2 reduction sectors; fwd and bwd) and experiments/stalls.yaml (stall reasons), then SDPA's FLASH and CUDNN kernels under record -- CMD with each set; tools/counters_table.py prints each stalls file's 'stalls: PASS' when every record's reasons add up to 99-101 % of its active warp-cycles"
		for sp in workload stalls; do
			./attnprof record experiments/$sp.yaml -o "$OUT/$sp.yaml" --force --progress --copy-probe 0 2>&1 | tail -4 | tee -a "$log"
			ATTNPROF_INJECT_VERBOSE=1 timeout 300 ./attnprof record --metrics $sp -o "$OUT/capture-$sp.yaml" --force --timeout 240 \
				-- python3 experiments/programs/sdpa_backends.py --seqlens 4096 --backends flash,cudnn --iters 1 \
				>"$OUT/capture-$sp.log" 2>&1
			echo "record -- CMD ($sp): exit $?" | tee -a "$log"
			tail -3 "$OUT/capture-$sp.log" | cut -c1-300 | tee -a "$log"
		done
		for f in workload stalls capture-workload capture-stalls; do
			[ -f "$OUT/$f.yaml" ] || { echo "-- $f.yaml: not written" | tee -a "$log"; continue; }
			echo "-- $f.yaml" | tee -a "$log"
			./attnprof export "$OUT/$f.yaml" --csv 2>/dev/null | python3 tools/counters_table.py | tee -a "$log"
		done ;;
	frontcheck)
		say "front ends after the fixes (issue 30): the unmarked FA2 program by --scan, FlexAttention compiled with its backward re-run and checked"
		cmp_one() { # NAME SECS CMD...: one plain run, one under record; checksums compared
			name=$1 secs=$2; shift 2
			a=$(timeout "$secs" "$@" 2>/dev/null | grep '^checksum')
			ATTNPROF_INJECT_VERBOSE=1 timeout $((secs + 30)) ./attnprof record -o "$OUT/cap-$name.yaml" --force --timeout "$secs" -- "$@" >"$OUT/cap-$name.log" 2>&1
			rc=$?
			echo "-- $name: plain [$a]; under record exit $rc [$(grep '^checksum' "$OUT/cap-$name.log")]; $(grep -E '^attnprof: (error|warning)|attention calls captured|profiling stopped|capturing a CUDA graph' "$OUT/cap-$name.log" | head -4 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
			[ -f "$OUT/cap-$name.yaml" ] && ./attnprof export "$OUT/cap-$name.yaml" --csv 2>/dev/null | python3 tools/capture_table.py | head -14 | tee -a "$log"
			[ -f "$OUT/cap-$name.yaml" ] && grep -A3 "^  notes" "$OUT/cap-$name.yaml" | cut -c1-300 | tee -a "$log"
		}
		# (JAX: the step jaxcapture)
		cmp_one unmarked 90 python3 experiments/programs/unmarked_attention.py
		cmp_one flex 150 python3 experiments/programs/flex_attention.py --mode compiled-fn --seqlens 1024,4096 --iters 2
		tar -C "$OUT" -czf "$OUT/frontcheck.tar.gz" --exclude=gpu-run.log --exclude='*.tar.gz' . 2>/dev/null &&
			find "$OUT" -maxdepth 1 -name 'cap-*' ! -name 'cap-flex.yaml' ! -name 'cap-jax-nocmdbuf.yaml' ! -name 'cap-unmarked.yaml' -delete ;;
	jaxcapture)
		say "JAX with the helper's named_scope (issue 30): XLA's thunk ranges (registered strings, its own NVTX domain) carry each call's shape; plain vs record checksums, with and without XLA's command buffers; the distinct range titles XLA pushed"
		jaxp="python3 experiments/programs/jax_attention.py --seqlens 1024,4096 --iters 2"
		a=$(timeout 100 $jaxp 2>/dev/null | grep '^checksum')
		for mode in cmdbuf nocmdbuf; do
			[ $mode = nocmdbuf ] && export XLA_FLAGS=--xla_gpu_enable_command_buffer=
			ATTNPROF_INJECT_VERBOSE=1 timeout 150 ./attnprof record -o "$OUT/cap-jax-$mode.yaml" --force --timeout 120 -- $jaxp >"$OUT/cap-jax-$mode.log" 2>&1
			rc=$?
			unset XLA_FLAGS
			echo "-- jax $mode: plain [$a]; under record exit $rc [$(grep '^checksum' "$OUT/cap-jax-$mode.log")]; $(grep -E '^attnprof: (error|warning)|attention calls captured|profiling stopped' "$OUT/cap-jax-$mode.log" | head -4 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
			echo "   range titles (distinct, most pushed first):" | tee -a "$log"
			grep -o "range push '[^']*'" "$OUT/cap-jax-$mode.log" | sed 's/:#.*//' | sort | uniq -c | sort -rn | head -16 | cut -c1-260 | tee -a "$log"
			[ -f "$OUT/cap-jax-$mode.yaml" ] && ./attnprof export "$OUT/cap-jax-$mode.yaml" --csv 2>/dev/null | python3 tools/capture_table.py >"$OUT/jax-$mode-table.txt" 2>&1
			head -30 "$OUT/jax-$mode-table.txt" | tee -a "$log"
		done
		gzip -f "$OUT"/cap-jax-*.log ;;
	pallas)
		say "JAX's Pallas FlashAttention (issue 30 item 2; jax.experimental.pallas.ops.gpu.attention.mha, Triton): plain, under record with the helper's named_scope (XLA command buffers off and on) and the kernels' names"
		pp="python3 experiments/programs/jax_pallas_attention.py --seqlens 1024,4096 --iters 2"
		timeout 150 $pp >"$OUT/pallas-plain.log" 2>&1; echo "exit $?" >>"$OUT/pallas-plain.log"
		tail -8 "$OUT/pallas-plain.log" | cut -c1-300 | tee -a "$log"
		for mode in nocmdbuf cmdbuf; do
			[ $mode = nocmdbuf ] && export XLA_FLAGS=--xla_gpu_enable_command_buffer=
			ATTNPROF_INJECT_VERBOSE=1 timeout 190 ./attnprof record -o "$OUT/cap-pallas-$mode.yaml" --force --timeout 170 -- $pp >"$OUT/cap-pallas-$mode.log" 2>&1
			rc=$?
			unset XLA_FLAGS
			echo "-- pallas $mode: plain [$(grep '^checksum' "$OUT/pallas-plain.log")]; under record exit $rc [$(grep '^checksum' "$OUT/cap-pallas-$mode.log")]; $(grep -E '^pallas check|^attnprof: (error|warning)|attention calls captured|profiling stopped' "$OUT/cap-pallas-$mode.log" | head -6 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
			grep -o "range push '[^']*'" "$OUT/cap-pallas-$mode.log" | sed 's/:#.*//' | sort | uniq -c | sort -rn | head -8 | cut -c1-260 | tee -a "$log"
			[ -f "$OUT/cap-pallas-$mode.yaml" ] && grep -E '^    - name: ' "$OUT/cap-pallas-$mode.yaml" | sort | uniq -c | sort -rn | head -10 | cut -c1-200 | tee -a "$log"
			[ -f "$OUT/cap-pallas-$mode.yaml" ] && ./attnprof export "$OUT/cap-pallas-$mode.yaml" --csv 2>/dev/null | python3 tools/capture_table.py 2>&1 | head -16 | tee -a "$log"
			[ -f "$OUT/cap-pallas-$mode.yaml" ] && grep -A4 "^  notes" "$OUT/cap-pallas-$mode.yaml" | cut -c1-300 | tee -a "$log"
		done
		gzip -f "$OUT"/cap-pallas-*.log ;;
	pallasscan)
		say "JAX's Pallas attention unmarked (issue 30 item 3): python3 -I ignores PYTHONPATH, so the helper is not loaded and only the family scan (mha_forward, mha_backward) can find the calls"
		pp="python3 -I experiments/programs/jax_pallas_attention.py --seqlens 1024 --iters 1"
		a=$(timeout 100 $pp 2>/dev/null | grep '^checksum')
		timeout 130 ./attnprof record -o "$OUT/cap-pallas-scan.yaml" --force --timeout 110 -- $pp >"$OUT/cap-pallas-scan.log" 2>&1
		echo "-- pallas scan: plain [$a]; under record exit $? [$(grep '^checksum' "$OUT/cap-pallas-scan.log")]; $(grep -E '^attnprof: (error|warning)|attention calls captured' "$OUT/cap-pallas-scan.log" | head -4 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
		[ -f "$OUT/cap-pallas-scan.yaml" ] && ./attnprof export "$OUT/cap-pallas-scan.yaml" --csv 2>/dev/null | cut -d, -f2,20,25-33 | head -8 | tee -a "$log" ;;
	threadsdiag)
		say "why threads_streams.py stops under record (issue 30 item 4; stopped at 08:15 and 15:25): five runs under record with the injection library's trace (ATTNPROF_INJECT_VERBOSE=2: every lock wait and profiler step with thread and time) and Python's faulthandler, runs 4-5 with --metrics none (no profiler ranges); a run still going at 45 s gets its threads' kernel stacks and native stacks (gdb or cuda-gdb) and then SIGABRT (every Python stack); then JAX's checksum plain three times"
		dbg=$(command -v gdb || command -v cuda-gdb || ls /usr/local/cuda/bin/cuda-gdb 2>/dev/null || true)
		echo "-- debugger: ${dbg:-none}" | tee -a "$log"
		for i in 1 2 3 4 5; do
			m=; [ $i -ge 4 ] && m="--metrics none"
			( ATTNPROF_INJECT_VERBOSE=2 PYTHONFAULTHANDLER=1 ./attnprof record $m -o "$OUT/thr-$i.yaml" --force --timeout 75 \
				-- python3 experiments/programs/threads_streams.py >"$OUT/thr-$i.log" 2>&1; echo "exit $?" >>"$OUT/thr-$i.log" ) &
			rpid=$!
			t=0
			while kill -0 $rpid 2>/dev/null && [ $t -lt 45 ]; do sleep 1; t=$((t + 1)); done
			if kill -0 $rpid 2>/dev/null; then
				py=$(pgrep -n -f 'python3 experiments/programs/threads_streams.py')
				echo "-- run $i: still running after 45 s (python pid ${py:-?})" | tee -a "$log"
				if [ -n "$py" ]; then
					for tk in /proc/$py/task/*; do
						echo "task ${tk##*/} $(cat $tk/comm 2>/dev/null) wchan=$(cat $tk/wchan 2>/dev/null) syscall=$(cut -d' ' -f1-3 $tk/syscall 2>/dev/null)"
						cat $tk/stack 2>/dev/null | head -12
					done >"$OUT/thr-$i-tasks.txt" 2>&1
					# native stacks once (a debugger's attach can take a minute)
					[ -n "$dbg" ] && [ -z "${stacked:-}" ] && stacked=1 &&
						timeout 60 "$dbg" -p "$py" -batch -ex 'set pagination off' -ex 'thread apply all bt 30' >"$OUT/thr-$i-gdb.txt" 2>&1
					kill -ABRT "$py"
				fi
			fi
			wait $rpid
			echo "-- run $i ($t s${m:+, $m}): $(grep -E '^checksum|attention calls captured|stopped by|^exit' "$OUT/thr-$i.log" | tr '\n' ' ' | cut -c1-300)" | tee -a "$log"
			grep -E 'No such file|error|warning' "$OUT/thr-$i.log" | grep -v ' trace ' | head -5 | cut -c1-300 | tee -a "$log"
			[ -f "$OUT/thr-$i-gdb.txt" ] && grep -E '^Thread|^#[0-9] ' "$OUT/thr-$i-gdb.txt" | head -60 | cut -c1-200 | tee -a "$log"
			[ -f "$OUT/thr-$i-tasks.txt" ] && grep '^task' "$OUT/thr-$i-tasks.txt" | head -40 | tee -a "$log"
			grep ' trace ' "$OUT/thr-$i.log" | tail -12 | cut -c1-240 | tee -a "$log"
		done
		for i in 1 2 3; do
			echo "-- jax plain $i: $(timeout 100 python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1 2>/dev/null | grep '^checksum')" | tee -a "$log"
		done
		# XLA picks GEMM and fusion configurations by timing them: a winner that
		# differs between runs would change the rounding, and the checksum
		for i in 1 2; do
			echo "-- jax plain, autotuning off, $i: $(XLA_FLAGS=--xla_gpu_autotune_level=0 timeout 100 python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1 2>/dev/null | grep '^checksum')" | tee -a "$log"
		done
		gzip -f "$OUT"/thr-*.log
		tar -C "$OUT" -czf "$OUT/threadsdiag.tar.gz" $(cd "$OUT" && ls thr-* 2>/dev/null) && rm -f "$OUT"/thr-* ;;
	neverharm)
		say "never harm the program (issue 30): the GPU CLI cases record-never-harm-{jax,threads}; the threads program plain twice beside one run under record (do plain runs differ?)"
		CLI_CASES="tests/cli/cases/record-never-harm-jax.t tests/cli/cases/record-never-harm-threads.t tests/cli/cases/record-jax-shapes.t" timeout 280 sh tests/cli/run.sh ./attnprof >"$OUT/neverharm-cli.log" 2>&1
		tail -30 "$OUT/neverharm-cli.log" | tee -a "$log"
		for i in 1 2; do
			echo "-- threads plain $i: $(timeout 60 python3 experiments/programs/threads_streams.py 2>&1 | grep '^checksum')" | tee -a "$log"
		done
		timeout 100 ./attnprof record -o "$OUT/cap-threads.yaml" --force --timeout 80 -- python3 experiments/programs/threads_streams.py >"$OUT/cap-threads.log" 2>&1
		echo "-- threads record exit $?: $(grep -E '^checksum|attention calls captured' "$OUT/cap-threads.log" | tr '\n' ' ')" | tee -a "$log" ;;
	graphsneverharm)
		say "never harm a graph program (issue 54 item 4): each program plain, then under record (default counters, --metrics none); exit status, output lines (checksum, graphs=, done) and the results' program_exit/program_ran_to_end compared; one PASS/FAIL line each"
		for prog in cudagraph_sdpa compile_reduce_overhead; do
			cmd="python3 experiments/programs/$prog.py"
			timeout 300 $cmd >"$OUT/gnh-$prog-plain.out" 2>"$OUT/gnh-$prog-plain.err"
			prc=$?
			plain=$(grep -E '^(checksum|graphs=|done)' "$OUT/gnh-$prog-plain.out" | tr '\n' ' ')
			for m in default none; do
				mo=""; [ "$m" = none ] && mo="--metrics none"
				timeout 400 ./attnprof record $mo -o "$OUT/gnh-$prog-$m.yaml" --force --timeout 360 ${CAPTURE_OPTS:-} -- $cmd \
					>"$OUT/gnh-$prog-$m.out" 2>"$OUT/gnh-$prog-$m.err"
				rrc=$?
				got=$(grep -E '^(checksum|graphs=|done)' "$OUT/gnh-$prog-$m.out" | tr '\n' ' ')
				pe=$(grep -E '^ *program_exit:' "$OUT/gnh-$prog-$m.yaml" 2>/dev/null | head -1 | sed 's/^ *//')
				pr=$(grep -E '^ *program_ran_to_end:' "$OUT/gnh-$prog-$m.yaml" 2>/dev/null | head -1 | sed 's/^ *//')
				if [ $prc -eq 0 ] && [ -n "$plain" ] && [ "$plain" = "$got" ] && echo "$plain" | grep -q 'done' &&
				   echo "$pe" | grep -q 'exited with status 0' && echo "$pr" | grep -q true; then v=PASS; else v=FAIL; fi
				echo "$v graphsneverharm $prog metrics=$m: plain exit $prc [$plain]; under record exit $rrc [$got]; $pe; $pr; $(grep -E 'attention calls captured|^attnprof: (error|warning)|CUPTI_ERROR|profiling stopped|capturing' "$OUT/gnh-$prog-$m.err" | head -4 | cut -c1-240 | tr '\n' ' ')" | tee -a "$log"
				grep -E 'check_skipped|graph_launches' "$OUT/gnh-$prog-$m.yaml" 2>/dev/null | sort | uniq -c | tee -a "$log"
			done
		done ;;
	workloadtrace)
		say "the whole workload in the trace (issue 52 item 1): record --workload on keeps every kernel (header.workload), export --trace draws them; sdpa_backends (plain launches) and cudagraph_sdpa with --graphs on (in-graph kernels); PASS when the trace's workload kernels + dropped equal the header's gpu_kernels (tools/workload_trace_check.py)"
		for prog in sdpa cgraph; do
			case $prog in
			sdpa) cmd="python3 experiments/programs/sdpa_backends.py --seqlens 1024 --backends flash,math --iters 1"; ro="" ;;
			cgraph) cmd="python3 experiments/programs/cudagraph_sdpa.py --replays 5"; ro="--graphs on" ;;
			esac
			timeout 300 ./attnprof record --workload on $ro --metrics none -o "$OUT/wt-$prog.yaml" --force --timeout 240 -- $cmd \
				>"$OUT/wt-$prog.out" 2>"$OUT/wt-$prog.err"; rc=$?
			./attnprof export "$OUT/wt-$prog.yaml" --trace "$OUT/wt-$prog.json" 2>>"$OUT/wt-$prog.err"; ec=$?
			echo "record exit $rc, export exit $ec; $(grep -E 'workload:|attention calls captured|^attnprof: (error|warning)' "$OUT/wt-$prog.err" | head -3 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
			grep -E '^  (gpu_kernels|attention_kernels):|^    (dropped|per_stream|most):' "$OUT/wt-$prog.yaml" 2>/dev/null | sed 's/^ */  header /' | tee -a "$log"
			python3 tools/workload_trace_check.py "$OUT/wt-$prog.yaml" "$OUT/wt-$prog.json" 2>&1 | sed "s/^/$prog: /" | tee -a "$log"
			rm -f "$OUT/wt-$prog.json" # large; the results file holds the same kernels
		done ;;
	graphcalls)
		say "calls inside CUDA graphs, kernels nobody named, the whole workload (issue 54 items 1, 2, 3, 5): cudagraph_sdpa plain (CUDA-event-timed replays) against record --graphs on --workload on; the graph-replayed decode loop's wall time plain and under record --metrics none; the hand-written Triton kernel listed (--scan off) and captured (--scan on); one PASS/FAIL line each"
		# in-graph calls of a results file: variant, origin, replays, median/min/max (ms); the header's workload
		calls() {
			./attnprof export "$1" --csv 2>/dev/null | python3 -c 'import csv,sys
for r in csv.DictReader(sys.stdin):
    if r.get("capture.origin","").startswith("graph-replay"): print("  in-graph", r["variant"], r["capture.origin"], r["pass"], "median", r["time_ms"], "min", r["time_ms_min"], "max", r["time_ms_max"])'
			grep -E '^ *(graph_replays|graph_replays_incomplete):' "$1" 2>/dev/null | sort | uniq -c | sed 's/^/  /'
			grep -E '^  (gpu_kernels|gpu_kernel_ms|attention_kernels|attention_kernel_ms|attention_share|amdahl_2x):' "$1" 2>/dev/null | sed 's/^ */  header /'
		}
		med() { python3 -c 'import csv,sys
v=[float(r["time_ms"]) for r in csv.DictReader(sys.stdin) if r.get("capture.origin")=="graph-replay" and r["time_ms"]]
print(v[0] if v else "")'; }
		# the replays' kernels and what record attributed: graph_replays and graph_replays_incomplete of
		# the one in-graph record, and the notes that say which graph nodes ran no kernel
		gr() { grep -E "^ *$2:" "$1" 2>/dev/null | head -1 | sed 's/.*: *//'; }
		gnotes() { python3 -c 'import re,sys
m = re.search(r"\n  notes: (.*?)\n(?:  [a-z_]+:|records:)", open(sys.argv[1]).read(), re.S)
for n in re.sub(r"\n *\n *", "\0", m.group(1)).split("\0") if m else []:
    n = re.sub(r"\s+", " ", n).strip(" \x27").replace("\x27\x27", "\x27")
    if re.search(r"ran no kernel|repeated node-creation|missed some|no kernel of theirs|another graph|of executable graphs|graph nodes of no", n):
        print(n[:300])' "$1" 2>/dev/null; }
		# seqlen 16384: the call's kernel (about 1.4 ms, 256x the FLOPs of 1024) outweighs what the
		# CUDA events around g.replay() also hold: the graph's launch through Python and torch (at
		# 1024 the kernel was 13 us of the events' 34 on the H100: 21 us would be 6 % of 8192's)
		nrep=20
		sd="python3 experiments/programs/cudagraph_sdpa.py --replays $nrep --seqlen 16384"
		timeout 200 $sd >"$OUT/gc-sdpa-plain.out" 2>"$OUT/gc-sdpa-plain.err"; prc=$?
		ev=$(sed -n 's/^replay_ms median=\([0-9.]*\).*/\1/p' "$OUT/gc-sdpa-plain.out")
		plain=$(grep -E '^(checksum|done)' "$OUT/gc-sdpa-plain.out" | tr '\n' ' ')
		for m in none default; do
			mo=""; [ "$m" = none ] && mo="--metrics none"
			timeout 300 ./attnprof record --graphs on --workload on $mo -o "$OUT/gc-sdpa-$m.yaml" --force --timeout 240 -- $sd \
				>"$OUT/gc-sdpa-$m.out" 2>"$OUT/gc-sdpa-$m.err"; rrc=$?
			got=$(grep -E '^(checksum|done)' "$OUT/gc-sdpa-$m.out" | tr '\n' ' ')
			ig=$(./attnprof export "$OUT/gc-sdpa-$m.yaml" --csv 2>/dev/null | med)
			nig=$(grep -cE '^ *origin: graph-replay$' "$OUT/gc-sdpa-$m.yaml" 2>/dev/null)
			rp=$(gr "$OUT/gc-sdpa-$m.yaml" graph_replays); inc=$(gr "$OUT/gc-sdpa-$m.yaml" graph_replays_incomplete)
			ok=$(python3 -c "import sys; e,i='$ev','$ig'; print(1 if e and i and abs(float(i)/float(e)-1) <= 0.05 else 0)" 2>/dev/null)
			# PASS: same output and exit, one in-graph call with every replay attributed, its median within 5 %
			if [ $prc -eq 0 ] && [ $rrc -eq 0 ] && [ "$plain" = "$got" ] && [ "$nig" = 1 ] && [ "$rp" = "$nrep" ] &&
			   [ "${inc:-0}" = 0 ] && [ "$ok" = 1 ]; then v=PASS; else v=FAIL; fi
			echo "$v graphcalls cudagraph_sdpa metrics=$m: in-graph median ${ig:-none} ms against the unprofiled replay ${ev:-?} ms (CUDA events; within 5 % to pass); in-graph records ${nig:-0} (1 to pass), replays attributed ${rp:-0} of $nrep, incomplete ${inc:-0} (0 to pass); plain exit $prc [$plain], under record exit $rrc [$got]; $(grep -E 'attention calls captured|workload:|^attnprof: (error|warning)|CUPTI_ERROR' "$OUT/gc-sdpa-$m.err" | head -4 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
			calls "$OUT/gc-sdpa-$m.yaml" | tee -a "$log"
			gnotes "$OUT/gc-sdpa-$m.yaml" | sed 's/^/  /' | tee -a "$log"
		done
		# the graph callbacks of the call's capture, traced (which nodes, of which type, with the site open)
		ATTNPROF_INJECT_VERBOSE=2 timeout 200 ./attnprof record --graphs on --metrics none -o "$OUT/gc-sdpa-trace.yaml" --force \
			--timeout 150 -- python3 experiments/programs/cudagraph_sdpa.py --replays 3 >"$OUT/gc-sdpa-trace.out" 2>"$OUT/gc-sdpa-trace.err"; trc=$?
		echo "  traced run (3 replays, exit $trc): $(grep -c 'trace.*graph node .* created' "$OUT/gc-sdpa-trace.err") node creations, $(grep -c 'trace.*cloned from' "$OUT/gc-sdpa-trace.err") clones; the creations with a call site open:" | tee -a "$log"
		grep 'trace.*graph node .* created' "$OUT/gc-sdpa-trace.err" | grep -v 'site open: -1' | head -12 | sed 's/^.*trace/   /' | tee -a "$log"
		gzip -f "$OUT/gc-sdpa-trace.err"
		dg="python3 experiments/programs/decode_graph.py --steps 200"
		for i in 1 2 3; do timeout 200 $dg >"$OUT/gc-dec-plain$i.out" 2>&1; done
		timeout 300 ./attnprof record --metrics none -o "$OUT/gc-dec-none.yaml" --force --timeout 240 -- $dg >"$OUT/gc-dec-none.out" 2>&1; r1=$?
		timeout 300 ./attnprof record --metrics none --graphs on --workload on -o "$OUT/gc-dec-graphs.yaml" --force --timeout 240 -- $dg >"$OUT/gc-dec-graphs.out" 2>&1; r2=$?
		w() { sed -n 's/^wall_s //p' "$1"; }
		c() { grep -E '^(checksum|done)' "$1" | tr '\n' ' '; }
		p1=$(w "$OUT/gc-dec-plain1.out"); p2=$(w "$OUT/gc-dec-plain2.out"); wn=$(w "$OUT/gc-dec-none.out"); wg=$(w "$OUT/gc-dec-graphs.out")
		ok=$(python3 -c "p=min(float('$p1' or 1e9), float('$p2' or 1e9)); print(1 if p < 1e9 and float('${wn:-1e9}') <= 1.10 * p else 0)" 2>/dev/null)
		# the two plain runs first: a program whose output differs between plain runs proves nothing
		same=no; [ -n "$(c "$OUT/gc-dec-plain1.out")" ] && [ "$(c "$OUT/gc-dec-plain1.out")" = "$(c "$OUT/gc-dec-plain2.out")" ] &&
			[ "$(c "$OUT/gc-dec-plain1.out")" = "$(c "$OUT/gc-dec-plain3.out")" ] && same=yes
		drp=$(gr "$OUT/gc-dec-graphs.yaml" graph_replays); dinc=$(gr "$OUT/gc-dec-graphs.yaml" graph_replays_incomplete)
		if [ "$ok" = 1 ] && [ $same = yes ] && [ "$(c "$OUT/gc-dec-plain1.out")" = "$(c "$OUT/gc-dec-none.out")" ] &&
		   [ "$(c "$OUT/gc-dec-none.out")" = "$(c "$OUT/gc-dec-graphs.out")" ] && [ "$drp" = 200 ] && [ "${dinc:-0}" = 0 ]; then v=PASS; else v=FAIL; fi
		echo "$v graphcalls decode_graph: decode loop wall plain ${p1:-?} / ${p2:-?} s, under record --metrics none ${wn:-?} s (exit $r1; within 10 % of the faster plain run to pass), with --graphs on --workload on ${wg:-?} s (exit $r2); the three plain runs agree: $same; output [$(c "$OUT/gc-dec-plain1.out")] [$(c "$OUT/gc-dec-plain2.out")] [$(c "$OUT/gc-dec-plain3.out")] [$(c "$OUT/gc-dec-none.out")] [$(c "$OUT/gc-dec-graphs.out")]; replays attributed ${drp:-0} of 200, incomplete ${dinc:-0}" | tee -a "$log"
		calls "$OUT/gc-dec-graphs.yaml" | tee -a "$log"
		grep -E 'workload:|attention calls captured|^attnprof: (error|warning)' "$OUT/gc-dec-graphs.out" | head -3 | cut -c1-300 | tee -a "$log"
		gnotes "$OUT/gc-dec-graphs.yaml" | sed 's/^/  /' | tee -a "$log"
		# the projection as a cuBLAS GEMM (plain, and under torch.use_deterministic_algorithms): three plain
		# runs each, informative (the program's default, a multiply and a sum, is what the PASS above needs)
		for pj in gemm gemm-det; do
			for i in 1 2 3; do timeout 100 $dg --proj $pj >"$OUT/gc-dec-$pj$i.out" 2>&1; done
			sp=no; [ -n "$(c "$OUT/gc-dec-${pj}1.out")" ] && [ "$(c "$OUT/gc-dec-${pj}1.out")" = "$(c "$OUT/gc-dec-${pj}2.out")" ] &&
				[ "$(c "$OUT/gc-dec-${pj}1.out")" = "$(c "$OUT/gc-dec-${pj}3.out")" ] && sp=yes
			echo "  decode_graph --proj $pj: three plain runs agree: $sp [$(c "$OUT/gc-dec-${pj}1.out")] [$(c "$OUT/gc-dec-${pj}2.out")] [$(c "$OUT/gc-dec-${pj}3.out")] wall $(w "$OUT/gc-dec-${pj}1.out") s$(grep -m1 -E 'Error' "$OUT/gc-dec-${pj}1.out" | cut -c1-200 | sed 's/^/; /')" | tee -a "$log"
		done
		tr="python3 experiments/programs/triton_attention.py"
		timeout 200 $tr >"$OUT/gc-tri-plain.out" 2>&1
		timeout 300 ./attnprof record --scan off -o "$OUT/gc-tri-off.yaml" --force --timeout 240 -- $tr >"$OUT/gc-tri-off.out" 2>&1; t1=$?
		timeout 300 ./attnprof record -o "$OUT/gc-tri-on.yaml" --force --timeout 240 -- $tr >"$OUT/gc-tri-on.out" 2>&1; t2=$?
		n=$(./attnprof export "$OUT/gc-tri-on.yaml" --csv 2>/dev/null | grep -c ',name-scan,')
		if grep -q "candidate attention kernel '_attn_fwd'" "$OUT/gc-tri-off.out" && [ "$n" = 3 ] &&
		   [ "$(c "$OUT/gc-tri-plain.out")" = "$(c "$OUT/gc-tri-on.out")" ]; then v=PASS; else v=FAIL; fi
		echo "$v graphcalls triton_attention: --scan off (exit $t1) lists it: $(grep -c 'candidate attention kernel' "$OUT/gc-tri-off.out") candidate line(s); --scan on (exit $t2): $n of 3 calls by name (family unknown); output [$(c "$OUT/gc-tri-plain.out")] [$(c "$OUT/gc-tri-on.out")]; $(grep maxerr "$OUT/gc-tri-plain.out")" | tee -a "$log"
		grep "candidate attention kernel" "$OUT/gc-tri-off.out" | head -2 | cut -c1-400 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/graphcalls.tar.gz" $(cd "$OUT" && ls gc-* 2>/dev/null) && rm -f "$OUT"/gc-* ;;
	frontends)
		say "front ends under record (issue 30): each program plain twice, then under record (default: capture set, --scan on); output checksums compared; the calls captured"
		cmp_run() { # NAME CMD...: REC_OPTS for record
			name=$1; shift
			a=$(timeout 200 "$@" 2>/dev/null | grep '^checksum'); b=$(timeout 200 "$@" 2>/dev/null | grep '^checksum')
			if [ -n "${SHAPE:-}" ]; then
				ATTNPROF_INJECT_VERBOSE=1 timeout 300 ./attnprof record -o "$OUT/cap-$name.yaml" --force --timeout 240 ${REC_OPTS:-} --shape "$SHAPE" -- "$@" >"$OUT/cap-$name.log" 2>&1
			else
				ATTNPROF_INJECT_VERBOSE=1 timeout 300 ./attnprof record -o "$OUT/cap-$name.yaml" --force --timeout 240 ${REC_OPTS:-} -- "$@" >"$OUT/cap-$name.log" 2>&1
			fi
			rc=$?
			c=$(grep '^checksum' "$OUT/cap-$name.log")
			echo "-- $name: plain [$a] [$b]; under record exit $rc [$c]; $(grep -E '^attnprof: (error|warning)|attention calls captured|profiling stopped' "$OUT/cap-$name.log" | head -4 | cut -c1-300 | tr '\n' ' ')" | tee -a "$log"
			[ -f "$OUT/cap-$name.yaml" ] && ./attnprof export "$OUT/cap-$name.yaml" --csv 2>/dev/null | python3 tools/capture_table.py | tee -a "$log"
		}
		flex="python3 experiments/programs/flex_attention.py"
		cmp_run flex-fn $flex --mode compiled-fn --seqlens 1024,4096 --iters 2
		cmp_run flex-model $flex --mode compiled-model --seqlens 1024,4096 --iters 2
		cmp_run flex-eager $flex --mode eager --seqlens 1024 --iters 1
		cmp_run jax python3 experiments/programs/jax_attention.py --seqlens 1024,4096 --iters 2
		REC_OPTS="--metrics none"
		cmp_run jax-nocounters python3 experiments/programs/jax_attention.py --impls cudnn --seqlens 1024 --iters 1
		REC_OPTS="--kernel-regex cudnn|sdpa|fmha|flash" SHAPE="impl=jax-cudnn B=16 H=16 Nq=1024 Nkv=1024 d=128 causal=1 dtype=fp16 pass=fwd"
		cmp_run jax-regex python3 experiments/programs/jax_attention.py --impls cudnn --seqlens 1024 --iters 1
		REC_OPTS= SHAPE=
		cmp_run unmarked python3 experiments/programs/unmarked_attention.py
		cmp_run threads python3 experiments/programs/threads_streams.py
		tar -C "$OUT" -czf "$OUT/frontends.tar.gz" --exclude=gpu-run.log --exclude=frontends.tar.gz . 2>/dev/null &&
			find "$OUT" -maxdepth 1 -name 'cap-*' -delete ;;
	frontprobe)
		say "front ends, what a capture sees today (issue 30): versions; FlexAttention and JAX plain, under ncu (kernel names, grids), under record verbose (every NVTX range); the JAX kernel-regex hang with the CUPTI trace; threads and streams"
		python3 -c 'import torch, triton, jax, jaxlib; print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version(), "triton", triton.__version__, "jax", jax.__version__, jaxlib.__version__, jax.devices())' 2>&1 | tail -3 | tee -a "$log"
		python3 -c 'import jax.experimental.pallas.ops.gpu.attention as m; print("pallas attention:", [n for n in dir(m) if not n.startswith("_")])' 2>&1 | tail -2 | tee -a "$log"
		flex="python3 experiments/programs/flex_attention.py --seqlens 1024 --iters 1"
		jaxp="python3 experiments/programs/jax_attention.py --seqlens 1024 --iters 1"
		for m in compiled-fn compiled-model eager; do
			echo "-- flex $m plain: $(timeout 200 $flex --mode $m 2>&1 | tail -2 | tr '\n' ' ')" | tee -a "$log"
		done
		echo "-- jax plain: $(timeout 200 $jaxp 2>&1 | tail -2 | tr '\n' ' ')" | tee -a "$log"
		timeout 200 ncu --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread --nvtx $flex --mode compiled-fn >"$OUT/flex-ncu.csv" 2>&1
		echo "flex ncu exit $?: $(grep -c '"gpu__time_duration.sum"' "$OUT/flex-ncu.csv") kernels" | tee -a "$log"
		timeout 200 ncu --csv --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size --nvtx $jaxp >"$OUT/jax-ncu.csv" 2>&1
		echo "jax ncu exit $?: $(grep -c '"gpu__time_duration.sum"' "$OUT/jax-ncu.csv") kernels" | tee -a "$log"
		ATTNPROF_INJECT_VERBOSE=1 timeout 200 ./attnprof record -o "$OUT/jax-ranges.yaml" --force --timeout 150 -- $jaxp >"$OUT/jax-ranges.log" 2>&1
		echo "jax record (no markup) exit $?; distinct range names: $(grep -o "range push '[^']*'" "$OUT/jax-ranges.log" | sort | uniq -c | sort -rn | head -40 | tr '\n' ';')" | tee -a "$log"
		ATTNPROF_INJECT_VERBOSE=1 ATTNPROF_CUPTI_TRACE=1 timeout 120 ./attnprof record -o "$OUT/jax-regex.yaml" --force --timeout 60 \
			--kernel-regex 'cudnn|sdpa|fmha|flash' --shape 'impl=jax-cudnn B=16 H=16 Nq=1024 Nkv=1024 d=128 causal=1 dtype=fp16 pass=fwd' \
			-- $jaxp --impls cudnn >"$OUT/jax-regex.log" 2>&1
		echo "jax kernel-regex exit $?: $(tail -5 "$OUT/jax-regex.log" | tr '\n' ' ')" | tee -a "$log"
		ATTNPROF_INJECT_VERBOSE=1 timeout 200 ./attnprof record -o "$OUT/flex-ranges.yaml" --force --timeout 150 -- $flex --mode compiled-fn >"$OUT/flex-ranges.log" 2>&1
		echo "flex record (no markup) exit $?; range names: $(grep -o "range push '[^']*'" "$OUT/flex-ranges.log" | sort | uniq -c | sort -rn | head -20 | tr '\n' ';')" | tee -a "$log"
		echo "-- threads plain: $(timeout 120 python3 experiments/programs/threads_streams.py 2>&1 | tail -1)" | tee -a "$log"
		timeout 200 ./attnprof record -o "$OUT/threads.yaml" --force --timeout 150 -- python3 experiments/programs/threads_streams.py >"$OUT/threads.log" 2>&1
		echo "-- threads record exit $?: $(tail -3 "$OUT/threads.log" | tr '\n' ' ')" | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/frontprobe.tar.gz" --exclude=gpu-run.log --exclude=frontprobe.tar.gz . 2>/dev/null ;;
	kernelmode)
		say "record -- CMD, kernel-launch mode: PyTorch's FA2 operator called directly, no NVTX range, found by --kernel-regex with --shape"
		ATTNPROF_INJECT_VERBOSE=1 ./attnprof record -o "$OUT/capture-kernelmode.yaml" --force ${CAPTURE_OPTS:-} --kernel-regex 'flash_fwd_kernel' \
			--shape 'impl=aten-flash B=4 H=16 Nq=4096 Nkv=4096 d=128 causal=0 dtype=fp16 pass=fwd' \
			-- python3 experiments/programs/unmarked_attention.py 2>&1 | tail -25 | tee -a "$log"
		./attnprof export "$OUT/capture-kernelmode.yaml" --csv 2>&1 | cut -c1-260 | tee -a "$log" ;;
	capturetrace)
		say "record -- CMD with the CUPTI trace: where a profiled call's time goes (SDPA flash + math, N = 1k and 4k)"
		ATTNPROF_CUPTI_TRACE=1 ./attnprof record -o "$OUT/trace.yaml" --force ${CAPTURE_OPTS:-} --no-check --no-time -- \
			python3 experiments/programs/sdpa_backends.py --seqlens 1024,4096 --backends flash,math --iters 2 >"$OUT/cupti-trace.log" 2>&1
		grep -E 'call [0-9]+:|start|launches|synchronize|stop|decode|session' "$OUT/cupti-trace.log" | head -120 | tee -a "$log" ;;
	bwdsan)
		say "backward under compute-sanitizer: memcheck and racecheck (shared-memory hazards) on eight small flash2 cases"
		t=${BWD_TEST:-build/cuda1-render0/tests/unit/test_bwd_gpu}
		for tool in memcheck racecheck; do
			BWD_QUICK=1 CHECK_ONLY=test_gpu_bwd_correct compute-sanitizer --tool $tool --error-exitcode 9 "$t" \
				>"$OUT/bwdsan-$tool.log" 2>&1
			echo "$tool: exit $? $(grep -E 'SUMMARY|cases' "$OUT/bwdsan-$tool.log" | tr '\n' ' ')" | tee -a "$log"
		done ;;
	sdpabwd)
		say "PyTorch SDPA fwd, bwd, fwd+bwd at the FA2-paper shapes, FLASH_ATTENTION and CUDNN_ATTENTION"
		for b in FLASH_ATTENTION CUDNN_ATTENTION; do
			python3 tools/sdpa_reference.py - --fa2-table --backend "$b" --warmup 3 --reps 20
		done >"$OUT/sdpa-bwd.txt" 2>&1
		tee -a "$log" <"$OUT/sdpa-bwd.txt" | tail -80 ;;
	shards)
		say "shards: experiments/smoke.yaml as 3 shards in sequence (experiments/slurm/sweep.sbatch without Slurm), merged; against the same sweep in one process (attnprof diff), and the parts' union against check"
		d="$OUT/shards"; rm -rf "$d"; mkdir -p "$d"
		{ for k in 1 2 3; do ./attnprof check experiments/smoke.yaml --shard $k/3 --quiet | head -1; done
		  ATTNPROF=./attnprof RECORD_OPTS="--copy-probe 0" SHARDS=3 sh experiments/slurm/sweep.sbatch experiments/smoke.yaml "$d"
		  echo "exit of the sharded sweep and merge: $?"
		  ./attnprof export "$d/smoke.yaml" --csv | tail -n +2 | wc -l | sed 's/^/records merged: /'
		  ./attnprof check experiments/smoke.yaml --quiet
		  ./attnprof record experiments/smoke.yaml -o "$d/smoke-one.yaml" --force --copy-probe 0; echo "exit of the single run: $?"
		  ./attnprof diff "$d/smoke-one.yaml" "$d/smoke.yaml" | tail -4
		  ./attnprof record experiments/smoke.yaml --gpus all -o "$d/smoke-gpus.yaml" --force --copy-probe 0; echo "exit of --gpus all: $?"
		} 2>&1 | grep -v '^\[' | tail -40 | tee -a "$log"
		tar czf "$OUT/shards.tar.gz" -C "$OUT" shards && rm -rf "$d" ;;
	smoke)
		say "smoke"
		./attnprof record experiments/smoke.yaml -o "$OUT/smoke.yaml" --force --progress 2>&1 | tail -60 | tee -a "$log" ;;
	fa2)
		say "fa2-paper (progress lines time-stamped; SM clock, power and throttle reasons every 100 ms in fa2-smi.csv; the records whose probed clock fell, by tools/clock_during.py)"
		nvidia-smi --query-gpu=$smi_query --format=csv -lms 100 >"$OUT/fa2-smi.csv" 2>&1 &
		smi=$!
		./attnprof record experiments/fa2-paper.yaml -o "$OUT/fa2-paper.yaml" --force --progress 2>&1 |
			while IFS= read -r l; do printf '%s %s\n' "$(date -u +%H:%M:%S.%N | cut -c1-12)" "$l"; done | tee -a "$log" | tail -80
		kill $smi
		python3 tools/clock_during.py "$OUT/fa2-paper.yaml" "$OUT/fa2-smi.csv" 2>&1 | tail -40 | tee -a "$log"
		gzip -f "$OUT/fa2-smi.csv" ;;
	hopper)
		say "hopper: the FA2 -> FA3 ladder (flash2 and the four Hopper rungs, FA2-paper shapes), then SDPA FLASH_ATTENTION and CUDNN_ATTENTION at its shapes"
		./attnprof record experiments/hopper.yaml -o "$OUT/hopper.yaml" --force --progress 2>&1 | tee -a "$log" | tail -130
		for b in FLASH_ATTENTION CUDNN_ATTENTION; do
			python3 tools/sdpa_reference.py "$OUT/hopper.yaml" --backend "$b" 2>&1 | tail -40 | tee -a "$log"
		done ;;
	hopperbwd)
		say "hopperbwd: the Hopper backward beside flash2's (bwd, fwd+bwd, FA2-paper shapes), then SDPA FLASH_ATTENTION and CUDNN_ATTENTION at its shapes and passes"
		./attnprof record experiments/hopper-bwd.yaml -o "$OUT/hopper-bwd.yaml" --force --progress 2>&1 | tee -a "$log" | tail -130
		for b in FLASH_ATTENTION CUDNN_ATTENTION; do
			python3 tools/sdpa_reference.py "$OUT/hopper-bwd.yaml" --backend "$b" 2>&1 | tail -40 | tee -a "$log"
		done ;;
	sdpa)
		say "sdpa reference (FLASH_ATTENTION and CUDNN_ATTENTION, every pass of the file's records)"
		[ -f "$OUT/fa2-paper.yaml" ] || cp experiments/results/fa2-paper.yaml "$OUT/fa2-paper.yaml"
		for b in FLASH_ATTENTION CUDNN_ATTENTION; do
			python3 tools/sdpa_reference.py "$OUT/fa2-paper.yaml" --backend "$b" 2>&1 | tail -80 | tee -a "$log"
		done
		./attnprof export "$OUT/fa2-paper.yaml" --csv -o "$OUT/fa2-paper.csv" 2>&1 | tee -a "$log" ;;
	ncu)
		say "ncu fidelity and overhead (ncu flushes caches before each kernel, its default)"
		OUT="$OUT/ncu" sh tools/ncu-compare.sh experiments/fidelity.yaml 2>&1 | tail -60 | tee -a "$log"
		# at most 8 files come back: one archive for the comparison
		tar -C "$OUT" -czf "$OUT/ncu.tar.gz" ncu && rm -rf "$OUT/ncu" ;;
	ncu-memory)
		say "ncu fidelity with the 1-pass memory set (no replay of memory inside ncu), user replay only"
		SET=memory KERNEL_REPLAY=0 OUT="$OUT/ncu-memory" sh tools/ncu-compare.sh experiments/fidelity.yaml 2>&1 | tail -60 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/ncu-memory.tar.gz" ncu-memory && rm -rf "$OUT/ncu-memory" ;;
	ncu-nocache)
		say "ncu fidelity and overhead, no cache flush in ncu (as CUPTI)"
		CACHE=none OUT="$OUT/ncu-nocache" sh tools/ncu-compare.sh experiments/fidelity.yaml 2>&1 | tail -60 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/ncu-nocache.tar.gz" ncu-nocache && rm -rf "$OUT/ncu-nocache" ;;
	overhead)
		say "whole-sweep profiling overhead, attnprof vs ncu, and fidelity of every fa2-paper kernel"
		OUT="$OUT/overhead" sh tools/ncu-overhead.sh experiments/fa2-paper.yaml 2>&1 | tail -40 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/overhead.tar.gz" overhead && rm -rf "$OUT/overhead" ;;
	orderdiag)
		say "the clock a config is timed at: experiments/bwd-order-diag.yaml (standard, then flash2, at each shape) without settling and with it (record --settle 0 / default); each record's probed SM clock"
		for settle in 0 2000; do
			timeout 80 ./attnprof record experiments/bwd-order-diag.yaml -o "$OUT/order-settle$settle.yaml" --force --copy-probe 0 --settle $settle 2>&1 | tail -1 | tee -a "$log"
			python3 - "$OUT/order-settle$settle.yaml" <<'PY' | tee -a "$log"
import sys, yaml
for r in yaml.safe_load(open(sys.argv[1]))["records"]:
    t = r["timing"]
    print(f"settle {sys.argv[1].split('settle')[-1][:-5]:>4}: {r['variant']:8} {r.get('pass', 'fwd'):7} N={r['seqlen_q']:5} "
          f"{t['time_ms']:.3f} ms  clock {t.get('sm_clock_mhz', 0):.0f} (min {t.get('sm_clock_mhz_min', 0):.0f}) MHz  settled {t.get('settle_ms', 0):.0f} ms")
PY
		done ;;
	timingdiag)
		say "backward timing diagnosis: experiments/bwd-timing-diag.yaml (flash2, d = 128, N 2k-8k, bwd and fwd+bwd) recorded five times (no counters, counters, 50 launches after 10 warm-ups, no counters, counters) with test_bwd_gpu's bench between; SM clock and power every 100 ms"
		d="$OUT/timingdiag"; mkdir -p "$d"
		nvidia-smi --query-gpu=$smi_query --format=csv -lms 100 >"$d/smi.csv" 2>&1 &
		smi=$!
		r() { n=$1; shift; timeout 100 ./attnprof record experiments/bwd-timing-diag.yaml -o "$d/$n.yaml" --force --copy-probe 0 "$@" >"$d/$n.log" 2>&1; echo "$n: exit $? $(tail -1 "$d/$n.log")" | tee -a "$log"; }
		r none1 --metrics none; r met1; r none50 --metrics none --reps 50 --warmup 10
		BWD_BENCH=1 BWD_BENCH_D=128 CHECK_ONLY=test_gpu_bwd_bench timeout 60 ${BWD_TEST:-build/cuda1-render0/tests/unit/test_bwd_gpu} >"$d/bench.log" 2>&1
		r none2 --metrics none; r met2
		kill $smi
		python3 tools/timing_diag.py "$d" none1 met1 none50 none2 met2 2>&1 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/timingdiag.tar.gz" timingdiag && rm -rf "$d" ;;
	cuptitest)
		say "CUPTI unit tests on the GPU (session reuse, probes)"
		t=${CUPTI_TEST:-build/cuda1-render0/tests/unit/test_cupti_gpu}
		"$t" >"$OUT/cuptitest.log" 2>&1; echo "exit $?" >>"$OUT/cuptitest.log"
		grep -E '^(ok|FAIL|skip|#)|call [0-9]|x after|wall' "$OUT/cuptitest.log" | tee -a "$log" ;;
	resume)
		say "interrupt and resume: SIGINT mid-sweep keeps finished records; --resume completes the file"
		{ timeout -s INT 12 ./attnprof record experiments/fa2-paper.yaml -o "$OUT/resume.yaml" --force --metrics none --copy-probe 0
		  echo "exit after SIGINT: $?"
		  ./attnprof export "$OUT/resume.yaml" --csv | tail -n +2 | wc -l | sed 's/^/records kept: /'
		  timeout -s INT 20 ./attnprof record experiments/fa2-paper.yaml -o "$OUT/resume.yaml" --resume --metrics none --copy-probe 0
		  echo "exit after resume: $?"
		  ./attnprof export "$OUT/resume.yaml" --csv | tail -n +2 | wc -l | sed 's/^/records after resume: /'
		  ./attnprof record experiments/fa2-paper.yaml -o "$OUT/resume.yaml" --metrics none; echo "exit without --resume/--force: $?"
		} 2>&1 | tail -20 | tee -a "$log" ;;
	decode)
		say "decode"
		./attnprof record experiments/decode.yaml -o "$OUT/decode.yaml" --force --progress 2>&1 | tee -a "$log" | tail -60 ;;
	decodesan)
		say "decode under compute-sanitizer: memcheck and racecheck on small decode-paged and decode-splitkv shapes (experiments/decode-paged-san.yaml)"
		for tool in memcheck racecheck; do
			compute-sanitizer --tool $tool --error-exitcode 9 ./attnprof record experiments/decode-paged-san.yaml \
				-o "$OUT/decodesan-$tool.yaml" --force --ceilings off --metrics none --copy-probe 0 \
				>"$OUT/decodesan-$tool.log" 2>&1
			echo "$tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|configs recorded' "$OUT/decodesan-$tool.log" | tr '\n' ' ')" | tee -a "$log"
		done ;;
	decodepaged)
		say "decode-paged: contiguous vs paged split-KV, ragged vs uniform, q 1 and 4; bandwidth per shape against the data sheet, SDPA FLASH and cuDNN at q = 1"
		./attnprof record experiments/decode-paged.yaml -o "$OUT/decode-paged.yaml" --force --progress 2>&1 | tee -a "$log" | tail -5
		python3 tools/decode_paged_table.py "$OUT/decode-paged.yaml" 2>&1 | tee -a "$log" ;;
	decodetiming)
		say "decode timings: without counters, with counters (batches of 8, the default), unbatched"
		d="$OUT/decodetiming"; mkdir -p "$d"
		for m in "none --metrics none" "batch8" "batch1 --profile-batch 1"; do
			set -- $m; k=$1; shift
			./attnprof record experiments/decode.yaml -o "$d/decode-$k.yaml" --force --copy-probe 0 "$@" >"$d/decode-$k.log" 2>&1
			echo "$k: exit $? $(tail -1 "$d/decode-$k.log")" | tee -a "$log"
		done
		python3 tools/timing_compare.py "$d/decode-none.yaml" "$d/decode-batch8.yaml" "$d/decode-batch1.yaml" 2>&1 | tee -a "$log"
		tar -C "$OUT" -czf "$OUT/decodetiming.tar.gz" decodetiming && rm -rf "$d" ;;
	ablation2)
		say "ablation, second run (run-to-run spread)"
		./attnprof record experiments/ablation.yaml -o "$OUT/ablation-run2.yaml" --force --progress 2>&1 | tee -a "$log" | tail -5 ;;
	ablation)
		say "ablation"
		./attnprof record experiments/ablation.yaml -o "$OUT/ablation.yaml" --force --progress 2>&1 | tee -a "$log" | tail -80 ;;
	capturesmoke)
		say "record -- CMD smoke: one SDPA shape, every backend, fwd+bwd"
		ATTNPROF_INJECT_VERBOSE=1 ./attnprof record -o "$OUT/capture-smoke.yaml" --force ${CAPTURE_OPTS:-} --keep-parts --timeout 120 -- python3 experiments/programs/sdpa_backends.py --seqlens 1024 --iters 1 2>&1 | tail -40 | tee -a "$log"
		./attnprof export "$OUT/capture-smoke.yaml" --csv 2>&1 | cut -c1-220 | head -30 | tee -a "$log" ;;
	capture)
		say "record -- CMD: the SDPA-backends script at the FA2-paper shapes (d=128, N 1k-8k), fwd+bwd"
		./attnprof record -o "$OUT/capture-sdpa.yaml" --force ${CAPTURE_OPTS:-} --timeout 300 -- python3 experiments/programs/sdpa_backends.py --seqlens 1024,2048,4096,8192 2>&1 | tail -30 | tee -a "$log" ;;
	capturellama)
		say "record -- CMD: transformers Llama from a config, eager and sdpa, prefill 512 + 8 decode steps"
		./attnprof record -o "$OUT/capture-llama.yaml" --force ${CAPTURE_OPTS:-} --timeout 300 -- python3 experiments/programs/llama_generate.py 2>&1 | tail -30 | tee -a "$log" ;;
	captureoverhead)
		say "overhead, interleaved repeats: the SDPA script with the helper's ranges, under attnprof (--window off, the default, and --window on; capture set, no check/re-time), under ncu (same 7 metrics, same ranges); fidelity of both against ncu"
		prog="python3 experiments/programs/sdpa_backends.py --seqlens 1024,2048,4096"
		t() { s=$(date +%s%N); timeout 150 "$@" >"$OUT/oh.log" 2>&1; rc=$?; e=$(date +%s%N); echo "$(( (e - s) / 1000000 )) ms (exit $rc)"; }
		hook="env PYTHONPATH=src/capture/python ATTNPROF_HOOK=1 ATTNPROF_HOOK_CHECK=0 ATTNPROF_HOOK_TIME=0"
		m=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
		for i in 1 2 3; do
			echo "run $i plain + helper:       $(t $hook $prog)" | tee -a "$log"
			echo "run $i attnprof --window off: $(t ./attnprof record -o "$OUT/oh-off-$i.yaml" --window off --force --no-check --no-time -- $prog)" | tee -a "$log"
			echo "run $i attnprof --window on:  $(t ./attnprof record -o "$OUT/oh-on-$i.yaml" --window on --force --no-check --no-time -- $prog)" | tee -a "$log"
			[ $i = 2 ] && echo "run $i ncu:                  $(t $hook ncu --clock-control none --nvtx --nvtx-include 'regex:attnprof:.*/' --metrics $m --csv --log-file "$OUT/oh-ncu.csv" $prog)" | tee -a "$log"
		done
		for f in oh-off-2 oh-on-2; do
			echo "-- fidelity of $f against ncu" | tee -a "$log"
			python3 tools/capture_compare.py "$OUT/$f.yaml" "$OUT/oh-ncu.csv" 2>&1 | tee -a "$log"
		done
		gzip -f "$OUT/oh-ncu.csv"
		tar -C "$OUT" -czf "$OUT/overhead-capture.tar.gz" oh-ncu.csv.gz oh-off-1.yaml oh-off-2.yaml oh-off-3.yaml oh-on-1.yaml oh-on-2.yaml oh-on-3.yaml &&
			rm -f "$OUT"/oh-o*.yaml "$OUT/oh-ncu.csv.gz" ;;
	capturefidelity)
		say "fidelity without the cache policy in it: attnprof --cache-control none against ncu --cache-control none (neither flushes), per call, the SDPA script at N = 1k, 2k"
		prog="python3 experiments/programs/sdpa_backends.py --seqlens 1024,2048"
		hook="env PYTHONPATH=src/capture/python ATTNPROF_HOOK=1 ATTNPROF_HOOK_CHECK=0 ATTNPROF_HOOK_TIME=0"
		m=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
		timeout 150 ./attnprof record -o "$OUT/fid-none.yaml" --cache-control none --force --no-check --no-time -- $prog >"$OUT/fid.log" 2>&1
		echo "attnprof --cache-control none: exit $?" | tee -a "$log"
		timeout 150 $hook ncu --clock-control none --cache-control none --nvtx --nvtx-include 'regex:attnprof:.*/' --metrics $m --csv --log-file "$OUT/fid-ncu-none.csv" $prog >>"$OUT/fid.log" 2>&1
		echo "ncu --cache-control none: exit $?" | tee -a "$log"
		python3 tools/capture_compare.py "$OUT/fid-none.yaml" "$OUT/fid-ncu-none.csv" 2>&1 | tee -a "$log"
		gzip -f "$OUT/fid-ncu-none.csv"
		tar -C "$OUT" -czf "$OUT/capturefidelity.tar.gz" fid-none.yaml fid-ncu-none.csv.gz fid.log && rm -f "$OUT"/fid-none.yaml "$OUT/fid-ncu-none.csv.gz" "$OUT/fid.log" ;;
	windowcause)
		say "window inflation: is it the call after the math backend's multi-GB free (empty_cache)? window on against per call, L2 write sectors per call, for two backend orders at N = 1k, 2k"
		for order in flash,efficient,cudnn math,cudnn,efficient,flash; do
			for w in on off; do
				timeout 60 ./attnprof record -o "$OUT/wc-$order-$w.yaml" --window $w --force --no-check --no-time -- \
					python3 experiments/programs/sdpa_backends.py --seqlens 1024,2048 --backends $order >"$OUT/wc.log" 2>&1
				echo "$order --window $w: exit $?" | tee -a "$log"
			done
			python3 - "$OUT/wc-$order-on.yaml" "$OUT/wc-$order-off.yaml" <<'PY' 2>&1 | tee -a "$log"
import sys, yaml
on, off = (yaml.safe_load(open(p))["records"] for p in sys.argv[1:3])
def w(r): return sum(l["metrics"].get("lts__t_sectors_op_write.sum", 0) for l in r["metrics"]["launches"])
for a, b in zip(on, off):
    print("  %-15s %-4s N=%-5s window/per-call L2 writes %.3f" % (a["variant"], a.get("pass"), a.get("seqlen_q", a.get("shape", {}).get("Nq", "?")), w(a) / max(w(b), 1)))
PY
		done
		tar -C "$OUT" -czf "$OUT/windowcause.tar.gz" $(cd "$OUT" && ls wc-*.yaml) && rm -f "$OUT"/wc-* ;;
	windowsettle)
		say "window inflation, second test: window on with ATTNPROF_INJECT_WINDOW_SETTLE_MS=0 and =20 (a wait at each call's start and before the first kernel after an allocation) against per call, the SDPA script at N = 1k, 2k, all four backends; kernels whose L2 writes differ by over 5 % and 1 MB"
		prog="python3 experiments/programs/sdpa_backends.py --seqlens 1024,2048"
		timeout 60 ./attnprof record -o "$OUT/ws-off.yaml" --window off --force --no-check --no-time -- $prog >"$OUT/ws.log" 2>&1
		echo "--window off: exit $?" | tee -a "$log"
		for ms in 0 20; do
			s=$(date +%s%N)
			ATTNPROF_INJECT_WINDOW_SETTLE_MS=$ms timeout 60 ./attnprof record -o "$OUT/ws-on-$ms.yaml" --window on --force --no-check --no-time -- $prog >>"$OUT/ws.log" 2>&1
			echo "--window on, settle $ms ms: exit $? $(( ($(date +%s%N) - s) / 1000000 )) ms" | tee -a "$log"
			python3 - "$OUT/ws-on-$ms.yaml" "$OUT/ws-off.yaml" <<'PY' 2>&1 | tee -a "$log"
import sys, yaml
on, off = (yaml.safe_load(open(p))["records"] for p in sys.argv[1:3])
n = bad = 0
for i, (a, b) in enumerate(zip(on, off)):
    for la, lb in zip(a["metrics"]["launches"], b["metrics"]["launches"]):
        x, y = (l["metrics"].get("lts__t_sectors_op_write.sum", 0) for l in (la, lb))
        n += 1
        if y and abs(x / y - 1) > 0.05 and abs(x - y) * 32 > 1e6:
            bad += 1
            print("  call %2d %-15s %-4s N=%-5s alloc %5.0f MB  %-44s L2 writes %+7.1f MB (x%.2f)" % (i, a["variant"], a["pass"], a["seqlen_q"], a["capture"]["alloc_bytes"] / 1e6, la.get("name", "")[:44], (x - y) * 32 / 1e6, x / y))
print("  %d of %d kernels differ" % (bad, n))
PY
		done
		tar -C "$OUT" -czf "$OUT/windowsettle.tar.gz" ws-off.yaml ws-on-0.yaml ws-on-20.yaml ws.log && rm -f "$OUT"/ws-* ;;
	ncusass)
		say "ncu per-instruction (SASS) stall sampling and instruction mix: flash_bwd (this build) and SDPA FLASH_ATTENTION's backward kernel, d = 128, N = 4096, B = 4, H = 16, non-causal"
		sec="--section SourceCounters --section WarpStateStats --section InstructionStats --section ComputeWorkloadAnalysis"
		CHECK_ONLY=test_gpu_bwd_bench BWD_BENCH=1 BWD_BENCH_N=4096 BWD_BENCH_D=128 \
			timeout 150 ncu --clock-control none $sec --import-source no -k regex:flash_bwd --launch-skip 3 -c 1 -f -o "$OUT/sass-ours" \
			${BWD_TEST:-build/cuda1-render0/tests/unit/test_bwd_gpu} >"$OUT/sass.log" 2>&1
		echo "ours: exit $?" | tee -a "$log"
		timeout 150 ncu --clock-control none $sec --import-source no -k regex:flash_bwd_dq_dk_dv --launch-skip 2 -c 1 -f -o "$OUT/sass-sdpa" python3 -c '
import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
q, k, v = (torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.float16, requires_grad=True) for _ in range(3))
do = torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.float16)
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    for _ in range(4):
        torch.nn.functional.scaled_dot_product_attention(q, k, v).backward(do)
torch.cuda.synchronize()' >>"$OUT/sass.log" 2>&1
		echo "sdpa: exit $?" | tee -a "$log"
		for w in ours sdpa; do
			ncu -i "$OUT/sass-$w.ncu-rep" --page source --print-source sass --csv >"$OUT/sass-$w.csv" 2>>"$OUT/sass.log"
			echo "$w: $(wc -l <"$OUT/sass-$w.csv") SASS lines" | tee -a "$log"
		done
		tar -C "$OUT" -czf "$OUT/ncusass.tar.gz" sass-ours.csv sass-sdpa.csv sass-ours.ncu-rep sass-sdpa.ncu-rep sass.log && rm -f "$OUT"/sass-* "$OUT/sass.log" ;;
	sass)
		say "sass"
		for o in build/cuda1-render0/kernels/*.o; do
			echo "-- $o"; cuobjdump --dump-sass "$o" | grep -oE '\b(HMMA|HGMMA|LDSM|LDGSTS|LDL|STL|MUFU)[.A-Z0-9]*' | sort | uniq -c | sort -rn | head -12
		done 2>&1 | tee -a "$log" ;;
	*) echo "unknown step '$step'" >&2; exit 2 ;;
	esac
done
