/* labcheck.h: the Check helpers every lab's visible tests use (test_labNN.c).
 *
 * Read this once and you can read, and extend, the tests of every lab. Each
 * helper stops the test at the first thing that is wrong and says what it was.
 * One argument order throughout: a label first (the function or array being
 * checked), then what is expected, then what your code produced; functions
 * that fill an array take the array first, as the lab functions do.
 *
 *   EXPECT_OK(fn, call)
 *       call must return LAB_OK. While the stub is untouched (LAB_NOT_IMPLEMENTED)
 *       the message is "fn: not implemented yet".
 *       EXPECT_OK("lab_softmax", lab_softmax(W, S, 1, 4, NULL));
 *
 *   EXPECT_STATUS(fn, want, call)
 *       call must return the code want (LAB_OK, LAB_BAD_ARG); the message names
 *       both codes.
 *       EXPECT_STATUS("lab_softmax (n = 0)", LAB_BAD_ARG, lab_softmax(W, S, 1, 0, NULL));
 *
 *   EXPECT_CLOSE(what, want, got, n, tol)
 *       |got[k] - want[k]| <= tol for every k < n, else the message names the
 *       first k that is off: "what[k]: expected x, got y (tolerance t)".
 *       NaN never passes, and neither does an infinite want (for -inf scores
 *       use EXPECT_CLOSE_WITH and LC_INF, below).
 *       EXPECT_CLOSE("W", want, W, 4, 1e-5f);
 *
 *   EXPECT_CLOSE_REL(what, want, got, n, tol)
 *       the same with a tolerance that grows with the size of the answer:
 *       |got[k] - want[k]| <= tol * (1 + |want[k]|).
 *       EXPECT_CLOSE_REL("O", want, O, 2, 1e-5f);
 *
 *   EXPECT_CLOSE_WITH(what, want, got, n, tol, how)
 *       EXPECT_CLOSE with a rule of your choice: how is LC_ABS or LC_REL,
 *       plus LC_INF when want holds infinities (a masked score is -inf) that
 *       got must match exactly.
 *       EXPECT_CLOSE_WITH("S", want, S, 9, 0.0f, LC_ABS | LC_INF);
 *
 *   EXPECT_CLOSE_HINT(what, want, got, n, tol, how, hint)
 *       EXPECT_CLOSE_WITH that ends its message with "hint: " and hint, the
 *       advice the grader gives for the known mistake this check catches.
 *       EXPECT_CLOSE_HINT("O", want, O, 4, 1e-6f, LC_ABS, "mask with -inf, not -1e9");
 *
 *   lc_first_mismatch(want, got, n, tol, how)
 *       the index of the first k where got[k] is not close to want[k] under the
 *       rule how (as above), or -1 when all n are: for a message of your own.
 *       ck_assert_msg(lc_first_mismatch(want, O, 4, 1e-5f, LC_ABS) < 0, "tile %d: ...", tile);
 *
 *   lc_status_name(rc)
 *       a return code's name: "LAB_OK", "LAB_BAD_ARG", "LAB_NOT_IMPLEMENTED".
 *       printf("%s\n", lc_status_name(rc));
 *
 *   lc_zeros(n)
 *       n floats, all 0, from calloc (a function that writes nothing leaves
 *       zeros, never garbage); fails the test if memory runs out. free() them
 *       at the end of the test.
 *       float *S = lc_zeros((long)B * Tq * Tk);
 *
 *   lc_poison(x, n), LC_POISON
 *       fill x[0..n) with LC_POISON (-12345), a value no lab function writes, so
 *       a test can see what was written and what was left untouched.
 *       lc_poison(O, 4); ... ck_assert_msg(O[0] == LC_POISON, "O was written");
 *
 * The EXPECT_* macros are macros so that Check reports the line of your test,
 * not a line of this file.
 */
#ifndef LABCHECK_H
#define LABCHECK_H

#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "labsup.h"

/* ---- return codes --------------------------------------------------------- */

