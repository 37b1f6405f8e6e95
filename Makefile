# attnprof — build, test, render.
#
#   make                 build ./attnprof (GPU half if nvcc + CUPTI are found,
#                        renderer if Cairo + Pango are found)
#   make CUDA=0|1        force the GPU half (record, info's GPU part) out or in
#   make RENDER=0|1      force the renderer (report, figure) out or in
#   make SAN=1           ASan + UBSan build
#   make test            build and run every test (CI runs this)
#   make report          install missing packages (as root), build, render
#                        the committed results into reports/
#   make gpu-test        correctness of every variant on the GPU
#   make bench           benchmarks, printed, not asserted: render speed (tools/bench.sh)
#                        and the 200-shard merge (tools/bench_merge.py)
#   make fuzz            libFuzzer runs of the spec, results, capture-file and template
#                        readers, 10 min each (tests/fuzz/run.sh)
#   make install PREFIX=/usr/local
#
# CUDA and CUPTI are looked for, not assumed: CUDA_HOME, then nvcc on PATH;
# CUPTI under extras/CUPTI, targets/<arch>/lib, lib64 or lib.

VERSION    := 0.1.0
PREFIX     ?= /usr/local
CC         ?= cc
PKG_CONFIG ?= pkg-config
SAN        ?= 0
OPT        ?= -O2

