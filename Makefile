# attnlab: every entry point a user needs.
#   make            build libattn and build/attnlab
#   make test       build and run every test (Check suites, lab dev-check, validate),
#                   two at a time, then what each step cost
#   make test-quick the suites and lab checks the files changed since HEAD reach
#   make grade      grade the labs in labs/ (the main job a student runs)
#   make check      every lab's visible tests on your labs/, one line per lab
#   make validate   solutions full marks, stubs zero, mutants diagnosed
#   make mutation   mechanical mutants of each solution: every one killed or a reviewed
#                   equivalent (about 140 s on 2 cores: CI runs it after make test)
#   make test-asan  the Check suites and the fuzz regression inputs again under ASan + UBSan
#   make test-cluster  scripts/cluster/ on a one-node Slurm and over ssh to 127.0.0.1, each
#                   merged class compared with one batch (as root: it starts daemons; CI runs it)
#   make fuzz       fuzz the grader's parsers with libFuzzer (clang), FUZZ_SECONDS each (60)
#   make bench      what grading costs (cold, from the build cache, watch's save to
#                   verdict), then libattn's paths against one-core sgemm: build/bench/*.csv, *.png
#   make plots      your experiments beside the answer key, and two heatmaps, as PNGs in build/plots
#   make gradescope Gradescope's autograder, build/gradescope/autograder.zip (LAB=N|1,3|all;
#                   the secret: ATTNLAB_SECRET, or one generated, kept and printed once)
#   make student-kit  build/student-kit/attnlab-kit.tar.gz: labs, support code and an attnlab
#                   that grades the visible tests; no solutions, mutants or hidden tests
#   make kit-data   labs/*/expected_labNN.h again: the numbers the visible tests compare with
#   make libattn    just libattn (static and shared): needs a C compiler and libm only
#   make install    PREFIX=/usr/local (and DESTDIR): libattn, attn.h, attn.pc,
#                   attnlab, its man page, child objects and course data (grading
#                   from any folder, no source tree); make uninstall removes them
#   make clean
# Build outputs go to build/ only.

CC      ?= cc
# Build with every core; JOBS=N says how many jobs at a time (JOBS=1: one),
# for the build and for make test's steps. Set once, by the make you run: the
# makes it starts share its job slots (a -j of their own would reset them).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ifndef ATTNLAB_MAKE_TOP
  MAKEFLAGS += -j$(JOBS)
  export ATTNLAB_MAKE_TOP := 1
endif
BUILD   ?= build
PKGS    := check yaml-0.1 libseccomp jansson

# A curated warning set, kept clean (see Lua's makefile).
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wwrite-strings -Wundef -Wformat=2 \
           -Wold-style-definition -Wdouble-promotion -Wvla
OPT     ?= -O2 -g
CFLAGS  += -std=c11 $(OPT) $(WARN) -D_GNU_SOURCE -MMD -MP -Ilib -Igrader -I$(BUILD)/gen
LDLIBS  += -lm -ldl

ifeq ($(SANITIZE),1)
  BUILD  := build/asan
  CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
endif

DEPS_OK := $(BUILD)/.deps-ok
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# One line per step (  CC  build/grader/engine/grade.o); V=1 prints every command in full.
V ?= 0
ifeq ($(V),1)
Q   :=
say := @:
else
Q   := @
say := @printf '  %-3s %s\n'
endif

# ---- sources ------------------------------------------------------------
ATTN_SRC   := $(wildcard lib/attn_*.c)
SUP_SRC    := $(wildcard lib/sup_*.c)
# The grader by layer: the base (grader/base/), the engine (grader/engine/, grader/labs/), the command front
# ends (cli/), the reports (report/), the confined build and run (confined/),
# and the tools built on the engine for learners (learn/) and classes (class/);
# and bench's harness (lib/bench/), beside the libattn kernels it times.
GRADER_SRC := $(wildcard grader/base/*.c grader/engine/*.c grader/labs/*.c grader/cli/*.c grader/report/*.c \
                         grader/confined/*.c grader/learn/*.c grader/class/*.c lib/bench/*.c)
CHILD_SRC   := $(wildcard grader/child/*.c)
TEST_SRC   := $(wildcard lib/tests/test_*.c grader/tests/test_*.c)

# What the labs' manifests define (data/rubrics/labNN.yaml's top block): labgen
# (grader/tools/) reads every rubric, checks it against the lab's contract
# header, handout and the syllabus, and writes the call numbers, the child's
# dispatch, the module registry, the function table and GR_N_LABS into $(GEN).
# A lab is found by its files: nothing here lists the labs.
GEN        := $(BUILD)/gen
LAB_NUMS   := $(patsubst data/rubrics/lab%.yaml,%,$(wildcard data/rubrics/lab[0-9][0-9].yaml))
LABGEN     := $(BUILD)/labgen
GEN_STAMP  := $(GEN)/.stamp
GEN_INPUTS := $(wildcard data/rubrics/lab[0-9][0-9].yaml labs/lab[0-9][0-9]-*/lab[0-9][0-9].h \
                         labs/lab[0-9][0-9]-*/README.md grader/labs/lab[0-9][0-9].c syllabus.md)

