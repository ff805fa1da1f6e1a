# common.mk: the build of one lab's visible tests, included by every
# labs/labNN-name/Makefile and solutions/labNN-name/Makefile.
#
# The including Makefile sets:
#   LAB      the lab's tag: lab01, lab02, ... (files LAB.h, LAB.c, test_LAB.c)
#   LAB_DIR  folder with the contract header and the tests (default: .)
#   SRC_DIR  folder with the LAB.c to test (default: .)
#   EXTRA_SRC  more sources the tests need, relative to LAB_DIR (optional)
#
#   make test     build and run the visible Check tests
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
CHECK_FLAGS = $(shell pkg-config --cflags --libs check 2>/dev/null || echo -lcheck)

SUPPORT_SRC := $(SUP)/sup_rng.c $(SUP)/sup_tensor.c
TEST_SRC    := $(LAB_DIR)/test_$(LAB).c $(addprefix $(LAB_DIR)/,$(EXTRA_SRC))

.PHONY: test clean
test: $(OUT)/test_$(LAB)
	@$(abspath $(OUT))/test_$(LAB)

$(OUT)/test_$(LAB): $(SRC_DIR)/$(LAB).c $(TEST_SRC) $(wildcard $(LAB_DIR)/expected_$(LAB).h) $(LAB_DIR)/$(LAB).h $(SUPPORT_SRC) $(SUP)/labsup.h $(ROOT)/labs/labcheck.h $(ROOT)/labs/warnings.mk
	@mkdir -p $(OUT)
	$(CC) $(CFLAGS) -I$(LAB_DIR) -I$(ROOT)/labs -I$(SUP) -o $@ $(SRC_DIR)/$(LAB).c $(TEST_SRC) $(SUPPORT_SRC) $(CHECK_FLAGS) -lm

clean:
	rm -rf $(OUT)
