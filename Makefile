# timersim - GNU make build.
#
#   make run         install what is missing, build, replay the bundled trace
#   make lab         the lab's quick build, build/lab/timersim (lab, step,
#                    view, replay of text traces), installing only a
#                    compiler and four header/library packages
#   make check-lab   make lab, then the lab build against the full one
#                    (scripts/check-lab-build.sh; CI runs it)
#   make web         the browser lab, build/web/index.html (one page, the lab's
#                    sources built to WebAssembly by Debian's emscripten;
#                    objects under build/web-obj)
#   make check-web   make web, then the wasm lab against the native one under
#                    node (every kind x 1000 seeds, every fixed exercise) and
#                    the page in headless Chromium (minutes: not in make test)
#   make lab-dist    a student's copy, build/timersim-lab.tar.gz: the lab's
#                    sources and handbook (and the browser lab, when built),
#                    no instructor material (scripts/lab-dist.sh)
#   make test        install what is missing, build, run every test
#   make check-asan  the same tests, built with AddressSanitizer + UBSan
#   make bench       Google Benchmark benches, JSON under build/bench/
#   make fuzz        libFuzzer targets (readers, option parser), FUZZ_SECONDS each
#   make fuzz-ci     the same, 45 s each, from the kept corpus (CI runs it)
#   make soak        shared traces x schemes x options under ASan, SOAK_SECONDS
#   make bench-replay  replay MB/s and peak memory on a generated 1 GB trace
#   make calibrate   ns per cost unit per scheme -> build/calibration.json
#   make results     the classic vs v48 table of docs/results (minutes)
#   make cost-model  the softirq-run cost model, fitted and checked on recordings
#   make report-digests  tests/data/report-digests.txt from this build's
#                    reports (when a change means to change one)
#   make results-check  fails when docs/results differ from what the code
#                    computes (CI runs it; about a minute)
#   make test-engines   a sweep on a real single-node Slurm and on GNU parallel
#                    over ssh to this machine equals the local run (CI; root)
#   make python      `import timersim` (docs/python.md): the module in
#                    build/python/timersim (PYTHONPATH=build/python), its
#                    library compiled position-independent under build/python
#   make notebook    docs/timersim-pandas.ipynb executed (nbconvert), through
#                    the module; make test runs it too
#   make install     build/timersim to $(DESTDIR)$(PREFIX)/bin, the scripts it
#                    runs to share/timersim, the man page timersim.1 to
#                    share/man/man1, the Python module to Debian's
#                    python3's site-packages (PREFIX=/usr/local; DESTDIR for
#                    packaging)
#
# Out-of-tree build in $(BUILD); header dependencies come from -MMD.
# Sources are found by wildcard: a new file in kernel/, sim/, tests/unit/,
# tests/bench/ or tests/fuzz/ needs no edit here (a kernel/ or sim/ one
# joins a unit of its folder: see LIB_UNITS).

BUILD    ?= build
PREFIX   ?= /usr/local
DESTDIR  ?=
SANITIZE ?=
V        ?=
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)

Q := $(if $(V),,@)

# ccache when present: a rebuild of unchanged sources (a fresh clone, another
# worktree) costs nothing.
CCACHE   := $(shell command -v ccache 2>/dev/null)
CXX      := $(if $(CCACHE),$(CCACHE) ,)g++
# Paths under the checkout hashed relative to it, and the working directory
# left out of the hash: a fresh clone elsewhere (CI's) reuses the objects of
# this one. (Debug info then names the directory that compiled it first.)
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
CXXSTD   := -std=c++20
WARN     := -Wall -Wextra -Werror
# No debug information by default: it makes the compile a third longer
# (CLI11's unit above all) and a user's run needs none (perf still names
# functions). DEBUG=1 adds -g; the ASan build has it.
DEBUG    ?=
OPT      := -O2 $(if $(DEBUG),-g)
SANFLAGS :=
ifneq ($(SANITIZE),)
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined
OPT      := -O1 -g -fno-omit-frame-pointer $(SANFLAGS)
# GCC 12 warns of uninitialized members inside libstdc++'s <regex> when
# sanitizers instrument it (false positives, GCC's own documentation warns
# of them): not our code's, and -Werror would stop the build.
WARN     += -Wno-maybe-uninitialized
endif

