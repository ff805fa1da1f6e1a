# run.mk: the `run` target of the experiment labs (4, 5 and 8), included after
# common.mk by the lab's Makefile and by its solution's. It builds the lab's run
# program from its source in LAB_DIR and the LAB.c in SRC_DIR, then prints the
# experiment's numbers.
#   make run                     a table, seed 1
#   make run SEED=7 FORMAT=csv   CSV with a header row, for plotting
#
# The including Makefile may set:
#   RUN_PROG  the run program, built from $(LAB_DIR)/$(RUN_PROG).c (default: run_$(LAB))
#   RUN_ARGS  more options passed to it (lab 4: $(ARGS), so make run ARGS="--trials 50")
SEED     ?= 1
FORMAT   ?= table
RUN_PROG ?= run_$(LAB)

.PHONY: run
run: $(OUT)/$(RUN_PROG)
	@$(abspath $(OUT))/$(RUN_PROG) --seed $(SEED) --format $(FORMAT) $(RUN_ARGS)

$(OUT)/$(RUN_PROG): $(SRC_DIR)/$(LAB).c $(LAB_DIR)/$(RUN_PROG).c $(wildcard $(LAB_DIR)/expected_$(LAB).h) $(LAB_DIR)/$(LAB).h $(SUPPORT_SRC) $(SUP)/labsup.h $(ROOT)/labs/labrun.h
	@mkdir -p $(OUT)
	$(CC) $(CFLAGS) -I$(LAB_DIR) -I$(ROOT)/labs -I$(SUP) -o $@ $(SRC_DIR)/$(LAB).c $(LAB_DIR)/$(RUN_PROG).c $(SUPPORT_SRC) -lm
