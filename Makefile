# attnlab: every entry point a user needs.
#   make            build libattn and build/attnlab
#   make test       build and run every test (Check suites, lab dev-check, validate)
#   make grade      grade the labs in labs/ (the main job a student runs)
#   make validate   solutions full marks, stubs zero, mutants diagnosed
#   make test-asan  the Check suites again under ASan + UBSan
#   make bench      time libattn's paths against one-core sgemm: build/bench/*.csv, *.png
#   make plots      your experiments beside the answer key, and two heatmaps, as PNGs in build/plots
#   make clean
# Build outputs go to build/ only.

CC      ?= cc
BUILD   ?= build
PKGS    := check yaml-0.1 libseccomp

# A curated warning set, kept clean (see Lua's makefile).
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wwrite-strings -Wundef -Wformat=2 \
           -Wold-style-definition -Wdouble-promotion -Wvla
OPT     ?= -O2 -g
CFLAGS  += -std=c11 $(OPT) $(WARN) -D_GNU_SOURCE -MMD -MP -Ilib
LDLIBS  += -lm -ldl

ifeq ($(SANITIZE),1)
  BUILD  := build/asan
  CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  LDFLAGS += -fsanitize=address,undefined
endif

DEPS_OK := $(BUILD)/.deps-ok
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

# ---- sources ------------------------------------------------------------
ATTN_SRC   := $(wildcard lib/attn_*.c)
SUP_SRC    := $(wildcard lib/sup_*.c)
GRADER_SRC := $(wildcard grader/*.c grader/labs/*.c)
STUB_SRC   := $(wildcard grader/stub/*.c)
TEST_SRC   := $(wildcard lib/tests/test_*.c grader/tests/test_*.c)

ATTN_OBJ   := $(ATTN_SRC:%.c=$(BUILD)/%.o)
SUP_OBJ    := $(SUP_SRC:%.c=$(BUILD)/%.o)
GRADER_OBJ := $(GRADER_SRC:%.c=$(BUILD)/%.o)
# The child also gets the support RNG and tensor code (never libattn, never YAML).
STUB_OBJ   := $(STUB_SRC:%.c=$(BUILD)/%.o) \
              $(patsubst lib/%.c,$(BUILD)/grader/stub/%.o,$(filter-out lib/sup_yaml.c,$(SUP_SRC)))
TEST_BIN   := $(TEST_SRC:%.c=$(BUILD)/%)
CHECK_MAIN := $(BUILD)/lib/tests/check_main.o

LIBATTN    := $(BUILD)/libattn.a
LIBSUP     := $(BUILD)/libsup.a
ATTNLAB    := $(BUILD)/attnlab

.PHONY: all deps test test-unit test-labs test-asan grade validate bench plots clean
# Keep test objects between builds (make would delete them as intermediates).
.SECONDARY:
all: $(ATTNLAB) $(STUB_OBJ)

# ---- system packages: install when root, otherwise say the exact command --
deps: $(DEPS_OK)
$(DEPS_OK):
	@sh scripts/install-deps.sh
	@mkdir -p $(@D) && touch $@

# ---- libraries ----------------------------------------------------------
$(LIBATTN): $(ATTN_OBJ)
	$(AR) rcs $@ $^
$(LIBSUP): $(SUP_OBJ)
	$(AR) rcs $@ $^

# ---- the attnlab program --------------------------------------------------
$(ATTNLAB): $(GRADER_OBJ) $(LIBATTN) $(LIBSUP)
	$(CC) $(LDFLAGS) -o $@ $(GRADER_OBJ) $(LIBATTN) $(LIBSUP) $(PKG_LIBS) $(LDLIBS)

# Objects of the sandboxed test child (protocol stub), linked with a student's
# code at grading time. Never sanitized: the child is linked statically.
STUB_CFLAGS := -std=c11 -O2 -g $(WARN) -D_GNU_SOURCE -MMD -MP -Ilib -fno-stack-protector
$(BUILD)/grader/stub/%.o: grader/stub/%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(STUB_CFLAGS) -c -o $@ $<
$(BUILD)/grader/stub/sup_%.o: lib/sup_%.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(STUB_CFLAGS) -c -o $@ $<

# The fused path's kernels: each file alone is compiled for its instruction
# set, and runs only where the CPU has it (attn_online.c checks at run time).
ifeq ($(shell uname -m),x86_64)
$(BUILD)/lib/attn_fused_avx2.o:   CFLAGS += -mavx2 -mfma
$(BUILD)/lib/attn_fused_avx512.o: CFLAGS += -mavx512f
endif

$(BUILD)/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

# ---- tests -----------------------------------------------------------------
# Each test_*.c is one Check suite exporting `Suite *test_suite(void)`;
# check_main.c runs it.
$(BUILD)/lib/tests/test_%: $(BUILD)/lib/tests/test_%.o $(CHECK_MAIN) $(LIBATTN) $(LIBSUP)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)
$(BUILD)/grader/tests/test_%: $(BUILD)/grader/tests/test_%.o $(CHECK_MAIN) \
		$(filter-out $(BUILD)/grader/main.o,$(GRADER_OBJ)) $(LIBATTN) $(LIBSUP)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

test-unit: $(TEST_BIN)
	@sh scripts/run-suites.sh $(TEST_BIN)

test-labs: $(LIBSUP)
	@sh scripts/dev-check.sh

test: all
	@sh scripts/run-tests.sh "$(MAKE)" $(BUILD)

test-asan:
	$(MAKE) SANITIZE=1 test-unit

# ---- grading -----------------------------------------------------------------
grade: all
	@$(ATTNLAB) grade --lab all --submission labs

validate: all
	@$(ATTNLAB) validate

# The standard set (T 256 to 4096, d 64, causal and not) as CSV and a chart.
bench: all
	@sh scripts/bench.sh $(ATTNLAB) $(BUILD)/bench

# Every plot, even when one fails (e.g. no gnuplot: each says how to install it).
plots: all
	@st=0; for p in entropy masking saturation heatmap; do \
	    $(ATTNLAB) plot $$p --out $(BUILD)/plots || st=1; \
	done; \
	$(ATTNLAB) plot heatmap --lab 10 --out $(BUILD)/plots || st=1; exit $$st

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
