#!/bin/sh
# tools/bwd-variants.sh NAME:FLAGS ... — builds of test_bwd_gpu that differ
# only in the backward kernel's compile-time knobs (kernels/tiles.h), for an
# A/B in one device call (docs/gpu-runs.md: several builds packed).
#
#   sh tools/bwd-variants.sh main: qk1:-DFLASH_BWD_QK_UNROLL=1 dq2:-DFLASH_BWD_DQ_UNROLL=2
#
# Each is built from the committed tree (git archive HEAD) in its own folder
# under /tmp, with the flags as the Makefile's KNOBS (nvcc and the C
# descriptors see them alike); ptxas's registers and
# spills for flash_bwd are printed; the binaries land in .gpu/bwdvar/NAME/
# and are packed into .gpu/pack/bwdvar.tar.xz.  On the device:
#
#   tar -C .gpu -xJf .gpu/pack/bwdvar.tar.xz && OUT=$OUT sh tools/gpu-run.sh bwdvariants
set -eu
root=$(pwd)
base="-O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -lineinfo -Xptxas -warn-spills -Xcompiler -fPIC"
rm -rf .gpu/bwdvar && mkdir -p .gpu/bwdvar .gpu/pack
for item in "$@"; do
	name=${item%%:*} flags=${item#*:}
	src=/tmp/attnprof-bwdvar-$name
	rm -rf "$src" && mkdir -p "$src"
	git archive HEAD | tar -x -C "$src"
	echo "== $name: ${flags:-(the committed knobs)}"
	(cd "$src" && make CUDA=1 RENDER=0 STATIC_YAML=1 NVCCFLAGS="$base -Xptxas -v" KNOBS="$flags" -j2 \
		build/cuda1-render0/tests/unit/test_bwd_gpu >build.log 2>&1) || { tail -20 "$src/build.log"; exit 1; }
	grep -E "Compiling entry|spill|Used" "$src/build.log" | grep -A2 "flash_bwdI6__half" |
		sed -E 's/.*flash_bwdI6__halfLi([0-9]+).*/   fp16 d=\1/; s/ptxas info *: //' | paste - - - || true
	mkdir -p ".gpu/bwdvar/$name"
	cp "$src/build/cuda1-render0/tests/unit/test_bwd_gpu" ".gpu/bwdvar/$name/"
	echo "$flags" >".gpu/bwdvar/$name/flags"
	rm -rf "$src"
done
tar -C .gpu -cJf .gpu/pack/bwdvar.tar.xz bwdvar
ls -la .gpu/pack/bwdvar.tar.xz
