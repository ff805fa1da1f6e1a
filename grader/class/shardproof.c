/* shardproof.c: a shard's results proved before merge (see shardproof.h). */
#include "class/shardproof.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "class/batch_opts.h"
#include "class/key.h"
#include "base/layout.h"
#include "report/report.h"
#include "base/util.h"

int gr_shardproof_load(gr_shard_proof *p, const gr_run *run, const char *root,
                        const char *rubrics, const char *secret, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->secret = secret;
    char *sd = gr_run_secret_check(secret);
    int same = strcmp(sd, run->secret) == 0;
    free(sd);
    if (!same) {
        gr_set_err(err, errlen, "ATTNLAB_SECRET is not the secret the shards were graded with: "
                   "set it to the course's secret (merge checks every results.json's signature "
                   "with it)");
        return -1;
    }
    gr_batch_opts o = {.root = root, .rubrics = rubrics};
    memcpy(o.labs, run->labs, sizeof o.labs);
    char *rd = gr_run_rubrics_digest(&o);
    same = strcmp(rd, run->rubrics) == 0;
    free(rd);
    if (!same) {
        gr_set_err(err, errlen, "the shards were graded with other rubrics or contract headers "
                   "than merge finds in %s: give merge the --rubrics DIR the batch had",
                   rubrics ? rubrics : "the course");
        return -1;
    }
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!run->labs[lab - 1])
            continue;
        char *path = gr_layout_rubric_from(root, rubrics, lab);
        int rc = gr_rubric_load(path, &p->rubric[lab - 1], err, errlen);
        free(path);
        if (rc != 0) {
            gr_shardproof_free(p);
            return -1;
        }
        p->have[lab - 1] = 1;
    }
    return 0;
}

/* The test of lab result l named name, or NULL; *dups counts the others. */
static const gr_test_result *find_test(const gr_lab_result *l, const char *name, int *dups)
{
    const gr_test_result *t = NULL;
    *dups = 0;
    for (int j = 0; j < l->n_tests; j++)
        if (strcmp(l->tests[j].name, name) == 0) {
            *dups += t != NULL;
            t = &l->tests[j];
        }
    return t;
}

/* l holds exactly rubric r's tests, with its points and visibility. 0 or -1. */
static int lab_fits(const gr_lab_result *l, const gr_rubric *r, char *why, size_t whylen)
{
    for (int k = 0; k < r->n_tests; k++) {
        const gr_rubric_test *rt = &r->tests[k];
        int dups;
        const gr_test_result *t = find_test(l, rt->name, &dups);
        if (!t || dups) {
            gr_set_err(why, whylen, "lab %d's test %s is %s", l->lab, rt->name,
                       t ? "there more than once" : "missing");
            return -1;
        }
        if (fabs(t->max_score - rt->points) > 1e-9 || t->visibility != rt->visibility) {
            gr_set_err(why, whylen, "lab %d's test %s is worth %g (%s) where the rubric says "
                       "%g (%s)", l->lab, rt->name, t->max_score,
                       gr_rubric_visibility_name(t->visibility), rt->points,
                       gr_rubric_visibility_name(rt->visibility));
            return -1;
        }
    }
    if (l->n_tests != r->n_tests) {
        gr_set_err(why, whylen, "lab %d holds %d tests where its rubric has %d", l->lab,
                   l->n_tests, r->n_tests);
        return -1;
    }
    return 0;
}

int gr_shardproof_check(const gr_shard_proof *p, const char *path, const gr_report *r,
                         char *why, size_t whylen)
{
    if (gr_report_json_signature(path, p->secret, why, whylen) != 0)
        return -1;
    for (int i = 0; i < r->n_labs; i++) {
        const gr_lab_result *l = &r->labs[i];
        if (!p->have[l->lab - 1]) {
            gr_set_err(why, whylen, "it holds lab %d, which the run did not grade", l->lab);
            return -1;
        }
        if (lab_fits(l, &p->rubric[l->lab - 1], why, whylen) != 0)
            return -1;
    }
    return 0;
}

void gr_shardproof_free(gr_shard_proof *p)
{
    for (int i = 0; i < GR_N_LABS; i++)
        if (p->have[i])
            gr_rubric_free(&p->rubric[i]);
    memset(p, 0, sizeof *p);
}
