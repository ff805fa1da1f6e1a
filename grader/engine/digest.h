/* digest.h: what the grading loop keeps of a mistake nobody has catalogued.
 *
 * On a test whose inputs are fixed (the same for every student: a rubric
 * `params: {seed: N}` or a worked example), identical wrong code gives
 * identical output. When such a test's wrong answer matches no misconception
 * of the lab, the grading loop keeps three things in the test's result, which
 * results.json carries in its extra_data and `attnlab batch` clusters across
 * the class (class/clusters.h):
 *
 *   digest    32 hex digits: SipHash-2-4 (two keys) of the status returned and
 *             every output rounded to 4 significant digits (NaN, +inf, -inf
 *             and |x| < 1e-6 each one canonical value), so float noise does
 *             not split students who made the same mistake. The keys are
 *             derived from the grading secret and the test, so nobody without
 *             the secret can compute a digest, let alone aim for another
 *             student's; and a digest never changes a grade.
 *   excerpt   the first mismatch, "W[0][2]: expected 0.7054, got 0.1763", or
 *             the status returned; made of numbers and the contract's names
 *             only, at most GR_EXCERPT_MAX bytes.
 *   relation  how the output relates to the expected one, when a simple
 *             relation holds (relation.h), else NULL.
 */
#ifndef GR_DIGEST_H
#define GR_DIGEST_H

#include "base/labmod.h"
#include "base/result.h"

#define GR_DIGEST_HEX 32        /* hex digits of a digest */
#define GR_EXCERPT_MAX 240      /* bytes of an excerpt or a relation, at most */

/* 1 when test t's case c is made from fixed inputs: the rubric fixes its seed,
   or c has at most GR_PROBE_MAX_ELEMS elements in all and the case made from
   another seed is the same call byte for byte (a worked example). */
#define GR_PROBE_MAX_ELEMS 65536
int gr_digest_fixed_inputs(const gr_lab_module *mod, const gr_rubric_test *t, const gr_case *c,
                           const char *secret, int lab);

/* The digest of what a student's code answered to case c (status, and got for
   each OUT/INOUT buffer, NULL when absent) into hex (GR_DIGEST_HEX + 1 bytes),
   keyed by secret, lab and test. */
void gr_digest_output(const gr_case *c, int32_t status, void *const got[PROTO_MAX_BUFS],
                      const char *secret, int lab, const char *test, char *hex);

/* The excerpt of the answer (malloc'd), and in *relation the relation its
   first wrong buffer holds to the expected one (malloc'd, or NULL). */
char *gr_digest_excerpt(const gr_case *c, int32_t status, void *const got[PROTO_MAX_BUFS],
                        double abs_tol, double rel_tol, char **relation);

/* When the wrong answer (status, got) to test t's case c matched no
   misconception (tr->misconception is NULL) and c's inputs are fixed, fill
   tr's digest, excerpt and relation; otherwise leave them NULL. */
void gr_digest_keep(const gr_lab_module *mod, const gr_rubric_test *t, const gr_case *c,
                    const char *secret, int lab, int32_t status,
                    void *const got[PROTO_MAX_BUFS], gr_test_result *tr);

#endif
