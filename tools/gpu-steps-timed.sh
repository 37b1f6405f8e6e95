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
