#!/bin/sh
# tests/fuzz/run.sh [SECONDS] — build the libFuzzer targets with clang
# (ASan + UBSan) and run each for SECONDS (default 30) on a corpus seeded
# from the shipped specs and fixtures, with inputs up to 1 MB and a
# dictionary of the format's keys and values (tests/fuzz/*.dict), at nice 19
# so a long run does not take the cores from builds.  'make fuzz' runs each
# target 10 minutes (FUZZ_SECONDS).  Prints one summary line per target
# and a final "N passed, N failed, N skipped"; a crash leaves its input in
# tests/fuzz/crash-*.
secs=${1:-30}
cd "$(dirname "$0")/../.."
out=build/fuzz
passed=0 failed=0 skipped=0
if ! command -v clang >/dev/null 2>&1 || ! echo 'int LLVMFuzzerTestOneInput(const char*d,long n){return 0;}' |
	clang -fsanitize=fuzzer -x c - -o /tmp/attnprof-fuzz-probe 2>/dev/null; then
	echo "skip fuzz: clang with libFuzzer not found (apt-get install clang libclang-rt-14-dev)"
	echo "# fuzz: 0 passed, 0 failed, 2 skipped"
	exit 0
fi
mkdir -p "$out"
src="src/util/error.c src/util/file.c src/util/ustr.c src/util/yamltree.c src/util/yamlout.c src/spec.c src/results.c src/export.c src/metric_sets.c kernels/variants.c"
flags="-g -O1 -std=c11 -D_GNU_SOURCE -DATTNPROF_VERSION=\"fuzz\" -Isrc -Ikernels -fsanitize=fuzzer,address,undefined"
for target in spec results; do
	corpus=tests/fuzz/corpus-$target
	mkdir -p "$corpus"
	if [ $target = spec ]; then
		cp experiments/*.yaml tests/fixtures/specs/bad/*.yaml "$corpus"/ 2>/dev/null
	else
		# with the capture files and the hostile cases of issues 33 and 34 as seeds
		cp tests/fixtures/results*.yaml tests/fixtures/results/*.yaml tests/fixtures/results/bad/*.yaml \
			tests/fixtures/capture*.yaml tests/fixtures/capture/*.yaml "$corpus"/ 2>/dev/null
	fi
	if ! clang $flags -o "$out/fuzz_$target" tests/fuzz/fuzz_$target.c $src -lyaml -lm 2>"$out/build-$target.log"; then
		echo "FAIL fuzz_$target: does not build (see $out/build-$target.log)"
		failed=$((failed + 1)); continue
	fi
	# inputs up to 1 MB (a spec's limit; results files get larger, but the
	# parser's paths are the same), the format's words as a dictionary; the
	# per-input -timeout is a hang guard (an input parsed in a loop without
	# end), far above any input's time on a loaded machine, not a speed check
	if nice -n 19 "$out/fuzz_$target" "$corpus" -max_total_time="$secs" -timeout=120 -rss_limit_mb=2048 \
		-max_len=1048576 -dict=tests/fuzz/$target.dict -len_control=200 \
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
