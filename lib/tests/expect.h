/* expect.h: the assertion macros of the libattn and support-code Check suites
 * (lib/tests/test_*.c), header-only; it brings <check.h> and <math.h> along.
 *
 *   expect(cond, fmt, ...)                    fail the test with the message
 *                                             unless cond holds
 *   expect_near(what, idx, got, want, tol)    fail with "what[idx] = got,
 *                                             expected want (tolerance tol)"
 *                                             unless |got - want| <= tol
 *
 * Check logs every passing ck_assert (a write to its control pipe), which costs
 * seconds in loops of a million checks: these call into Check only on failure,
 * and report at the caller's line.
 */
#ifndef LIB_TESTS_EXPECT_H
#define LIB_TESTS_EXPECT_H

#include <check.h>
#include <math.h>

/* Fail the running test with the printf-style message unless cond holds. */
#define expect(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* |got - want| <= tol, reported at the caller's line; NaN never passes. */
#define expect_near(what, idx, got, want, tol)                                       \
    do {                                                                             \
        double got_ = (got), want_ = (want), tol_ = (tol);                           \
        expect(fabs(got_ - want_) <= tol_, "%s[%d] = %.9g, expected %.9g (tolerance %g)", \
               what, (int)(idx), got_, want_, tol_);                                 \
    } while (0)

#endif
