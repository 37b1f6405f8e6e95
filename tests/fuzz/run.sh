#!/bin/sh
# tests/fuzz/run.sh [SECONDS] — the fuzz targets, each run for SECONDS
# (default 30) on a corpus seeded from the shipped files and the hostile
# cases of issues 33 and 34, with inputs up to 1 MB and a dictionary of the
# format's words (tests/fuzz/*.dict), at nice 19 so a long run does not
# take the cores from builds.  'make fuzz' runs each 10 minutes.
#
#   spec      the spec reader (experiments/*.yaml)
#   results   the results reader and the export of what it accepts
#   capture   capture files read as the documents read them (capreview.h)
#   template  templates walked into the document model over the fixtures
#
# The library is built instrumented (make FUZZ=1, clang, ASan + UBSan).
# Without clang's libFuzzer each target is built as a plain binary
# (tests/fuzz/replay.c, with the sanitizers when cc has them) that reads
# every seed once: the seeds still run in CI (FUZZ_REPLAY=1 asks for this
# mode where libFuzzer is present).  Prints one line per target
# and a final "N passed, N failed, N skipped"; a crash leaves its input in
# tests/fuzz/crash-*.
secs=${1:-30}
cd "$(dirname "$0")/../.."
out=build/fuzz
mkdir -p "$out"
passed=0 failed=0 skipped=0
mode=fuzz
if [ "${FUZZ_REPLAY:-0}" = 1 ]; then
	mode=replay
elif ! command -v clang >/dev/null 2>&1 || ! echo 'int LLVMFuzzerTestOneInput(const char*d,long n){return 0;}' |
	clang -fsanitize=fuzzer -x c - -o "$out/probe" 2>/dev/null; then
	mode=replay
	echo "note: clang with libFuzzer not found (apt-get install clang libclang-rt-14-dev): replaying the seeds once"
fi
if [ $mode = fuzz ]; then
	lib=build/cuda0-render0-fuzz/libattnprof.a
	make --no-print-directory CC=clang CUDA=0 RENDER=0 SAN=0 FUZZ=1 OPT=-O1 "$lib" >"$out/build-lib.log" 2>&1
else
	san=0
	echo 'int main(void){return 0;}' | cc -fsanitize=address,undefined -x c - -o "$out/probe" 2>/dev/null && san=1
	lib=build/cuda0-render0$( [ $san = 1 ] && echo -san)/libattnprof.a
	make --no-print-directory CUDA=0 RENDER=0 SAN=$san "$lib" >"$out/build-lib.log" 2>&1
fi || {
	echo "FAIL fuzz: the library does not build (see $out/build-lib.log)"
	echo "# fuzz: 0 passed, 1 failed, 0 skipped"
	exit 1
}
for target in spec results capture template; do
	corpus=tests/fuzz/corpus-$target
	mkdir -p "$corpus"
	case $target in
	spec) cp experiments/*.yaml tests/fixtures/specs/bad/*.yaml "$corpus"/ 2>/dev/null ;;
	results) cp tests/fixtures/results*.yaml tests/fixtures/results/*.yaml tests/fixtures/results/bad/*.yaml \
		tests/fixtures/capture*.yaml tests/fixtures/capture/*.yaml "$corpus"/ 2>/dev/null ;;
	# the long _ZL kernel name, tflops 1e308, the largest grid and shape, a 120-byte UTF-8 name
	capture) cp tests/fixtures/capture*.yaml tests/fixtures/capture/*.yaml "$corpus"/ 2>/dev/null ;;
	# the shipped templates and the bad ones (@N=nan, @N=-1, {table:}, variant: $v outside each_variant, …)
	template) cp templates/*.yaml tests/fixtures/templates/*.yaml tests/fixtures/template-*.yaml "$corpus"/ 2>/dev/null ;;
	esac
	dict=tests/fuzz/$target.dict
	[ -e "$dict" ] || dict=tests/fuzz/results.dict
	if [ $mode = fuzz ]; then
		build="clang -g -O1 -std=c11 -D_GNU_SOURCE -Isrc -Ikernels -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
	else
		build="cc -g -O1 -std=c11 -D_GNU_SOURCE -Isrc -Ikernels $( [ $san = 1 ] && echo -fsanitize=address,undefined -fno-sanitize-recover=undefined) tests/fuzz/replay.c"
	fi
	if ! $build -DATTNPROF_HAVE_RENDER=0 -DATTNPROF_HAVE_CUDA=0 -o "$out/fuzz_$target" tests/fuzz/fuzz_$target.c "$lib" -lyaml -lm \
		2>"$out/build-$target.log"; then
		echo "FAIL fuzz_$target: does not build (see $out/build-$target.log)"
		failed=$((failed + 1)); continue
	fi
	if [ $mode = replay ]; then
		if nice -n 19 "$out/fuzz_$target" "$corpus"/* >"$out/run-$target.log" 2>&1; then
			echo "ok   fuzz_$target: $(tail -1 "$out/run-$target.log"), no crash (seeds only)"
			passed=$((passed + 1))
		else
			echo "FAIL fuzz_$target: a seed crashed, see $out/run-$target.log"
			tail -20 "$out/run-$target.log"
			failed=$((failed + 1))
		fi
		continue
	fi
	# the per-input -timeout is a hang guard (an input parsed in a loop
	# without end), far above any input's time on a loaded machine, not a
	# speed check
	if nice -n 19 "$out/fuzz_$target" "$corpus" -max_total_time="$secs" -timeout=120 -rss_limit_mb=2048 \
		-max_len=1048576 -dict="$dict" -len_control=200 \
		-artifact_prefix=tests/fuzz/crash-$target- -print_final_stats=1 >"$out/run-$target.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/run-$target.log")
		echo "ok   fuzz_$target: ${runs:-?} inputs in ${secs}s, no crash"
		passed=$((passed + 1))
	else
		echo "FAIL fuzz_$target: crash or timeout, see $out/run-$target.log and tests/fuzz/crash-$target-*"
		tail -20 "$out/run-$target.log"
		failed=$((failed + 1))
	fi
done
echo "# fuzz: $passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