ATTN_OBJ   := $(ATTN_SRC:%.c=$(BUILD)/%.o)
SUP_OBJ    := $(SUP_SRC:%.c=$(BUILD)/%.o)
GRADER_OBJ := $(GRADER_SRC:%.c=$(BUILD)/%.o) $(GEN)/labs_gen.o
# The child also gets the support RNG and tensor code (never libattn, YAML or libm).
CHILD_OBJ   := $(CHILD_SRC:%.c=$(BUILD)/%.o) $(LAB_NUMS:%=$(BUILD)/grader/child/lab%_dispatch.o) \
              $(patsubst lib/%.c,$(BUILD)/grader/child/%.o,$(filter-out lib/sup_yaml.c lib/sup_yamlread.c lib/sup_predict.c,$(SUP_SRC)))
TEST_BIN   := $(TEST_SRC:%.c=$(BUILD)/%)
CHECK_MAIN := $(BUILD)/lib/tests/check_main.o

LIBATTN    := $(BUILD)/libattn.a
# The shared libattn: soname libattn.so.MAJOR; MAJOR changes when the ABI does.
ATTN_MAJOR := 1
ATTN_VERSION := 1.0.0
LIBATTN_SO := $(BUILD)/libattn.so.$(ATTN_VERSION)
LIBSUP     := $(BUILD)/libsup.a
ATTNLAB    := $(BUILD)/attnlab

.PHONY: all deps libattn install uninstall test-install test test-quick test-unit test-bins test-labs test-asan fuzz \
        test-cluster \
        fuzz-regress grade validate mutation bench plots gradescope student-kit kit-data clean
# Keep test objects between builds (make would delete them as intermediates).
.SECONDARY:
all: $(ATTNLAB) $(CHILD_OBJ) $(LIBATTN_SO)

# ---- system packages: install when root, otherwise say the exact command --
deps: $(DEPS_OK)
$(DEPS_OK):
	@sh scripts/install-deps.sh
	@mkdir -p $(@D) && touch $@

# ---- libraries ----------------------------------------------------------
# libattn needs nothing but libm (and threads, which glibc keeps in libc): its
# objects are built without the system packages check (no DEPS_OK, no
# pkg-config flags), position-independent so one set serves the static and the
# shared library.
libattn: $(LIBATTN) $(LIBATTN_SO)
$(LIBATTN): $(ATTN_OBJ)
	$(say) AR $@
	$(Q)$(AR) rcs $@ $^
$(LIBATTN_SO): $(ATTN_OBJ)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -shared -pthread -Wl,-soname,libattn.so.$(ATTN_MAJOR) -o $@ $^ -lm
	ln -sf libattn.so.$(ATTN_VERSION) $(BUILD)/libattn.so.$(ATTN_MAJOR)
	ln -sf libattn.so.$(ATTN_MAJOR) $(BUILD)/libattn.so
$(BUILD)/lib/attn_%.o: lib/attn_%.c
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) -fPIC -pthread -c -o $@ $<
$(LIBSUP): $(SUP_OBJ)
	$(say) AR $@
	$(Q)$(AR) rcs $@ $^

