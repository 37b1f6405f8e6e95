#!/bin/sh
# tools/deps.sh — install the Debian packages attnprof needs to build,
# render and test.  As root it installs what is missing; otherwise it prints
# the exact apt-get line and stops (exit 1).  The CUDA toolkit is not a
# Debian package: without it the build leaves the GPU half out by itself.
set -e
need="gcc make pkg-config libyaml-dev libcairo2-dev libpango1.0-dev fonts-dejavu-core \
poppler-utils python3 clang libclang-rt-14-dev"
missing=""
for p in $need; do
	# dpkg-query prints "install ok installed" for a package that is present.
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
		missing="$missing $p"
	fi
done
# Chromium only runs the browser tests (tests/browser/run.sh): where it
# cannot be installed they are skipped, and nothing else fails for it.
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-headless-shell >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		echo "attnprof: installing chromium (for the browser tests)" >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 ||
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1; } ||
			echo "attnprof: chromium could not be installed: the browser tests will be skipped" >&2
	else
		echo "attnprof: no chromium: the browser tests will be skipped (sudo apt-get install chromium)" >&2
	fi
fi
if [ -z "$missing" ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "attnprof: missing Debian packages:$missing" >&2
	echo "attnprof: install them with:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "attnprof: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends$missing >/dev/null
