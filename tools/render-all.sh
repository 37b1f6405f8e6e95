#!/bin/sh
# tools/render-all.sh — render every committed results file into reports/.
#
#   experiments/results/NAME.yaml -> reports/NAME/{review,patent,slides}.pdf
#                                    reports/NAME/figures/*.svg, *.png
#
# `make report` runs it after building.  With no results committed yet it
# renders the synthetic test fixture into reports/fixture/ and says so:
# those documents carry a "not measured" banner on every page.
# Environment: ATTNPROF (default ./attnprof), DPI (default 150).
set -u
bin=${ATTNPROF:-./attnprof}
dpi=${DPI:-150}
if ! "$bin" --version 2>/dev/null | grep -q "renderer: yes"; then
	echo "render-all: $bin was built without the renderer: run 'make deps' then 'make RENDER=1'" >&2
	exit 1
fi

set -- experiments/results/*.yaml
if [ ! -e "$1" ]; then
	echo "render-all: no results in experiments/results/ yet: rendering the synthetic fixture" \
	     "tests/fixtures/results-small.yaml into reports/fixture/ (NOT measurements)" >&2
	set -- tests/fixtures/results-small.yaml
fi

status=0
for results in "$@"; do
	name=$(basename "$results" .yaml)
	case "$results" in tests/fixtures/*) name=fixture ;; esac
	out=reports/$name
	mkdir -p "$out/figures"
	rm -f "$out"/figures/*.svg "$out"/figures/*.png
	for t in review patent slides; do
		figs=""
		# the figures of the review (colour) and of the patent sheets (black and white)
		case $t in review) figs="--figures-dir $out/figures --dpi $dpi" ;;
			   patent) mkdir -p "$out/figures/patent"; rm -f "$out"/figures/patent/*
				   figs="--figures-dir $out/figures/patent --dpi $dpi" ;; esac
		if "$bin" report "$results" -t "templates/$t.yaml" -o "$out/$t.pdf" -q $figs; then
			:
		else
			echo "render-all: failed: $results with templates/$t.yaml" >&2
			status=1
		fi
	done
done
exit $status