# The lab build (LAB=1, which `make lab` sets, into $(BUILD)/lab): -Og, not
# -O2, for a build a student waits for: -Og compiles in about two thirds of
# -O2's time (docs/lab, "Quick start"), and the lab's commands run in
# milliseconds either way. -Og's flow analysis is coarser: its
# maybe-uninitialized warnings are false positives as under the sanitizers.
LAB      ?=
ifneq ($(LAB),)
OPT      := -Og
WARN     += -Wno-maybe-uninitialized
endif

# The position-independent build (PIC=1, which `make python` sets, into
# $(BUILD)/python): the library and tools/ linked into the Python module
# (a shared object). -fno-semantic-interposition keeps the calls between
# our own functions direct and inlinable, as in the executable's -fPIE code.
PIC      ?=
ifneq ($(PIC),)
OPT      += -fPIC -fno-semantic-interposition
endif

# Libraries, all through pkg-config. Their headers are system headers to us:
# -isystem keeps -Werror about our own code only.
LIB_PKGS  := zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto
TEST_PKGS := check
BENCH_PKGS := benchmark
# The lab build reads text traces only (plain or gzip): zlib, and fmt for
# the report.
ifneq ($(LAB),)
LIB_PKGS  := zlib fmt
endif
pkg_cflags = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags $(1) 2>/dev/null))
pkg_libs   = $(shell pkg-config --libs $(1) 2>/dev/null)

# {fmt} is compiled into the few sources that format with it (its
# header-only mode), not linked: with libstdc++ and libgcc linked statically
# into the binary (below) a run then loads no C++ runtime library at all.
CPPFLAGS := -I. -MMD -MP -DFMT_HEADER_ONLY
CXXFLAGS := $(CXXSTD) $(WARN) $(OPT) $(call pkg_cflags,$(LIB_PKGS))
# libtracecmd and libtraceevent are loaded when a trace.dat first needs them
# (sim/trace/libtracecmd_load.h), not linked: the hooks they must call
# (sim/trace/libtracecmd_hooks.cc) are exported by name.
HOOK_EXPORTS := $(foreach s,tep_vprint tep_parse_event tep_parse_kallsyms kbuffer_load_subbuffer,\
                  -Wl,--export-dynamic-symbol=$(s))
LDFLAGS  := $(SANFLAGS) $(HOOK_EXPORTS)
# Headers only of the libraries opened at run time: libcrypto (sim/sweep/
# digest.cc, when a sweep first hashes) and libtracecmd's two. Linked, every
# run would pay for loading them, a fixed cost a small replay notices.
RUNTIME_PKGS := libcrypto libtracecmd libtraceevent
LIBS     := $(call pkg_libs,$(filter-out $(RUNTIME_PKGS) fmt,$(LIB_PKGS)))
# The binary without libbabeltrace too: only the tests read CTF through it
# (sim/trace/ctf_babeltrace.cc, a unit of its own that the binary never
# pulls from the archive).
# libstdc++ and libgcc are linked in statically: the dynamic linker's
# loading and relocating them would be a large share of a short run's
# start-up. Not under the sanitizers: their operator new and delete
# must be the ones called.
# ncursesw: `timersim top`'s terminal UI (tools/top_ui.cc).
TIMERSIM_LIBS := $(call pkg_libs,$(filter-out $(RUNTIME_PKGS) fmt babeltrace babeltrace-ctf,$(LIB_PKGS))) \
                 $(if $(LAB),,$(call pkg_libs,ncursesw)) \
                 $(if $(SANFLAGS),,-static-libstdc++ -static-libgcc)

