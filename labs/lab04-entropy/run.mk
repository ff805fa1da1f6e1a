# run.mk: the `run` target of lab 4, included after common.mk by this lab's
# Makefile and by the solution's. It builds run_lab04 from run_lab04.c and the
# lab04.c in SRC_DIR, then prints the experiment's numbers.
#   make run                     a table, seed 1
#   make run SEED=7 FORMAT=csv   CSV with a header row, for plotting
#   make run ARGS="--trials 50"  any other option of run_lab04 (--T, --trials)
SEED   ?= 1
FORMAT ?= table
ARGS   ?=

.PHONY: run
run: $(OUT)/run_$(LAB)
	@./$(OUT)/run_$(LAB) --seed $(SEED) --format $(FORMAT) $(ARGS)

$(OUT)/run_$(LAB): $(SRC_DIR)/$(LAB).c $(LAB_DIR)/run_$(LAB).c $(LAB_DIR)/$(LAB).h $(SUPPORT_SRC) $(SUP)/labsup.h $(ROOT)/labs/labrun.h
	@mkdir -p $(OUT)
	$(CC) $(CFLAGS) -I$(LAB_DIR) -I$(ROOT)/labs -I$(SUP) -o $@ $(SRC_DIR)/$(LAB).c $(LAB_DIR)/run_$(LAB).c $(SUPPORT_SRC) -lm
