#!/bin/sh
# tests/browser/run.sh — every committed HTML document (git ls-files
# 'reports/*.html') opened in headless Chromium by tests/browser/check.py,
# and a page broken on purpose (tests/fixtures/browser-broken) refused on each
# of its four breaks, and a figure whose alt text lost its numbers
# (tests/fixtures/browser-broken/no-numbers.html) on that check, so the checks can fail.  Without Chromium (tools/deps.sh
# installs Debian's chromium where it can) the step is skipped and says so.
# Last line: "N passed, N failed, N skipped".
browser=""
for b in chromium chromium-headless-shell chromium-browser; do
	command -v "$b" >/dev/null 2>&1 && { browser=$b; break; }
done
if [ -z "$browser" ] || ! command -v python3 >/dev/null 2>&1; then
	echo "skip browser: skipped: no chromium (apt-get install chromium; tools/deps.sh tries it as root)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
pages=$(git ls-files 'reports/*.html' 2>/dev/null)
[ -n "$pages" ] || pages=$(find reports -name '*.html' | sort)
# shellcheck disable=SC2086 # one argument per page
out=$(python3 tests/browser/check.py "$browser" $pages 2>&1); rc=$?
printf '%s\n' "$out" | grep -v '^ok '
set -- $(printf '%s\n' "$out" | sed -n 's/^# browser: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p')
passed=${1:-0} failed=${2:-1}
[ $rc -eq 0 ] || [ "$failed" -gt 0 ] || failed=1
neg=$(python3 tests/browser/check.py "$browser" tests/fixtures/browser-broken/broken.html 2>&1)
n=$(printf '%s\n' "$neg" | grep -c '^FAIL ')
if [ "$n" -eq 4 ]; then
	echo "ok   the broken page fails its 4 checks (dangling link, alt = file name, console error, blank figure)"
	passed=$((passed + 1))
else
	printf '%s\n' "$neg"
	echo "FAIL the broken page failed $n checks, not 4"
	failed=$((failed + 1))
fi
# a figure whose alt text names it but lost its data table's numbers: that check alone fails
neg=$(python3 tests/browser/check.py "$browser" tests/fixtures/browser-broken/no-numbers.html 2>&1)
if [ "$(printf '%s\n' "$neg" | grep -c '^FAIL ')" -eq 1 ] && printf '%s\n' "$neg" | grep -q "^FAIL .*alt lacks .*value 245 TFLOP/s"; then
	echo "ok   a figure's alt text without its data table's numbers fails that check alone"
	passed=$((passed + 1))
else
	printf '%s\n' "$neg"
	echo "FAIL the page whose alt text lacks its figure's numbers was not refused on that check alone"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
