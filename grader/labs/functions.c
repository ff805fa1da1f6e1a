/* functions.c: looking up the labs' student functions and misconceptions. The
 * tables themselves are generated from the labs' manifests (build/gen/labs_gen.c,
 * see labmod.h). The reports use them to point a wrong answer at its section
 * and to say "fix X first" when a function fails through one it calls. */
#include "base/labmod.h"

#include <math.h>
#include <string.h>

const gr_lab_function *gr_lab_function_named(int lab, const char *name, size_t len)
{
    for (int k = 0; k < gr_n_lab_functions; k++) {
        const gr_lab_function *f = &gr_lab_functions[k];
        if (f->lab == lab && strlen(f->name) == len && strncmp(f->name, name, len) == 0)
            return f;
    }
    return NULL;
}

const gr_lab_function *gr_lab_function_of(int lab, const char *message)
{
    if (!message)
        return NULL;
    /* feedback opens with the call: "lab_softmax(W, S, ...)" or "lab_softmax still ..." */
    return gr_lab_function_named(lab, message, strcspn(message, "(:, \n"));
}

double gr_lab_points(int lab)
{
    double sum = 0;
    for (int k = 0; k < gr_n_lab_functions; k++)
        sum += gr_lab_functions[k].lab == lab ? gr_lab_functions[k].points : 0;
    return sum;
}

const gr_misconception *gr_misconception_of(int lab, const char *id)
{
    if (lab < 1 || lab > GR_N_LABS || !id)
        return NULL;
    const gr_lab_module *m = gr_lab_modules[lab - 1];
    for (int i = 0; i < m->n_misconceptions; i++)
        if (strcmp(m->misconceptions[i].id, id) == 0)
            return &m->misconceptions[i];
    return NULL;
}

int gr_lab_function_points_check(int lab, const gr_rubric *r, char *err, size_t errlen)
{
    if (lab < 1 || lab > GR_N_LABS)
        return gr_set_err(err, errlen, "no lab %d", lab), -1;
    double sum[GR_MAX_LAB_FUNCTIONS] = {0};
    const gr_lab_function *fns[GR_MAX_LAB_FUNCTIONS];
    int n = 0;
    for (int k = 0; k < gr_n_lab_functions && n < GR_MAX_LAB_FUNCTIONS; k++)
        if (gr_lab_functions[k].lab == lab)
            fns[n++] = &gr_lab_functions[k];
    for (int i = 0; i < r->n_tests; i++) {
        const gr_rubric_test *t = &r->tests[i];
        gr_case c;
        char why[512];
        if (gr_lab_modules[lab - 1]->make_case(t, 1, &c, why, sizeof why) != 0)
            return gr_set_err(err, errlen, "%s:%d: test %s: %s", r->path, t->line, t->name,
                              why), -1;
        int k = 0;
        while (k < n && !(c.call.fn >= fns[k]->first_call &&
                          c.call.fn < fns[k]->first_call + fns[k]->n_calls))
            k++;
        uint32_t fn = c.call.fn;
        gr_case_free(&c);
        if (k == n)
            return gr_set_err(err, errlen, "%s:%d: test %s makes call %u, which is no "
                              "function of lab %d's manifest", r->path, t->line, t->name, fn,
                              lab), -1;
        sum[k] += t->points;
    }
    for (int k = 0; k < n; k++)
        if (fabs(sum[k] - fns[k]->points) > 1e-9)
            return gr_set_err(err, errlen, "%s: the tests that call %s are worth %g points, "
                              "its manifest says %g", r->path, fns[k]->name, sum[k],
                              fns[k]->points), -1;
    return 0;
}