# ---- locate CUDA and CUPTI ---------------------------------------------
NVCC_PATH  := $(shell command -v nvcc 2>/dev/null)
CUDA_HOME  ?= $(if $(NVCC_PATH),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC_PATH))),$(firstword $(wildcard /usr/local/cuda /usr/local/cuda-13.0 /usr/local/cuda-12*)))
NVCC       ?= $(firstword $(wildcard $(CUDA_HOME)/bin/nvcc) $(NVCC_PATH))
ARCH_DIR   := $(shell uname -m)-linux
find_dir    = $(patsubst %/$(2),%,$(firstword $(foreach d,$(1),$(wildcard $(d)/$(2)))))
CUDA_INC   := $(call find_dir,$(CUDA_HOME)/include $(CUDA_HOME)/targets/$(ARCH_DIR)/include,cuda_runtime_api.h)
CUDA_LIB   := $(call find_dir,$(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/$(ARCH_DIR)/lib $(CUDA_HOME)/lib,libcudart.so)
CUBLAS_LIB := $(call find_dir,$(CUDA_HOME)/lib64 $(CUDA_HOME)/targets/$(ARCH_DIR)/lib $(CUDA_HOME)/lib,libcublas.so)
CUPTI_INC  := $(call find_dir,$(CUDA_HOME)/extras/CUPTI/include $(CUDA_HOME)/include $(CUDA_HOME)/targets/$(ARCH_DIR)/include,cupti_range_profiler.h)
CUPTI_LIB  := $(call find_dir,$(CUDA_HOME)/extras/CUPTI/lib64 $(CUDA_HOME)/targets/$(ARCH_DIR)/lib $(CUDA_HOME)/lib64 $(CUDA_HOME)/lib,libcupti.so)

CUDA_FOUND := $(if $(and $(NVCC),$(CUDA_INC),$(CUDA_LIB),$(CUBLAS_LIB),$(CUPTI_INC),$(CUPTI_LIB)),1,0)
ifeq ($(origin CUDA),undefined)
  CUDA := $(CUDA_FOUND)
  ifeq ($(CUDA),0)
    $(info attnprof: CUDA toolkit or CUPTI not found: building without the GPU half ('record' will say so); set CUDA_HOME to build it)
  endif
endif
ifeq ($(CUDA)$(CUDA_FOUND),10)
  $(error CUDA=1 but the CUDA toolkit is incomplete: nvcc='$(NVCC)' cudart='$(CUDA_LIB)' cublas='$(CUBLAS_LIB)' cupti include='$(CUPTI_INC)' lib='$(CUPTI_LIB)'; set CUDA_HOME=/path/to/cuda)
endif

# ---- locate Cairo and Pango ----------------------------------------------
RENDER_PKGS := pangocairo cairo-pdf cairo-svg cairo-png
RENDER_FOUND := $(shell $(PKG_CONFIG) --exists $(RENDER_PKGS) 2>/dev/null && echo 1 || echo 0)
ifeq ($(origin RENDER),undefined)
  RENDER := $(RENDER_FOUND)
  ifeq ($(RENDER),0)
    $(info attnprof: Cairo/Pango development files not found: building without the renderer; 'make deps' installs them)
  endif
endif
ifeq ($(RENDER)$(RENDER_FOUND),10)
  $(error RENDER=1 but pkg-config cannot find $(RENDER_PKGS): run 'make deps' or apt-get install libcairo2-dev libpango1.0-dev)
endif

# ---- flags --------------------------------------------------------------
# FUZZ=1: the library instrumented for libFuzzer (clang; tests/fuzz/run.sh)
FUZZ       ?= 0
BUILD    := build/cuda$(CUDA)-render$(RENDER)$(if $(filter 1,$(SAN)),-san)$(if $(filter 1,$(FUZZ)),-fuzz)
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers
CPPFLAGS := -D_GNU_SOURCE -DATTNPROF_VERSION=\"$(VERSION)\" -DATTNPROF_HAVE_CUDA=$(CUDA) -DATTNPROF_HAVE_RENDER=$(RENDER) -Isrc -Ikernels
CFLAGS   ?= $(OPT) -g
# -fPIC: the same objects also make the injection library (libattnprof-inject.so)
CFLAGS   += -std=c11 $(WARN) -MMD -MP -fPIC
# STATIC_YAML=1 links libyaml statically, for a binary that runs on a
# machine without libyaml (the GPU machine: see docs/gpu-runs.md).
STATIC_YAML ?= 0
LIBYAML_A   ?= $(firstword $(wildcard /usr/lib/$(ARCH_DIR)-gnu/libyaml.a /usr/lib/libyaml.a))
LDLIBS   := $(if $(filter 1,$(STATIC_YAML)),$(LIBYAML_A),-lyaml) -lm
ifeq ($(SAN),1)
  # float-cast-overflow: a double too large for its int ((int)NaN, (int)1e20) aborts too;
  # -fsanitize=undefined leaves it out
  CFLAGS  += -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=undefined,float-cast-overflow
  LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
endif
ifeq ($(FUZZ),1)
  CFLAGS  += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
endif
ifeq ($(RENDER),1)
  CPPFLAGS += $(shell $(PKG_CONFIG) --cflags $(RENDER_PKGS))
  LDLIBS   += $(shell $(PKG_CONFIG) --libs $(RENDER_PKGS))
endif
# kernels/hopper/ uses sm_90a-only instructions (wgmma, setmaxnreg): its own arch
NVCC_ARCH ?= -gencode=arch=compute_90,code=sm_90
NVCCFLAGS ?= -O3 -std=c++17 $(NVCC_ARCH) -lineinfo -Xptxas -warn-spills -Xcompiler -fPIC
# KNOBS: -D settings of the kernels' compile-time knobs (kernels/tiles.h), seen
# by nvcc and by the C descriptors alike, for A/B builds (tools/bwd-variants.sh).
KNOBS ?=
CPPFLAGS += $(KNOBS)
ifeq ($(CUDA),1)
  # cupti_profiler_host.h includes <string>: an empty one lets C include it
  CPPFLAGS += -I$(CUDA_INC) -I$(CUPTI_INC) -Isrc/capture/cupti_compat
  # DT_RPATH, not RUNPATH: libcupti dlopens libnvperf_host, which RUNPATH does not cover.
  # Both CUPTI homes are on the rpath, so one binary runs on either layout.
  LDFLAGS  += -L$(CUDA_LIB) -L$(CUPTI_LIB) -Wl,--disable-new-dtags -Wl,-rpath,$(CUDA_LIB) -Wl,-rpath,$(CUPTI_LIB) \
	      -Wl,-rpath,$(CUDA_HOME)/targets/$(ARCH_DIR)/lib -Wl,-rpath,$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib
  LDLIBS   += -lcupti -lcublas -lcudart -lstdc++ -ldl -lpthread
endif

# ---- sources ------------------------------------------------------------
# src/capture/: the capture of other programs' attention calls.  Its range
# grammar, families, verdicts and merging build in every configuration; the
# CUPTI session, the GPU's conditions and the program runner are the GPU half,
# with src/gpu/ (the sweep driver and its fp64 checks, which run attnprof's
# own kernels).  src/capture/inject/ is the injection library's own source.
CAPTURE_GPU_SRC := $(addprefix src/capture/,conditions.c cupti.c cupti_host.c cupti_map.c program.c)
CORE_SRC   := $(wildcard src/util/*.c) $(filter-out $(CAPTURE_GPU_SRC),$(wildcard src/capture/*.c)) \
	      $(filter-out src/main.c,$(wildcard src/*.c)) kernels/variants.c kernels/paged.c
GPU_SRC    := $(CAPTURE_GPU_SRC) $(wildcard src/gpu/*.c)
GPU_CU     := $(wildcard kernels/*.cu) kernels/hopper/hopper_fwd.cu kernels/hopper/hopper_bwd.cu
# The document model (src/doc/: templates, values in text, the walk, tables
# as data) builds without Cairo; drawing (src/render/: PDF, SVG, PNG) needs it.
DOC_SRC    := $(wildcard src/doc/*.c)
RENDER_SRC := $(wildcard src/render/*.c)
LIB_SRC    := $(CORE_SRC) $(DOC_SRC) $(if $(filter 1,$(CUDA)),$(GPU_SRC)) $(if $(filter 1,$(RENDER)),$(RENDER_SRC))
LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o) $(if $(filter 1,$(CUDA)),$(GPU_CU:%.cu=$(BUILD)/%.o))
TEST_SRC   := $(wildcard tests/unit/test_*.c)
TEST_BIN   := $(TEST_SRC:%.c=$(BUILD)/%)

.PHONY: all deps report report-run test test-run other-build gpu-test fuzz bench install clean sass attnprof inject
all: attnprof $(if $(filter 1,$(CUDA)),inject)

# ./attnprof is always the binary of the configuration just asked for
# (phony: a copy from another configuration may be newer).
attnprof: $(BUILD)/attnprof
	@cmp -s $< $@ || cp $< $@

$(BUILD)/attnprof: $(BUILD)/src/main.o $(BUILD)/libattnprof.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The injection library `record -- CMD` puts into the program (src/capture/inject):
# libyaml linked in statically, so it loads where libyaml is not installed.
INJECT_LIBS := $(if $(LIBYAML_A),$(LIBYAML_A),-lyaml) -lm -lcupti -lcudart -lstdc++ -ldl -lpthread
inject: $(BUILD)/libattnprof-inject.so
	@cmp -s $< libattnprof-inject.so || cp $< libattnprof-inject.so

$(BUILD)/libattnprof-inject.so: $(BUILD)/src/capture/inject/inject.o $(BUILD)/libattnprof.a
	$(CC) -shared $(LDFLAGS) -Wl,--no-undefined -Wl,-soname,libattnprof-inject.so -o $@ $^ $(INJECT_LIBS)

$(BUILD)/libattnprof.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/kernels/hopper/%.o: NVCC_ARCH = -gencode=arch=compute_90a,code=sm_90a
$(BUILD)/kernels/%.o: kernels/%.cu $(wildcard kernels/*.h kernels/*.cuh kernels/hopper/*.h kernels/hopper/*.cuh)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(KNOBS) -Ikernels -Isrc -c -o $@ $<

$(BUILD)/tests/unit/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libattnprof.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Itests/unit $(LDFLAGS) -o $@ $< $(BUILD)/libattnprof.a $(LDLIBS)

# ---- the two README commands ----------------------------------------------
deps:
	@sh tools/deps.sh

# deps first, then a fresh make, so the packages it installed are detected.
report: deps
	@$(MAKE) --no-print-directory report-run

report-run: attnprof
	@sh tools/render-all.sh

test: deps
	@$(MAKE) --no-print-directory test-run

# The other configuration is compiled too, so neither #if branch rots.
# The kill loop: 40 SIGKILLs a writer in the release build (issue 33's bar),
# 8 under the sanitizers, where each round costs several times as much.
test-run: all $(TEST_BIN) other-build
	@KILL_ROUNDS=$${KILL_ROUNDS:-$(if $(filter 1,$(SAN)),8,40)} sh tests/run.sh $(BUILD)

# There the document model and the figure builders are tested without Cairo.
OTHER := build/cuda0-render0$(if $(filter 1,$(SAN)),-san)
other-build:
	@$(MAKE) --no-print-directory CUDA=0 RENDER=0 SAN=$(SAN) $(OTHER)/attnprof $(OTHER)/tests/unit/test_docmodel $(OTHER)/tests/unit/test_figdesc $(OTHER)/tests/unit/test_figpatent $(OTHER)/tests/unit/test_figdata >/dev/null
	@for t in test_docmodel test_figdesc test_figpatent test_figdata; do $(OTHER)/tests/unit/$$t >$(OTHER)/$$t.out 2>&1 || { cat $(OTHER)/$$t.out; echo "FAIL $$t in the RENDER=0 build"; exit 1; }; done

gpu-test: attnprof
	@sh tests/gpu-test.sh

# speed is a benchmark, not a test: numbers printed, nothing asserted (render
# speed; the merge of a 200-shard fa2-paper sweep, goal under 1 s per 1000 records)
bench: attnprof
	@sh tools/bench.sh ./attnprof
	@python3 tools/bench_merge.py ./attnprof

# each target at least 10 minutes (tests/fuzz/run.sh; 'make test' runs 10 s)
FUZZ_SECONDS ?= 600
fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

sass: $(if $(filter 1,$(CUDA)),$(GPU_CU:%.cu=$(BUILD)/%.o))
	@for o in $^; do echo "== $$o"; cuobjdump --dump-sass $$o | grep -oE '\b(HMMA|HGMMA|LDSM|LDGSTS|LDL|STL|FFMA|MUFU)[.A-Z0-9]*' | sort | uniq -c | sort -rn | head -20; done

install: attnprof
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/attnprof/templates $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 attnprof $(DESTDIR)$(PREFIX)/bin/attnprof
	$(if $(filter 1,$(CUDA)),install -d $(DESTDIR)$(PREFIX)/lib/attnprof && install -m 755 libattnprof-inject.so $(DESTDIR)$(PREFIX)/lib/attnprof/)
	install -d $(DESTDIR)$(PREFIX)/share/attnprof/python/attnprof_hook
	install -m 644 src/capture/python/sitecustomize.py src/capture/python/attnprof_results.py $(DESTDIR)$(PREFIX)/share/attnprof/python/
	install -m 644 src/capture/python/attnprof_hook/*.py $(DESTDIR)$(PREFIX)/share/attnprof/python/attnprof_hook/
	install -m 644 templates/*.yaml $(DESTDIR)$(PREFIX)/share/attnprof/templates/
	install -m 644 docs/attnprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/attnprof.1

clean:
	rm -rf build attnprof libattnprof-inject.so

-include $(LIB_OBJ:.o=.d) $(BUILD)/src/main.d $(BUILD)/src/capture/inject/inject.d
