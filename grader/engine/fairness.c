/* fairness.c: one lab's score under several seed draws, each test run only
 * for the draws whose inputs differ (see fairness.h). */
#include "engine/fairness.h"
#include "base/layout.h"

#include <stdlib.h>
#include <string.h>

#include "confined/build.h"
#include "engine/judge.h"
#include "base/stop.h"

/* The case of test t for draw d (in c) as request bytes (malloc'd in *req) with
   its expected status appended: two draws with equal bytes get the same
   verdict. 0, or GR_STATUS_BAD_INPUT with err. */
static int make_request(const gr_lab_module *mod, int lab, const gr_rubric_test *t,
                        const gr_draw *d, gr_case *c, unsigned char **req, size_t *len,
                        char *err, size_t errlen)
{
    char cerr[512];
    memset(c, 0, sizeof *c);
    if (mod->make_case(t, gr_test_seed(t, d->secret, d->student, lab), c, cerr,
                       sizeof cerr) != 0) {
        gr_set_err(err, errlen, "test '%s': %s", t->name, cerr);
        return GR_STATUS_BAD_INPUT;
    }
    if (proto_encode_request(&c->call, req, len) != 0) {
        gr_set_err(err, errlen, "test '%s': its case is not a well-formed call", t->name);
        return GR_STATUS_BAD_INPUT;
    }
    *req = gr_xrealloc(*req, *len + sizeof c->expected_status);
    memcpy(*req + *len, &c->expected_status, sizeof c->expected_status);
    *len += sizeof c->expected_status;
    return 0;
}

/* What one test gave under every draw. */
typedef struct test_draws {
    int fixed;          /* every draw's request is the first's */
    int varying;        /* the points differ between draws */
    int failed;         /* some draw lost the points */
} test_draws;

/* Points of test t under each draw, added to f->scores[0..n). */
static int grade_test(const char *exe, const gr_lab_module *mod, int lab,
                      const gr_rubric_test *t, const gr_draw *draws, int n, gr_fairness *f,
                      test_draws *td, char *err, size_t errlen)
{
    unsigned char *first = NULL;
    size_t first_len = 0;
    double first_points = 0;
    int rc = 0;
    *td = (test_draws){ 1, 0, 0 };
    for (int k = 0; k < n && rc == 0; k++) {
        gr_case c;
        unsigned char *req = NULL;
        size_t len = 0;
        rc = make_request(mod, lab, t, &draws[k], &c, &req, &len, err, errlen);
        double points = first_points;
        int same = first && len == first_len && memcmp(req, first, len) == 0;
        if (rc == 0 && !same) {
            gr_outcome oc;
            if (gr_judge_case(exe, mod, t, &c, &oc, err, errlen) != 0) {
                rc = gr_stop_requested() ? GR_STATUS_STOPPED : GR_STATUS_FAILED;
            } else {
                points = oc.verdict == GR_PASSED ? t->points : 0;
                gr_judge_outcome_free(&oc);
                f->runs++;
            }
        }
        if (rc == 0) {
            f->scores[k] += points;
            td->fixed &= k == 0 || same;
            td->varying |= k > 0 && points != first_points;
            td->failed |= points < t->points;
            if (!first) {
                first = req, first_len = len, first_points = points;
                req = NULL;
            }
        }
        free(req);
        gr_case_free(&c);
    }
    free(first);
    return rc;
}

/* Append name to the ", "-separated list *list. */
static void list_add(char **list, const char *name)
{
    char *s = *list ? gr_xasprintf("%s, %s", *list, name) : gr_xstrdup(name);
    free(*list);
    *list = s;
}

int gr_fairness_grade(const gr_grade_opts *base, int lab, const char *src,
                      const gr_draw *draws, int n, gr_fairness *out, char *err, size_t errlen)
{
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    memset(out, 0, sizeof *out);
    out->scores = gr_xcalloc((size_t)(n > 0 ? n : 1), sizeof *out->scores);
    char *path = gr_layout_rubric_from(base->root, base->rubrics, lab);
    gr_rubric r;
    int rc = gr_rubric_load(path, &r, err, errlen);
    free(path);
    if (rc != 0)
        return GR_STATUS_BAD_INPUT;
    char *work = gr_workdir_make("fairness", err, errlen);
    if (!work) {
        gr_rubric_free(&r);
        return GR_STATUS_FAILED;
    }
    gr_paths paths = { .root = base->root, .child_dir = base->child_dir, .work_dir = work };
    gr_build b;
    if (base->built[lab - 1])             /* already built by the caller */
        gr_build_copy(base->built[lab - 1], &b);
    else
        rc = gr_build_lab(&r, mod->dir, src, &paths, &b, err, errlen) != 0 ? GR_STATUS_FAILED : 0;
    for (int i = 0; rc == 0 && b.ok && i < r.n_tests; i++) {
        test_draws td;
        rc = grade_test(b.exe, mod, lab, &r.tests[i], draws, n, out, &td, err, errlen);
        if (rc == 0 && gr_stop_requested())
            rc = GR_STATUS_STOPPED;
        if (rc != 0)
            break;
        if (td.fixed)
            out->fixed_points += r.tests[i].points;
        if (td.varying)
            list_add(&out->varying, r.tests[i].name);
        if (td.fixed && td.failed && r.tests[i].points > 0)
            list_add(&out->fixed_failed, r.tests[i].name);
    }
    gr_build_free(&b);
    gr_workdir_remove(work);
    gr_rubric_free(&r);
    return rc;
}

void gr_fairness_free(gr_fairness *f)
{
    free(f->scores);
    free(f->varying);
    free(f->fixed_failed);
    memset(f, 0, sizeof *f);
}
