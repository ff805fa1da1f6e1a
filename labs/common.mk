# common.mk: the build of one lab's visible tests, included by every
# labs/labNN-name/Makefile and solutions/labNN-name/Makefile.
#
# The including Makefile sets:
#   LAB      the lab's tag: lab01, lab02, ... (files LAB.h, LAB.c, test_LAB.c)
#   LAB_DIR  folder with the contract header and the tests (default: .)
#   SRC_DIR  folder with the LAB.c to test (default: .)
#   EXTRA_SRC  more sources the tests need, relative to LAB_DIR (optional)
#
#   make test     build and run the visible Check tests, then ask attnlab
#                 (when the tree has it) whether LAB.c keeps the lab's rules
#   make clean

ROOT    ?= ../..
LAB_DIR ?= .
SRC_DIR ?= .
SUP     := $(ROOT)/lib
# Build outputs go to the tree's one build folder: build/labs/<lab> or
# build/solutions/<lab>, never beside the sources.
OUT     := $(ROOT)/build/$(notdir $(patsubst %/,%,$(dir $(CURDIR))))/$(notdir $(CURDIR))

CC      ?= cc
# The warnings are the grader's own (warnings.mk); CFLAGS from the command line
# or the environment replace the rest.
include $(dir $(lastword $(MAKEFILE_LIST)))warnings.mk
CFLAGS  ?= -std=c11 -O1 -g
override CFLAGS += $(LAB_WARN)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck)
INCLUDES     = -I$(LAB_DIR) -I$(ROOT)/labs -I$(SUP)

SUPPORT_SRC := $(SUP)/sup_rng.c $(SUP)/sup_tensor.c $(SUP)/sup_predict.c
TEST_SRC    := $(LAB_DIR)/test_$(LAB).c $(addprefix $(LAB_DIR)/,$(EXTRA_SRC))
# The tests and the support code do not change with your LAB.c, so they are
# compiled once, into OBJ_DIR; a save recompiles LAB.c alone. OBJ_DIR may be a
# folder shared by many builds of one lab (attnlab validate builds each
# catalogued mistake against the tests so).
OBJ_DIR     ?= $(OUT)
TEST_OBJ    := $(patsubst %.c,$(OBJ_DIR)/%.o,$(notdir $(TEST_SRC) $(SUPPORT_SRC)))

# The lab's rules (allowed headers and library calls) are the grader's build's
# to judge, which the Check tests cannot see: `attnlab rules --source` builds
# LAB.c as grade does, so make test fails where grade says "forbidden call".
# ATTNLAB= (empty) leaves the step out.
ATTNLAB ?= $(wildcard $(ROOT)/build/attnlab)

.PHONY: test clean
test: $(OUT)/test_$(LAB)
	@$(abspath $(OUT))/test_$(LAB)
	@$(if $(ATTNLAB),$(ATTNLAB) rules --lab $(patsubst lab%,%,$(LAB)) --source $(SRC_DIR)/$(LAB).c >/dev/null)

$(OUT)/test_$(LAB): $(SRC_DIR)/$(LAB).c $(TEST_OBJ) $(LAB_DIR)/$(LAB).h $(SUP)/labsup.h $(ROOT)/labs/warnings.mk
	@mkdir -p $(OUT)
	$(CC) $(CFLAGS) $(INCLUDES) -o $@ $(SRC_DIR)/$(LAB).c $(TEST_OBJ) $(CHECK_LIBS) -lm

$(OBJ_DIR)/%.o: $(LAB_DIR)/%.c $(wildcard $(LAB_DIR)/expected_$(LAB).h) $(LAB_DIR)/$(LAB).h $(SUP)/labsup.h $(ROOT)/labs/labcheck.h $(ROOT)/labs/warnings.mk
	@mkdir -p $(OBJ_DIR)
	$(CC) $(CFLAGS) $(INCLUDES) $(CHECK_CFLAGS) -c -o $@ $<

$(OBJ_DIR)/%.o: $(SUP)/%.c $(SUP)/labsup.h $(ROOT)/labs/warnings.mk
	@mkdir -p $(OBJ_DIR)
	$(CC) $(CFLAGS) $(INCLUDES) -c -o $@ $<

clean:
	rm -rf $(OUT)
