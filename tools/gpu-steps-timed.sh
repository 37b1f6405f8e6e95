#!/bin/sh
# tools/gpu-steps-timed.sh SECONDS:STEP ... — tools/gpu-run.sh steps, each
# under its own time limit, so one step that hangs costs its limit and no
# more (the device call's results so far still come back).  A step that
# runs out of time is killed with its children and reported.
OUT=${OUT:-out}
export OUT
for item in "$@"; do
	secs=${item%%:*} step=${item#*:}
	setsid sh tools/gpu-run.sh "$step" &
	pid=$!
	( sleep "$secs"; kill -KILL -"$pid" 2>/dev/null ) &
	watchdog=$!
	wait "$pid"; rc=$?
	kill "$watchdog" 2>/dev/null
	if [ $rc -eq 137 ]; then
		echo "== step $step: killed after $secs s" | tee -a "$OUT/gpu-run.log"
	fi
done
# At most 8 files come back from a call: when there are more, everything
# but the log goes into one archive (2026-12-02 08:06: eleven files, three
# results files among the ones left behind, lost).
n=$(find "$OUT" -maxdepth 1 -type f | wc -l)
if [ "$n" -gt 8 ]; then
	# the archive is written outside $OUT (tar in $OUT itself: "file changed as
	# we read it", exit 1, nothing removed; 2026-12-02 18:21 lost the log so)
	tmp=$(mktemp /tmp/all-results.XXXXXX.tar.gz)
	(cd "$OUT" && tar -czf "$tmp" --exclude=gpu-run.log . &&
		find . -mindepth 1 -maxdepth 1 ! -name gpu-run.log -exec rm -rf {} + && mv "$tmp" all-results.tar.gz)
	echo "== $n files packed into all-results.tar.gz (at most 8 come back)" | tee -a "$OUT/gpu-run.log"
fi
