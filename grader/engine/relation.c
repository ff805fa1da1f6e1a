/* relation.c: the relation finders (see relation.h). */
#include "engine/relation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

static gr_rel_tol floor_tol(gr_rel_tol t)
{
    return (gr_rel_tol){ t.abs > GR_REL_ABS ? t.abs : GR_REL_ABS,
                         t.rel > GR_REL_REL ? t.rel : GR_REL_REL };
}

/* want and got agree: the same NaN or infinity, or within the tolerance. */
static int near(double want, double got, gr_rel_tol t)
{
    if (isnan(want) || isnan(got))
        return isnan(want) && isnan(got);
    if (isinf(want) || isinf(got))
        return want == got;
    return fabs(got - want) <= t.abs + t.rel * fabs(want);
}

static int both_finite(float a, float b)
{
    return isfinite(a) && isfinite(b);
}

/* got = want * c + d wherever both are finite, and exactly where either is not. */
static int affine_holds(const float *want, const float *got, long n, double c, double d,
                        gr_rel_tol t)
{
    for (long k = 0; k < n; k++) {
        if (!both_finite(want[k], got[k])) {
            if (!near(want[k], got[k], t))
                return 0;
        } else if (!near((double)want[k] * c + d, got[k], t)) {
            return 0;
        }
    }
    return 1;
}

int gr_relation_ratio(const float *want, const float *got, long n, gr_rel_tol tol, double *c)
{
    gr_rel_tol t = floor_tol(tol);
    long at = -1;                       /* the largest finite want: the best-conditioned ratio */
    for (long k = 0; k < n; k++)
        if (both_finite(want[k], got[k]) && want[k] != 0 &&
            (at < 0 || fabsf(want[k]) > fabsf(want[at])))
            at = k;
    if (at < 0)
        return 0;
    double r = (double)got[at] / (double)want[at];
    if (!isfinite(r) || fabs(r - 1.0) <= t.rel || !affine_holds(want, got, n, r, 0.0, t))
        return 0;
    *c = r;
    return 1;
}

int gr_relation_shift(const float *want, const float *got, long n, gr_rel_tol tol, double *c)
{
    gr_rel_tol t = floor_tol(tol);
    long at = -1;
    for (long k = 0; k < n && at < 0; k++)
        if (both_finite(want[k], got[k]))
            at = k;
    if (at < 0)
        return 0;
    double d = (double)got[at] - (double)want[at];
    if (fabs(d) <= t.abs + t.rel * fabs((double)want[at]) || !affine_holds(want, got, n, 1.0, d, t))
        return 0;
    *c = d;
    return 1;
}

/* Some position of got differs from want: a relation of a right answer to
   itself (a symmetric matrix is its transpose) names no mistake. */
static int differs(const float *want, const float *got, long n, gr_rel_tol t)
{
    for (long k = 0; k < n; k++)
        if (!near(want[k], got[k], t))
            return 1;
    return 0;
}

int gr_relation_transpose(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol)
{
    gr_rel_tol t = floor_tol(tol);
    if (sh.rows < 2 || sh.cols < 2 || !differs(want, got, sh.mats * sh.rows * sh.cols, t))
        return 0;
    long plane = sh.rows * sh.cols;
    for (long m = 0; m < sh.mats; m++)
        for (long i = 0; i < sh.rows; i++)
            for (long j = 0; j < sh.cols; j++)
                if (!near(want[m * plane + i * sh.cols + j], got[m * plane + j * sh.rows + i], t))
                    return 0;
    return 1;
}

/* Row a of got equals row b of want (both global row numbers). */
static int rows_equal(const float *want, const float *got, long cols, long a, long b, gr_rel_tol t)
{
    for (long j = 0; j < cols; j++)
        if (!near(want[b * cols + j], got[a * cols + j], t))
            return 0;
    return 1;
}

/* Every got row i of each matrix is want row i + k (wrapping when cyclic);
   *compared counts the rows checked. */
static int shifted_by(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol t, long k,
                      int cyclic, long *compared)
{
    *compared = 0;
    for (long m = 0; m < sh.mats; m++)
        for (long i = 0; i < sh.rows; i++) {
            long src = i + k;
            if (cyclic)
                src = ((src % sh.rows) + sh.rows) % sh.rows;
            else if (src < 0 || src >= sh.rows)
                continue;
            if (!rows_equal(want, got, sh.cols, m * sh.rows + i, m * sh.rows + src, t))
                return 0;
            (*compared)++;
        }
    return 1;
}