KERNEL_SRCS := $(sort $(wildcard kernel/*.cc))
SIM_SRCS    := $(sort $(shell find sim -name '*.cc' 2>/dev/null))
SUPPORT_SRCS := $(sort $(wildcard tests/support/*.cc))
UNIT_SRCS   := $(sort $(wildcard tests/unit/*.cc))
BENCH_SRCS  := $(sort $(wildcard tests/bench/*.cc))
FUZZ_SRCS   := $(sort $(wildcard tests/fuzz/*.cc))
TOOL_SRCS   := $(sort $(wildcard tools/*.cc))

# The lab build: what an OS-course lab needs and no more -- the lab, step
# and view commands and replay of text traces. It leaves out the binary
# trace readers (trace.dat: ours and libtracecmd's; CTF: ours and
# libbabeltrace's; tools/lab/binary_readers_left_out.cc refuses those files
# instead, naming the full build), the generator, sweeps and estimates, and
# the subcommands that use them (tools/lab/app.cc stands in for
# tools/app.cc). A source left out that the lab comes to need
# is an undefined reference at its link (make check-lab links it).
ifneq ($(LAB),)
LAB_LEFT_OUT := sim/gen/% sim/sweep/% sim/estimate/% sim/trace/trace_dat% \
                sim/trace/ctf% sim/trace/libtracecmd% sim/trace/binary_% sim/trace/stderr_capture.cc \
                sim/trace/live_% sim/trace/tep_decode.cc
SIM_SRCS    := $(filter-out $(LAB_LEFT_OUT),$(SIM_SRCS)) tools/lab/binary_readers_left_out.cc
TOOL_SRCS   := tools/main.cc tools/dispatch.cc tools/numbers.cc tools/suggest.cc tools/trace_options.cc \
               tools/cmd_replay.cc tools/cmd_lab.cc tools/cmd_step.cc tools/cmd_view.cc \
               tools/lab/app.cc
endif

# The browser lab (WEB=1 with LAB=1, which `make web` sets, into
# $(BUILD)/web-obj): the lab build's sources compiled by em++ (Debian's
# emscripten), no library linked: {fmt} and nlohmann's JSON are header-only
# (their Debian headers through $(BUILD)/include, not /usr/include, whose C
# library is not emscripten's), and zlib's header is tools/web/zlib's: the
# page reads text, never a file, so no gzip stream is ever opened. -Os:
# the page and its wasm must stay within 3 MB. wasm-ld drops what the
# lab's API (tools/web/lab_api.cc) does not reach.
# Only the floors the lab's API reaches are compiled (the trace readers,
# the replay and the rest would be minutes of em++ for code wasm-ld drops);
# a source the lab comes to need is an undefined symbol at the link.
WEB      ?=
ifneq ($(WEB),)
WEB_KEPT := kernel/% sim/base/% sim/lab/% sim/scheme/% sim/output/% sim/view/% sim/report/% \
            sim/trace/line_source.cc sim/trace/names.cc
SIM_SRCS := $(filter-out sim/lab/trace_window.cc tools/%,$(filter $(WEB_KEPT),$(SIM_SRCS)))
CXX      := $(if $(CCACHE),$(CCACHE) ,)em++
AR       := emar
CPPFLAGS += -isystem $(BUILD)/include -isystem tools/web/zlib
CXXFLAGS := $(CXXSTD) -Wall -Wextra -Werror -Os -fexceptions
LDFLAGS  :=
# emcc runs node scripts that need Debian's acorn module.
export NODE_PATH := /usr/share/nodejs
endif

obj = $(patsubst %.cc,$(BUILD)/obj/%.o,$(1))

LIB         := $(BUILD)/libtimersim.a
TIMERSIM    := $(BUILD)/timersim
# The PIC build's $(BUILD)/timersim is the Python package's folder.
ifneq ($(PIC),)
TIMERSIM    := $(BUILD)/bin/timersim
endif

# tools/ is compiled as one unit that #includes every tools/*.cc: CLI11's
# header (header-only in Debian, about 8 s of compile) is then parsed once
# instead of once per subcommand file. A tools/ file therefore names its
# file-local helpers apart from the other tools/ files' (the unit fails to
# compile otherwise). The list is rewritten only when it changes.
TOOLS_UNITY := $(BUILD)/gen/tools_unity.cc
hash        := \#
TOOLS_UNITY_TEXT := $(foreach f,$(TOOL_SRCS),$(hash)include "$(f)"\n)
TOOL_OBJS   := $(BUILD)/obj/gen/tools_unity.o
SUPPORT_OBJS := $(call obj,$(SUPPORT_SRCS))
# kernel/ and sim/ are compiled as unity units too, each #including the
# sources of a folder (or of a part of one) and parsing the headers they
# share once: from a fresh clone, build/timersim cost about 400 s of CPU
# with a unit per library source and 200 s so (ccache off, a loaded 2-core
# machine); about half had been the same headers parsed again. A unit below
# is a list of sources (make patterns; `dir/%` takes what the folder's other
# units leave; a source named by none, e.g. a new folder's, goes to a unit of
# its folder), listed from the longest compile (about 15 s) to the shortest:
# make -j starts them in this order beside tools/ (about 27 s), so that the
# two cores finish together. Sources in one unit share their file-local
# names: alike ones (two anonymous namespaces' `make`) fail to compile, and
# a file-local overload could change which function another file's call
# picks, so files with such names go to different units (or name them
# apart). The LAB=1 build makes its units of the sources it keeps. The fuzz
# targets (scripts/fuzz.sh) and `make freestanding` still compile single
# sources.
LIB_UNITS   := sweep lab_kinds trace_ctf replay stream base scheme_classic lab_wheels trace_text \
               lab_steps scheme_v48 measured gen trace_dat hrtimer output report \
               ticks_whatif view_page view_scenario trace_babeltrace kernel
unit_sweep          := sim/sweep/%
# lab: hr_step.cc has its own num() overloads, which lab::num (explain.h)
# would make ambiguous; classic_ and v48_lab_wheel.cc share local names.
unit_lab_wheels     := sim/lab/v48_lab_wheel.cc sim/lab/trace_window.cc sim/lab/step.cc sim/lab/explain.cc
unit_lab_kinds      := sim/lab/classic_lab_wheel.cc sim/lab/exercise.cc sim/lab/kind_%
unit_lab_steps      := sim/lab/%
# trace: ctf.cc, trace_dat.cc and trace_dat_libtracecmd.cc apart; so
# ftrace_text.cc, perf_script.cc and trace_cmd_report.cc; line_source.cc
# and open.cc; ctf_metadata.cc and ctf_packets.cc; trace_dat_pages.cc and
# libtracecmd_hooks.cc; ftrace_fast.cc and text_fields.cc;
# ftrace_fast_payload.cc and text_fields.cc (take_value). ctf_babeltrace.cc
# alone: the binary leaves it out (TIMERSIM_LIBS). trace_ctf takes the rest.
unit_trace_dat      := sim/trace/trace_dat.cc sim/trace/trace_dat_file.cc sim/trace/trace_dat_kallsyms.cc \
                       sim/trace/trace_dat_pages.cc sim/trace/ctf_packets.cc sim/trace/trace_cmd_report.cc \
                       sim/trace/stderr_capture.cc sim/trace/huge_pages.cc sim/trace/ftrace_fast_payload.cc
unit_trace_babeltrace := sim/trace/ctf_babeltrace.cc
unit_trace_text     := sim/trace/trace_dat_libtracecmd.cc sim/trace/libtracecmd_hooks.cc \
                       sim/trace/ftrace_text.cc sim/trace/ftrace_fast.cc sim/trace/line_source.cc \
                       sim/trace/small_input.cc sim/trace/text_reader.cc
unit_trace_ctf      := sim/trace/%
# scheme: classic.cc and v48.cc apart, hashed.cc and kafka.cc too.
unit_scheme_classic := sim/scheme/classic.cc sim/scheme/hashed.cc sim/scheme/heap.cc sim/scheme/lists.cc \
                       sim/scheme/params.cc
unit_scheme_v48     := sim/scheme/%
unit_gen            := sim/gen/%
unit_replay         := sim/replay/%
unit_stream         := sim/stream/%
unit_base           := sim/base/%
# view: view_page.cc and view_scenario.cc apart; view_scenario.cc's
# `using namespace lab` last in its unit.
unit_view_scenario  := sim/view/view_hrlane.cc sim/view/view_hrlane_script.cc sim/view/view_scenario.cc
unit_view_page      := sim/view/%
unit_report         := sim/report/%
unit_output         := sim/output/%
unit_hrtimer        := sim/hrtimer/%
# Small folders together where that saved CPU (the headers they share).
unit_measured       := sim/measured/% sim/estimate/%
unit_ticks_whatif   := sim/ticks/% sim/whatif/%
unit_kernel         := kernel/%

# Each source to the unit that names it, a folder's catch-all (`dir/%`)
# taking what the folder's other units leave; the rest to units by folder.
unit_left := $(KERNEL_SRCS) $(SIM_SRCS)
define take_unit
unit_$(1)_srcs := $$(filter $$(unit_$(1)),$$(unit_left))
unit_left := $$(filter-out $$(unit_$(1)_srcs),$$(unit_left))
endef
unit_catch_all = $(filter %/%,$(unit_$(1)))
$(foreach u,$(LIB_UNITS),$(if $(call unit_catch_all,$(u)),,$(eval $(call take_unit,$(u)))))
$(foreach u,$(LIB_UNITS),$(if $(call unit_catch_all,$(u)),$(eval $(call take_unit,$(u)))))
unit_dir_name = $(subst /,_,$(patsubst %/,%,$(1)))
$(foreach d,$(sort $(dir $(unit_left))),$(eval LIB_UNITS += dir_$(call unit_dir_name,$(d))) \
	$(eval unit_dir_$(call unit_dir_name,$(d))_srcs := $(foreach f,$(unit_left),$(if $(filter $(d),$(dir $(f))),$(f)))))
# Units left empty (the LAB=1 build leaves out whole units) are dropped.
LIB_UNITS   := $(foreach u,$(LIB_UNITS),$(if $(unit_$(u)_srcs),$(u)))
LIB_OBJS    := $(foreach u,$(LIB_UNITS),$(BUILD)/obj/gen/lib_$(u).o)
# Written when the Makefile is read (as the tools/ unit below), and only
# when its list changes: an unchanged unit is not rebuilt.
write_unit = $(shell mkdir -p $(BUILD)/gen && \
	printf '$(foreach f,$(unit_$(1)_srcs),$(hash)include "$(f)"\n)' | sed 's/^ //' >$(BUILD)/gen/lib_$(1).cc.tmp && \
	if cmp -s $(BUILD)/gen/lib_$(1).cc.tmp $(BUILD)/gen/lib_$(1).cc; then rm $(BUILD)/gen/lib_$(1).cc.tmp; \
	else mv $(BUILD)/gen/lib_$(1).cc.tmp $(BUILD)/gen/lib_$(1).cc; fi)

UNIT_BINS   := $(patsubst tests/unit/%.cc,$(BUILD)/tests/%,$(UNIT_SRCS))
# The Python module's tests (tests/python/, make test runs them against
# $(BUILD)/python; check-asan does not: the module is not built there).
PY_TEST_FILES := $(sort $(wildcard tests/python/test_*.py))
PY_TESTS    ?=
BENCH_BINS  := $(patsubst tests/bench/%.cc,$(BUILD)/bench/%,$(BENCH_SRCS))

DEFAULT_TRACE := tests/data/default-trace.txt.gz

.PHONY: python _python notebook all deps run test check-asan bench bench-replay calibrate results results-check test-engines report-digests \
        cost-model fuzz fuzz-ci soak freestanding clean \
        install lab check-lab lab-dist web check-web _build _test _bench _fuzz _install

all: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) _build

# Every public target installs first, then re-enters make so that the
# pkg-config look-ups above see the freshly installed packages.
deps:
	@echo "timersim: checking the Debian packages (scripts/setup.sh)"
	$(Q)scripts/setup.sh

# The bundled trace through the recording kernel's own wheel (with its
# fidelity), then that wheel and the classic cascading one side by side.
run: deps
	@echo "timersim: building $(TIMERSIM) ($(words $(KERNEL_SRCS) $(SIM_SRCS)) library sources in $(words $(LIB_UNITS)) units, tools/ as one, -j$(JOBS))"
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) _build
	@echo "timersim: replaying $(DEFAULT_TRACE)"
	$(Q)$(TIMERSIM) replay --top 5 $(DEFAULT_TRACE)
	$(Q)echo
	$(Q)$(TIMERSIM) compare --schemes auto,classic $(DEFAULT_TRACE)

# Installs only what the lab build needs (scripts/setup.sh --lab), then
# builds it: build/lab/timersim, objects of its own under build/lab.
lab:
	@echo "timersim: checking the Debian packages the lab needs (scripts/setup.sh --lab)"
	$(Q)scripts/setup.sh --lab
	@echo "timersim: building $(BUILD)/lab/timersim (the lab's sources, -Og, -j$(JOBS))"
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/lab LAB=1 _build
	@echo "timersim: built $(BUILD)/lab/timersim (text traces only; \`make\` builds the full $(TIMERSIM))"

# The lab build against the full one: the libraries it links, the same
# output for the lab's commands, the refusal of trace.dat and CTF. Not in
# make test: the lab build compiles its sources again (-Og), minutes of CPU.
check-lab: lab all
	$(Q)scripts/check-lab-build.sh $(BUILD)/lab/timersim $(TIMERSIM)

# A student's copy, from the committed tree, with build/web when `make web`
# has made it.
lab-dist:
	$(Q)scripts/lab-dist.sh $(BUILD)/timersim-lab.tar.gz $(if $(wildcard $(BUILD)/web/index.html),$(BUILD)/web)

# The browser lab: emscripten installed (scripts/setup.sh --web), the lab's
# sources compiled to $(BUILD)/web-obj, linked with tools/web/lab_api.cc,
# and the page assembled (scripts/web-page.py) into $(BUILD)/web.
web:
	@echo "timersim: checking emscripten (scripts/setup.sh --web)"
	$(Q)scripts/setup.sh --web
	$(Q)mkdir -p $(BUILD)/web-obj/include
	$(Q)ln -sfn /usr/include/fmt $(BUILD)/web-obj/include/fmt
	$(Q)ln -sfn /usr/include/nlohmann $(BUILD)/web-obj/include/nlohmann
	@echo "timersim: building $(BUILD)/web (the lab's sources by em++ -Os, -j$(JOBS))"
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/web-obj LAB=1 WEB=1 $(BUILD)/web-obj/timersim-lab.js
	$(Q)scripts/web-page.py $(BUILD)/web-obj/timersim-lab.js $(BUILD)/web

# The wasm lab against the native one, and the page in a browser.
check-web: web all
	$(Q)NODE_PATH=/usr/share/nodejs scripts/check-web.sh $(BUILD)/web $(BUILD)/web-obj/timersim-lab.js $(TIMERSIM)

# The benches are built (not run) too: a bench that no longer compiles
# against the interfaces it measures is a failure of the tree.
test: deps
	@echo "timersim: building $(TIMERSIM), $(words $(UNIT_BINS)) test and $(words $(BENCH_BINS)) bench binaries (-j$(JOBS))"
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) _build _tests _benches
	@echo "timersim: building the Python module (make python)"
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/python PIC=1 _python
	@echo "timersim: running the tests"
	$(Q)$(MAKE) --no-print-directory PY_TESTS="$(PY_TEST_FILES)" _test

check-asan: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/asan SANITIZE=1 _build _tests
	$(Q)$(MAKE) --no-print-directory BUILD=build/asan SANITIZE=1 _test

bench: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) _build _benches
	$(Q)$(MAKE) --no-print-directory _bench

fuzz: deps
	$(Q)$(MAKE) --no-print-directory _fuzz

# CI: every fuzz target for FUZZ_CI_SECONDS each, from the corpus kept in
# tests/fuzz/corpus (and the shared traces' seeds). 45 s x 7 targets: about
# 5 minutes of fuzzing, plus the clang build (.ci/run runs it).
fuzz-ci: deps
	$(Q)FUZZ_SECONDS=$${FUZZ_CI_SECONDS:-45} scripts/fuzz.sh $(FUZZ_SRCS)

# Every shared trace through every scheme under ASan/UBSan, round after
# round with varied options, for SOAK_SECONDS (default 1800).
soak: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=build/asan SANITIZE=1 _build
	$(Q)scripts/soak.sh build/asan/timersim

freestanding:
	$(Q)scripts/check-freestanding.sh
	$(Q)scripts/check-floors.py

# ns per cost unit per scheme on this machine, for compare --estimate and
# sweeps: build/calibration.json (from the bench_calibrate benchmark).
calibrate: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/bench/bench_calibrate
	$(Q)$(BUILD)/bench/bench_calibrate --benchmark_out=$(BUILD)/bench/bench_calibrate.json \
		--benchmark_out_format=json
	$(Q)scripts/calibrate.py $(BUILD)/bench/bench_calibrate.json $(BUILD)/calibration.json

# docs/results: the classic vs v48 table (sweeps of recordings and generated
# workloads; minutes).
results: all
	$(Q)JOBS=$(JOBS) scripts/results.sh $(TIMERSIM)

# The softirq-run cost model, fitted on tests/data's recordings and checked
# (scripts/cost-model.sh): docs/results/cost-model/.
cost-model: all
	$(Q)scripts/cost-model.sh $(TIMERSIM)

# The committed docs/results against a regeneration in a temporary folder.
results-check: all
	$(Q)JOBS=$(JOBS) scripts/results-check.sh $(TIMERSIM)

# tests/data/report-digests.txt written again from this build's reports:
# when a change means to change a report (test_report_digests checks them).
report-digests: all
	$(Q)scripts/report-digests.sh $(TIMERSIM) > tests/data/report-digests.txt.tmp || \
		{ rm -f tests/data/report-digests.txt.tmp; exit 1; }
	$(Q)mv tests/data/report-digests.txt.tmp tests/data/report-digests.txt

# Slurm (munge, slurmctld, slurmd) and sshd started from a temporary folder.
test-engines: all
	$(Q)scripts/test-engines.sh $(TIMERSIM)

# Replay throughput (MB/s, events/s) and peak memory on a generated 1 GB trace.
bench-replay: all
	$(Q)scripts/bench-replay.sh $(TIMERSIM)

clean:
	rm -rf $(BUILD)

# `import timersim` (tools/python/): the command line's code in a Python
# extension module, built from a position-independent copy of the library
# and of tools/ under $(BUILD)/python (PIC=1); importable from there with
# PYTHONPATH=$(BUILD)/python.
python: deps
	$(Q)$(MAKE) --no-print-directory -j$(JOBS) BUILD=$(BUILD)/python PIC=1 _python
	@echo "timersim: built $(BUILD)/python/timersim (PYTHONPATH=$(BUILD)/python $(PYTHON) -c 'import timersim')"

# The notebook, executed as a researcher runs it, into $(BUILD)/notebook.
notebook: python
	@mkdir -p $(BUILD)/notebook
	$(Q)cd docs && PATH=/usr/bin:/bin TIMERSIM_PYTHONPATH=$(CURDIR)/$(BUILD)/python \
		/usr/bin/jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
		--output-dir $(CURDIR)/$(BUILD)/notebook timersim-pandas.ipynb
	@echo "timersim: the notebook ran: $(BUILD)/notebook/timersim-pandas.ipynb"

# The Debian way (`make && make install DESTDIR=debian/tmp PREFIX=/usr`).
# The binary finds the scripts it runs (plot.py) at ../share/timersim from
# its own folder (tools/cmd_plot.cc); the man page is made from its --help.
install: all python
	$(Q)$(MAKE) --no-print-directory _install

# ---- internal targets (assume deps are installed) -------------------------

_build: $(TIMERSIM)
_tests: $(UNIT_BINS)
_benches: $(BENCH_BINS)

_test:
	$(Q)scripts/check-freestanding.sh
	$(Q)scripts/check-floors.py
	$(Q)TIMERSIM_BIN=$(TIMERSIM) TIMERSIM_PYTHONPATH=$(BUILD)/python scripts/run-tests.sh $(UNIT_BINS) $(PY_TESTS)

_bench:
	$(Q)scripts/run-benches.sh $(BUILD)/bench $(BENCH_BINS)

_fuzz:
	$(Q)scripts/fuzz.sh $(FUZZ_SRCS)

# Installs $(TIMERSIM) as it is (no rebuild: tests install the binary
# they test, e.g. BUILD=build/asan).
INSTALL_SCRIPTS := scripts/plot.py scripts/plot-sweep.py
# Imported by both, not run: installed beside them, not executable.
INSTALL_MODULES := scripts/plot_shared.py
_install:
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/timersim $(DESTDIR)$(PREFIX)/share/man/man1
	$(Q)scripts/man-page.py $(TIMERSIM) > $(BUILD)/timersim.1.tmp && mv $(BUILD)/timersim.1.tmp $(BUILD)/timersim.1
	$(Q)install -m 0755 $(TIMERSIM) $(DESTDIR)$(PREFIX)/bin/timersim
	$(Q)install -m 0755 $(INSTALL_SCRIPTS) $(DESTDIR)$(PREFIX)/share/timersim/
	$(Q)install -m 0644 $(INSTALL_MODULES) $(DESTDIR)$(PREFIX)/share/timersim/
	$(Q)install -m 0644 $(BUILD)/timersim.1 $(DESTDIR)$(PREFIX)/share/man/man1/timersim.1
	$(Q)echo "  INSTALL $(DESTDIR)$(PREFIX)/bin/timersim, share/timersim/, share/man/man1/timersim.1"
	$(Q)if [ -f $(BUILD)/python/timersim/_core.so ]; then \
		install -d $(DESTDIR)$(PYTHON_SITE)/timersim && \
		install -m 0644 $(BUILD)/python/timersim/*.py $(BUILD)/python/timersim/_core.so $(DESTDIR)$(PYTHON_SITE)/timersim/ && \
		echo "  INSTALL $(DESTDIR)$(PYTHON_SITE)/timersim"; fi

# The Python module (make python, BUILD=build/python PIC=1). Debian's
# python3: its headers, and the site-packages make install fills (with
# PREFIX=/usr the packaged python3's own folder, else python3.N's under
# PREFIX, which Debian's python3 searches for /usr/local).
PYTHON      ?= /usr/bin/python3
PY_CFLAGS    = $(patsubst -I%,-isystem %,$(shell $(PYTHON)-config --includes))
PYTHON_SITE ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/python3/dist-packages,$(PREFIX)/lib/python$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages)
PY_SRCS     := $(wildcard tools/python/timersim/*.py)
PY_MODULE   := $(BUILD)/timersim/_core.so
# No static libstdc++ here: the module shares python3's C++ runtime.
PY_LIBS     := $(call pkg_libs,$(filter-out $(RUNTIME_PKGS) fmt babeltrace babeltrace-ctf,$(LIB_PKGS)))

_python: $(PY_MODULE) $(patsubst tools/python/%,$(BUILD)/%,$(PY_SRCS))

$(BUILD)/timersim/%.py: tools/python/timersim/%.py
	@mkdir -p $(dir $@)
	$(Q)cp $< $@

# pybind11's advice: the module's own symbols hidden (the library's stay
# visible: libtracecmd's hooks must be found by name).
$(BUILD)/obj/tools/python/module.o: tools/python/module.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX   $<")
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) -fvisibility=hidden $(PY_CFLAGS) -c -o $@ $<

$(PY_MODULE): $(BUILD)/obj/tools/python/module.o $(TOOL_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(CXX) -shared $(SANFLAGS) -o $@ $^ $(PY_LIBS)

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(TIMERSIM): $(TOOL_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(CXX) $(LDFLAGS) -o $@ $^ $(TIMERSIM_LIBS)

# Written when the Makefile is read, not by a rule: make -j runs a
# prerequisite made by a recipe only after every other object it can
# start, so the biggest compile of the build would start last and run
# alone on one core after the rest.
$(shell mkdir -p $(dir $(TOOLS_UNITY)) && printf '$(TOOLS_UNITY_TEXT)' | sed 's/^ //' >$(TOOLS_UNITY).tmp && \
        if cmp -s $(TOOLS_UNITY).tmp $(TOOLS_UNITY); then rm $(TOOLS_UNITY).tmp; \
        else mv $(TOOLS_UNITY).tmp $(TOOLS_UNITY); fi)

$(foreach u,$(LIB_UNITS),$(call write_unit,$(u)))

# The compile command's flags, written when they change: every object
# depends on them, so that a changed flag (-D, a package's -isystem)
# rebuilds what it compiles instead of leaving objects of the old ones.
FLAGS_STAMP := $(BUILD)/gen/compile-flags
$(shell mkdir -p $(BUILD)/gen && echo '$(CPPFLAGS) $(CXXFLAGS)' >$(FLAGS_STAMP).tmp && \
        if cmp -s $(FLAGS_STAMP).tmp $(FLAGS_STAMP); then rm $(FLAGS_STAMP).tmp; \
        else mv $(FLAGS_STAMP).tmp $(FLAGS_STAMP); fi)

$(BUILD)/obj/gen/tools_unity.o: $(TOOLS_UNITY) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX   tools/*.cc (one unit)")
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c -o $@ $<

# GCC warns of a class of a header holding a type of an anonymous
# namespace that is not the main file's (it takes the file for a header
# that several units include): a unit's sources are its main file.
$(BUILD)/obj/gen/lib_%.o: CXXFLAGS += $(if $(WEB),,-Wno-subobject-linkage)
$(BUILD)/obj/gen/lib_%.o: $(BUILD)/gen/lib_%.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX   $< ($(words $(unit_$*_srcs)) sources of $(patsubst %/,%,$(sort $(dir $(unit_$*_srcs)))))")
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c -o $@ $<


$(BUILD)/tests/%: $(call obj,tests/unit/%.cc) $(SUPPORT_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS) $(call pkg_libs,$(TEST_PKGS))

$(BUILD)/bench/%: $(call obj,tests/bench/%.cc) $(SUPPORT_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(LDFLAGS) -o $@ $^ $(LIBS) $(call pkg_libs,$(BENCH_PKGS) $(TEST_PKGS))

$(BUILD)/obj/tests/unit/%.o: CXXFLAGS += $(call pkg_cflags,$(TEST_PKGS))
$(BUILD)/obj/tests/support/%.o: CXXFLAGS += $(call pkg_cflags,$(TEST_PKGS))
$(BUILD)/obj/tests/bench/%.o: CXXFLAGS += $(call pkg_cflags,$(BENCH_PKGS))

$(BUILD)/obj/%.o: %.cc $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX   $<")
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c -o $@ $<

# The lab's API as a JavaScript module with the wasm inside (SINGLE_FILE:
# a page opened from disk cannot fetch a .wasm beside it).
WEB_LDFLAGS := -Os -fexceptions --bind -sSINGLE_FILE -sMODULARIZE -sEXPORT_NAME=TimersimLab -sALLOW_MEMORY_GROWTH \
               -sDISABLE_EXCEPTION_CATCHING=0 -sENVIRONMENT=web,node
$(BUILD)/timersim-lab.js: $(BUILD)/obj/tools/web/lab_api.o $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  EMLD  $@")
	$(Q)$(CXX) $(WEB_LDFLAGS) -o $@ $^

# Objects are kept between runs: `make test` with nothing changed rebuilds
# nothing (make would otherwise delete them as intermediates).
.SECONDARY:

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
