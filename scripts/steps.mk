# steps.mk: the steps of make test, one target each, run by scripts/run-tests.sh
# as `make -j2 -O -k -f scripts/steps.mk`: two at a time, each step's output
# printed whole when it ends, every step run even when one fails. Each step
# prints its own cost (scripts/step.sh). The longest steps are listed first,
# so that the two cores stay busy to the end; the order changes nothing else.
BUILD ?= build
SUITES := $(patsubst %.c,$(BUILD)/%,$(wildcard lib/tests/test_*.c grader/tests/test_*.c))
# The suites that take longest, started first (a hint for the schedule only).
LONG   := test_hostile test_batch test_hostile_sandbox test_lab_modules test_online \
          test_hostile_scan test_newlab test_experiment test_stubs test_class_property
LONG_SUITES := $(foreach s,$(LONG),$(filter %/$(s),$(SUITES)))
ORDER  := validate $(LONG_SUITES) $(filter-out $(LONG_SUITES),$(SUITES)) \
          dev-check fuzz-regress install

.PHONY: all dev-check-labs $(ORDER)
all: $(ORDER)

validate:
	@sh scripts/step.sh validate $(BUILD)/attnlab validate
dev-check:
	@sh scripts/step.sh dev-check sh scripts/dev-check.sh
# Only the labs named in LABS (scripts/test-quick.sh).
dev-check-labs:
	@sh scripts/step.sh dev-check sh scripts/dev-check.sh $(LABS)
fuzz-regress:
	@sh scripts/step.sh fuzz-regress $(MAKE) -s -f Makefile fuzz-regress
install:
	@sh scripts/step.sh install $(MAKE) -s -f Makefile test-install
$(SUITES):
	@sh scripts/step.sh $(notdir $@) $@