int gr_relation_row_shift(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol,
                          long *k, int *cyclic)
{
    gr_rel_tol t = floor_tol(tol);
    if (sh.rows < 2 || sh.rows * sh.rows * sh.cols > GR_REL_WORK / (sh.mats > 0 ? sh.mats : 1))
        return 0;
    long total = sh.rows * sh.mats, n;
    if (!differs(want, got, total * sh.cols, t))
        return 0;
    for (int cyc = 1; cyc >= 0; cyc--)
        for (long s = 1; s < sh.rows; s++)
            for (int sign = 1; sign >= -1; sign -= 2) {
                if (cyc && sign < 0)          /* a cyclic -s is the cyclic rows - s */
                    continue;
                if (shifted_by(want, got, sh, t, sign * s, cyc, &n) &&
                    (cyc || (n >= 2 && 2 * n >= total))) {
                    *k = sign * s;
                    *cyclic = cyc;
                    return 1;
                }
            }
    return 0;
}

int gr_relation_rows(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol,
                     long *perm)
{
    gr_rel_tol t = floor_tol(tol);
    if (sh.rows < 2 || sh.mats < 1 || sh.rows * sh.rows * sh.cols > GR_REL_WORK / sh.mats)
        return 0;
    char *used = gr_xcalloc((size_t)sh.rows, 1);
    int ok = 1, moved = 0;
    for (long m = 0; m < sh.mats && ok; m++) {
        memset(used, 0, (size_t)sh.rows);
        for (long i = 0; i < sh.rows && ok; i++) {
            long found = -1;
            /* the same row first, so equal rows are not counted as moved */
            if (rows_equal(want, got, sh.cols, m * sh.rows + i, m * sh.rows + i, t) && !used[i])
                found = i;
            for (long r = 0; r < sh.rows && found < 0; r++)
                if (!used[r] && rows_equal(want, got, sh.cols, m * sh.rows + i, m * sh.rows + r, t))
                    found = r;
            if (found < 0)
                ok = 0;
            else {
                used[found] = 1;
                perm[m * sh.rows + i] = found;
                moved |= found != i;
            }
        }
    }
    free(used);
    return ok && moved;
}

/* "%.4g" of x, with -0 as 0. */
static void put_num(char *buf, size_t len, double x)
{
    snprintf(buf, len, "%.4g", x == 0 ? 0.0 : x);
}

/* The permutation of the first matrix's rows as "2, 0, 1, ..." (at most 8). */
static void put_perm(char *buf, size_t len, const long *perm, long rows)
{
    size_t at = 0;
    buf[0] = '\0';
    for (long i = 0; i < rows && i < 8 && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%ld", i ? ", " : "", perm[i]);
    if (rows > 8 && at < len)
        snprintf(buf + at, len - at, ", ...");
}

int gr_relation_name(const float *want, const float *got, gr_rel_shape sh, gr_rel_tol tol,
                     char *out, size_t outlen)
{
    long n = sh.mats * sh.rows * sh.cols, k;
    double c;
    int cyclic;
    char num[32];
    out[0] = '\0';
    if (n <= 0)
        return 0;
    if (gr_relation_ratio(want, got, n, tol, &c)) {
        put_num(num, sizeof num, c);
        if (c == 0)
            snprintf(out, outlen, "every value is 0 where the expected is finite");
        else
            snprintf(out, outlen, "every value is %s x the expected", num);
    } else if (gr_relation_shift(want, got, n, tol, &c)) {
        put_num(num, sizeof num, fabs(c));
        snprintf(out, outlen, "every value is the expected %s %s", c < 0 ? "-" : "+", num);
    } else if (gr_relation_transpose(want, got, sh, tol)) {
        snprintf(out, outlen, "the transpose of the expected (its last two dimensions swapped)");
    } else if (gr_relation_row_shift(want, got, sh, tol, &k, &cyclic)) {
        snprintf(out, outlen, "the expected rows shifted by %ld%s: row i holds expected row i %s %ld",
                 k, cyclic ? ", wrapping round" : "", k < 0 ? "-" : "+", labs(k));
    } else {
        long *perm = sh.rows >= 2 ? gr_xcalloc((size_t)(sh.rows * sh.mats), sizeof *perm) : NULL;
        if (perm && gr_relation_rows(want, got, sh, tol, perm)) {
            char list[96];
            put_perm(list, sizeof list, perm, sh.rows);
            snprintf(out, outlen, "the expected rows in another order: rows %s of the expected", list);
        }
        free(perm);
    }
    return out[0] != '\0';
}