/* The name of a lab return code, for messages. */
static inline const char *lc_status_name(int rc)
{
    switch (rc) {
    case LAB_OK: return "LAB_OK";
    case LAB_NOT_IMPLEMENTED: return "LAB_NOT_IMPLEMENTED";
    case LAB_BAD_ARG: return "LAB_BAD_ARG";
    default: return "an unknown code";
    }
}

/* Fail unless call returns want; an untouched stub (LAB_NOT_IMPLEMENTED) gets
   its own message. */
#define EXPECT_STATUS(fn, want, call) do {                                          \
        int lc_rc_ = (call);                                                        \
        ck_assert_msg(lc_rc_ != LAB_NOT_IMPLEMENTED,                                \
                      "%s: not implemented yet (returned LAB_NOT_IMPLEMENTED)", (fn)); \
        ck_assert_msg(lc_rc_ == (want), "%s returned %d (%s), expected %d (%s)",    \
                      (fn), lc_rc_, lc_status_name(lc_rc_), (want),                 \
                      lc_status_name(want));                                        \
    } while (0)
#define EXPECT_OK(fn, call) EXPECT_STATUS(fn, LAB_OK, call)

/* ---- comparing float arrays ----------------------------------------------- */

/* The rule of a comparison: LC_ABS or LC_REL, optionally | LC_INF. */
#define LC_ABS 0u   /* |got - want| <= tol */
#define LC_REL 1u   /* |got - want| <= tol + tol |want| */
#define LC_INF 2u   /* an infinite want must be matched exactly */

/* Index of the first k < n where got[k] is not within the tolerance of want[k]
   under the rule how, or -1 when all n are. NaN never passes. */
static inline long lc_first_mismatch(const float *want, const float *got, long n,
                                     float tol, unsigned how)
{
    for (long k = 0; k < n; k++) {
        float allowed = (how & LC_REL) ? tol + tol * fabsf(want[k]) : tol;
        int ok = ((how & LC_INF) && isinf(want[k])) ? got[k] == want[k]
                                                    : fabsf(got[k] - want[k]) <= allowed;
        if (!ok) return k;
    }
    return -1;
}

/* Fail with the index, expected and actual value of the first mismatch, and
   hint (a known mistake that gives this failure) unless it is "". */
#define EXPECT_CLOSE_HINT(what, want, got, n, tol, how, hint) do {                  \
        long lc_k_ = lc_first_mismatch((want), (got), (n), (tol), (how));           \
        ck_assert_msg(lc_k_ < 0, "%s[%ld]: expected %.7g, got %.7g (tolerance %g%s)%s%s", \
                      (what), lc_k_, lc_k_ < 0 ? 0.0 : (double)(want)[lc_k_],       \
                      lc_k_ < 0 ? 0.0 : (double)(got)[lc_k_], (double)(tol),        \
                      ((how) & LC_REL) ? " * (1 + |expected|)" : "",                \
                      *(hint) ? "\n    hint: " : "", (hint));                       \
    } while (0)
#define EXPECT_CLOSE_WITH(what, want, got, n, tol, how) \
    EXPECT_CLOSE_HINT(what, want, got, n, tol, how, "")
#define EXPECT_CLOSE(what, want, got, n, tol) \
    EXPECT_CLOSE_WITH(what, want, got, n, tol, LC_ABS)
#define EXPECT_CLOSE_REL(what, want, got, n, tol) \
    EXPECT_CLOSE_WITH(what, want, got, n, tol, LC_REL)

/* ---- test arrays ---------------------------------------------------------- */

/* What lc_poison writes: a value no lab function produces. */
#define LC_POISON (-12345.0f)

/* n zeroed floats from calloc; the test fails if there is no memory. */
static inline float *lc_zeros(long n)
{
    float *x = calloc((size_t)n, sizeof *x);
    ck_assert_msg(x != NULL, "out of memory in the test itself");
    return x;
}

/* Fill x[0..n) with LC_POISON, to see afterwards what a function wrote. */
static inline void lc_poison(float *x, long n)
{
    for (long k = 0; k < n; k++) x[k] = LC_POISON;
}

#endif /* LABCHECK_H */