# ---- generated from the labs' manifests ---------------------------------------
LABGEN_OBJ := $(addprefix $(BUILD)/grader/tools/,labgen.o manifest.o manifest_check.o)
$(LABGEN): $(LABGEN_OBJ) $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)
# labgen rewrites only the files whose text changed, so an edit of a rubric's
# tests rebuilds nothing.
# The list of those inputs, rewritten when it changes: a lab removed or a folder
# renamed makes labgen run again too, which no input's time would tell.
GEN_LIST   := $(GEN)/inputs.list
$(shell mkdir -p $(GEN) && echo '$(GEN_INPUTS)' | cmp -s - $(GEN_LIST) || \
        echo '$(GEN_INPUTS)' >$(GEN_LIST))
$(GEN_STAMP): $(LABGEN) $(GEN_INPUTS) $(GEN_LIST)
	@mkdir -p $(@D)
	$(say) GEN $@
	$(Q)$(LABGEN) . $(GEN)
	@touch $@
$(GEN)/%.o: $(GEN)/%.c | $(DEPS_OK)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<
# The headers too: an object's .d file names them, and make must look at them
# again after labgen, so the first make after a lab is added (GR_N_LABS one
# more) rebuilds every object that includes them.
$(GEN)/labs_gen.c $(GEN)/labs_gen.h $(LAB_NUMS:%=$(GEN)/lab%_dispatch.c) \
  $(LAB_NUMS:%=$(GEN)/lab%_calls.h): $(GEN_STAMP) ;
# Everything that includes labmod.h or a call table waits for them.
$(filter-out $(GEN)/%,$(GRADER_OBJ)) $(TEST_SRC:%.c=$(BUILD)/%.o) $(CHECK_MAIN) \
  $(patsubst %.c,$(BUILD)/%.o,$(wildcard grader/fuzz/*.c)) $(CHILD_SRC:%.c=$(BUILD)/%.o): | $(GEN_STAMP)
$(BUILD)/grader/tests/test_manifest: $(addprefix $(BUILD)/grader/tools/,manifest.o manifest_check.o)

# ---- the attnlab program --------------------------------------------------
# The grader compiles students' code with the labs' own warning list.
include labs/warnings.mk
empty :=
space := $(empty) $(empty)
comma := ,
LAB_WARN_DEF := -DGR_LAB_WARN='$(subst $(space),$(comma)$(space),$(strip $(patsubst %,"%",$(LAB_WARN))))'
$(BUILD)/grader/confined/build.o: CFLAGS += $(LAB_WARN_DEF)
$(BUILD)/grader/confined/build.o: labs/warnings.mk

$(ATTNLAB): $(GRADER_OBJ) $(LIBATTN) $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(GRADER_OBJ) $(LIBATTN) $(LIBSUP) $(PKG_LIBS) $(LDLIBS)

# Objects of the sandboxed test child (grader/child), linked with a student's
# code at grading time. Never sanitized: the child is linked statically.
CHILD_CFLAGS := -std=c11 -O2 -g $(WARN) -D_GNU_SOURCE -MMD -MP -Ilib -fno-stack-protector
$(BUILD)/grader/child/%.o: grader/child/%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CHILD_CFLAGS) -c -o $@ $<
$(BUILD)/grader/child/sup_%.o: lib/sup_%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CHILD_CFLAGS) -c -o $@ $<
# Each lab's dispatch, generated from its manifest, includes its contract header.
$(BUILD)/grader/child/lab%_dispatch.o: $(GEN)/lab%_dispatch.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CHILD_CFLAGS) -I. -Igrader/child -I$(GEN) -c -o $@ $<

# The fused path's kernels: each file alone is compiled for its instruction
# set, and runs only where the CPU has it (attn_online.c checks at run time).
ifeq ($(shell uname -m),x86_64)
$(BUILD)/lib/attn_fused_avx2.o:   CFLAGS += -mavx2 -mfma
$(BUILD)/lib/attn_fused_avx512.o: CFLAGS += -mavx512f
endif

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

# ---- tests -----------------------------------------------------------------
# Each test_*.c is one Check suite exporting `Suite *test_suite(void)`;
# check_main.c runs it (ATTNLAB_TEST=NAME: only the test NAME, through the wrap).
TEST_LDFLAGS := -Wl,--wrap=_tcase_add_test
$(BUILD)/lib/tests/test_%: $(BUILD)/lib/tests/test_%.o $(CHECK_MAIN) $(LIBATTN) $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)
# test_commands runs the built program itself.
$(BUILD)/grader/tests/test_commands: | $(ATTNLAB)
$(BUILD)/grader/tests/test_%: $(BUILD)/grader/tests/test_%.o $(CHECK_MAIN) \
		$(filter-out $(BUILD)/grader/cli/main.o,$(GRADER_OBJ)) $(LIBATTN) $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# The visible tests' expected values, as data (labs/*/expected_labNN.h): made by
# kitdata, which links the support code and never ships, from the tests' own
# seeded inputs, so the kit's tests hold no reference code. test_student_kit
# checks the files are current; make kit-data writes them again.
KITDATA := $(BUILD)/kitdata
$(KITDATA): $(BUILD)/grader/tools/kitdata.o $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
kit-data: $(KITDATA)
	$(KITDATA) .
$(BUILD)/grader/tests/test_student_kit: | $(KITDATA)

# Lab 8's mean over median raw gradient, seed by seed (scripts/seed-ranges.sh).
GRADMEDIAN := $(BUILD)/gradmedian
$(GRADMEDIAN): $(BUILD)/grader/tools/gradmedian.o $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The programs the tests build are kept in the build folder, never in the
# user's own cache (grader/confined/buildcache.h).
test test-quick test-unit: export ATTNLAB_BUILD_CACHE ?= $(CURDIR)/$(BUILD)/build-cache
test-unit: $(TEST_BIN)
	@sh scripts/run-suites.sh $(TEST_BIN)
# Everything make test runs, built (scripts/run-tests.sh builds it with -j).
test-bins: $(TEST_BIN) $(FUZZ_DRIVERS) $(KITDATA)

# For students: every lab's visible tests against labs/, one line per lab
# (passed, failing N of M, not started). Needs Check, not attnlab. A report:
# labs still to do are not an error (scripts/check-labs.sh's own status says).
check: | $(DEPS_OK)
	@sh scripts/check-labs.sh || true

# test_stubs runs the built attnlab on a copy of the tree.
$(BUILD)/grader/tests/test_stubs: | $(ATTNLAB)
# test_clusters batches a class with the built attnlab.
$(BUILD)/grader/tests/test_clusters: | $(ATTNLAB)

test-labs: $(LIBSUP)
	@sh scripts/dev-check.sh

test: all
	@sh scripts/run-tests.sh "$(MAKE)" $(BUILD)

# The suites and labs a change reaches (scripts/test-quick.sh says how), in
# well under a minute: for the time between two edits.
test-quick: all
	@sh scripts/test-quick.sh "$(MAKE)" $(BUILD)

# One goal after another: the suites run the sanitized attnlab that all builds.
test-asan:
	$(MAKE) SANITIZE=1 all
	$(MAKE) SANITIZE=1 test-unit
	$(MAKE) SANITIZE=1 fuzz-regress

# Installs Slurm, munge, sshd and GNU parallel first (scripts/install-deps.sh cluster).
test-cluster: all
	@sh scripts/install-deps.sh cluster
	@sh scripts/test-cluster.sh $(ATTNLAB)

# ---- fuzzing -----------------------------------------------------------------
# One target per parser that reads input the grader does not control
# (grader/fuzz/fuzz_NAME.c). Each builds twice:
#   fuzz-regress  with $(CC) and grader/fuzz/driver.c: runs every saved input
#                 (grader/fuzz/corpus/NAME, grader/fuzz/regress/NAME); part of make test
#   fuzz          with clang and libFuzzer under ASan + UBSan, FUZZ_SECONDS per target
FUZZ_TARGETS ?= rubric tensor response explain handin results
FUZZ_SECONDS ?= 60
FUZZ_PARSERS := grader/base/rubric.c grader/base/util.c grader/base/protocol.c grader/cli/cmd_explain.c grader/cli/opts.c grader/cli/cli.c \
                grader/learn/worked.c grader/class/handin.c grader/class/course.c
FUZZ_DRIVERS := $(FUZZ_TARGETS:%=$(BUILD)/grader/fuzz/fuzz_%)

$(BUILD)/grader/fuzz/fuzz_%: $(BUILD)/grader/fuzz/fuzz_%.o $(BUILD)/grader/fuzz/driver.o \
		$(FUZZ_PARSERS:%.c=$(BUILD)/%.o) $(LIBATTN) $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# results.json's writer composes feedback from every lab's tables: its target
# links the whole grader but the command front ends.
FUZZ_WHOLE := $(filter-out grader/cli/%,$(GRADER_SRC))
$(BUILD)/grader/fuzz/fuzz_results: $(BUILD)/grader/fuzz/fuzz_results.o $(BUILD)/grader/fuzz/driver.o \
		$(FUZZ_WHOLE:%.c=$(BUILD)/%.o) $(GEN)/labs_gen.o $(LIBATTN) $(LIBSUP)
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

fuzz-regress: $(FUZZ_DRIVERS)
	@sh scripts/fuzz.sh regress $(BUILD)/grader/fuzz $(FUZZ_TARGETS)

# libFuzzer builds: clang only, every object instrumented, in their own folder.
FUZZ_CC     ?= clang
FUZZ_DIR    := build/libfuzzer
FUZZ_SAN    := -fsanitize=fuzzer,address,undefined
FUZZ_CFLAGS := -std=c11 -O1 -g $(WARN) -D_GNU_SOURCE -MMD -MP -Ilib -Igrader -I$(GEN) $(FUZZ_SAN) \
               -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_OBJ    := $(patsubst %.c,$(FUZZ_DIR)/%.o,$(FUZZ_PARSERS) $(ATTN_SRC) $(SUP_SRC))

$(FUZZ_DIR)/.clang-ok:
	@sh scripts/install-deps.sh fuzz
	@mkdir -p $(@D) && touch $@
$(FUZZ_DIR)/%.o: %.c | $(DEPS_OK) $(FUZZ_DIR)/.clang-ok $(GEN_STAMP)
	@mkdir -p $(@D)
	$(say) CC $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/grader/fuzz/fuzz_%.o $(FUZZ_OBJ)
	$(say) LD $@
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(FUZZ_DIR)/grader/confined/build.o: FUZZ_CFLAGS += $(LAB_WARN_DEF)
$(FUZZ_DIR)/fuzz_results: $(FUZZ_DIR)/grader/fuzz/fuzz_results.o \
		$(patsubst %.c,$(FUZZ_DIR)/%.o,$(FUZZ_WHOLE) $(ATTN_SRC) $(SUP_SRC)) $(FUZZ_DIR)/labs_gen.o
	$(say) LD $@
	$(Q)$(FUZZ_CC) $(FUZZ_SAN) -o $@ $^ $(PKG_LIBS) $(LDLIBS)
$(FUZZ_DIR)/labs_gen.o: $(GEN)/labs_gen.c | $(FUZZ_DIR)/.clang-ok
	$(say) CC $@
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

fuzz: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
	@sh scripts/fuzz.sh run $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# ---- grading -----------------------------------------------------------------
grade: all
	@$(ATTNLAB) grade --lab all --submission labs

validate: all
	@$(ATTNLAB) validate

# Every mechanical mutant of every solution graded (attnlab mutate); fails on a
# survivor not in its lab's data/mutants/labNN/equivalent.yaml.
mutation: all
	@$(ATTNLAB) mutate

# The standard set (T 256 to 4096, d 64, causal and not) as CSV and a chart.
bench: all
	@sh scripts/bench-grading.sh $(ATTNLAB)
	@sh scripts/bench.sh $(ATTNLAB) $(BUILD)/bench

# Every plot, even when one fails (e.g. no gnuplot: each says how to install it).
plots: all
	@st=0; for p in entropy masking saturation heatmap; do \
	    $(ATTNLAB) plot $$p --out $(BUILD)/plots || st=1; \
	done; \
	$(ATTNLAB) plot heatmap --lab 10 --out $(BUILD)/plots || st=1; exit $$st

# ---- the grading fleets and the student kit ----------------------------------------
# The bundle builds attnlab on Gradescope's machine (setup.sh), so it needs no build here.
LAB ?= all
gradescope:
	@sh scripts/gradescope/bundle.sh $(BUILD)/gradescope $(LAB)

student-kit: all
	@sh scripts/student-kit.sh $(BUILD) $(BUILD)/student-kit

# ---- installing ----------------------------------------------------------------
# make install PREFIX=/opt/attn; DESTDIR stages the tree elsewhere (packaging,
# and make test's check of the installed library, under build/stage).
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  := $(DESTDIR)$(PREFIX)/bin
LIBDIR  := $(DESTDIR)$(PREFIX)/lib
INCDIR  := $(DESTDIR)$(PREFIX)/include
PCDIR   := $(LIBDIR)/pkgconfig
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1

# What attnlab reads at run time, found from PREFIX/bin by gr_layout_locate: the child
# objects it links students' code with, and the course data, laid out as in
# the tree (data/..., labs/<dir>/labNN.h, lib/labsup.h). World-readable (644,
# folders 755): every user of the machine runs attnlab from them, and the
# confined toolchain runs as user nobody. solutions/, data/mutants and the
# handouts stay out (students may log in to a grading machine): validate and
# rules --write/--check need a source tree.
PKGLIBDIR   := $(LIBDIR)/attnlab
SHAREDIR    := $(DESTDIR)$(PREFIX)/share/attnlab
COURSE_DATA := $(wildcard data/rubrics/*.yaml data/stubs/*.c data/plots/*.gp data/drills/*.yaml \
                          data/course.example.yaml \
                          labs/*/lab[0-9][0-9].h) lib/labsup.h
COURSE_DIRS := $(sort $(patsubst %/,%,$(dir $(COURSE_DATA))))
COURSE_DIRS := $(sort $(COURSE_DIRS) $(filter-out .,$(patsubst %/,%,$(dir $(COURSE_DIRS)))))

# Only libattn, the attnlab binary and its child objects are built first:
# install never runs tests. attn.pc is written from lib/attn.pc.in with this
# PREFIX each time.
install: $(LIBATTN) $(LIBATTN_SO) $(ATTNLAB) $(CHILD_OBJ)
	install -d $(BINDIR) $(LIBDIR) $(INCDIR) $(PCDIR) $(MANDIR)
	install -m 644 lib/attn.h $(INCDIR)/attn.h
	install -m 644 $(LIBATTN) $(LIBDIR)/libattn.a
	install -m 755 $(LIBATTN_SO) $(LIBDIR)/libattn.so.$(ATTN_VERSION)
	ln -sf libattn.so.$(ATTN_VERSION) $(LIBDIR)/libattn.so.$(ATTN_MAJOR)
	ln -sf libattn.so.$(ATTN_MAJOR) $(LIBDIR)/libattn.so
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(ATTN_VERSION)|' lib/attn.pc.in > $(PCDIR)/attn.pc
	install -m 755 $(ATTNLAB) $(BINDIR)/attnlab
	install -m 644 doc/attnlab.1 $(MANDIR)/attnlab.1
	install -d -m 755 $(PKGLIBDIR) $(PKGLIBDIR)/child $(SHAREDIR) $(addprefix $(SHAREDIR)/,$(COURSE_DIRS))
	install -m 644 $(CHILD_OBJ) $(PKGLIBDIR)/child
	@for f in $(COURSE_DATA); do install -m 644 $$f $(SHAREDIR)/$$f || exit 1; done
	@echo "installed the course data in $(SHAREDIR) and the child objects in $(PKGLIBDIR)/child"

# Removes what install put there, and the attnlab folders once they are empty.
uninstall:
	rm -f $(INCDIR)/attn.h $(LIBDIR)/libattn.a $(LIBDIR)/libattn.so \
	      $(LIBDIR)/libattn.so.$(ATTN_MAJOR) $(LIBDIR)/libattn.so.$(ATTN_VERSION) \
	      $(PCDIR)/attn.pc $(BINDIR)/attnlab $(MANDIR)/attnlab.1
	rm -f $(addprefix $(PKGLIBDIR)/child/,$(notdir $(CHILD_OBJ))) $(addprefix $(SHAREDIR)/,$(COURSE_DATA))
	@for d in $$(printf '%s\n' $(addprefix $(SHAREDIR)/,$(COURSE_DIRS)) | sort -r) \
	          $(SHAREDIR) $(PKGLIBDIR)/child $(PKGLIBDIR); do \
	    [ ! -d $$d ] || rmdir --ignore-fail-on-non-empty $$d || exit 1; \
	done

# The example programs, built against an installed libattn through pkg-config:
# make test stages an install under build/stage and runs them there, then
# grades with a copy of the staged attnlab outside the tree, and uninstalls it.
STAGE := $(abspath $(BUILD))/stage
test-install:
	@rm -rf $(STAGE)
	@$(MAKE) -s install DESTDIR=$(STAGE) PREFIX=/usr >/dev/null
	@sh scripts/test-install.sh $(STAGE) /usr $(BUILD) "$(MAKE)"

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
