/* fuzz_rubric.c: the YAML rubric loader (grader/base/rubric.c) on any bytes.
 *
 * Rubrics are written by instructors, by hand: the loader must turn every
 * mistake into "path:line:column: what is wrong" and never crash. The input is
 * the rubric's text, given to gr_rubric_parse as it is (no NUL at the end).
 * A rubric that loads must hold what rubric.h promises: a lab number, a name,
 * a source, at least one test, and positive limits on every test.
 */
#include <string.h>

#include "base/rubric.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gr_rubric r;
    char err[512];
    if (gr_rubric_parse("fuzz.yaml", (const char *)data, size, &r, err, sizeof err) != 0) {
        /* every failure says where and what: "fuzz.yaml:LINE:COL: ..." */
        fuzz_check(strncmp(err, "fuzz.yaml:", 10) == 0 && strlen(err) > 15,
                   "a rejected rubric has no file:line:column message");
        return 0;
    }
    fuzz_check(r.lab >= 1 && r.lab <= 99 && r.name && r.source && r.n_tests >= 1,
               "a loaded rubric lacks lab, name, source or tests");
    for (int i = 0; i < r.n_tests; i++) {
        const gr_rubric_test *t = &r.tests[i];
        fuzz_check(t->name && t->kind && t->points >= 0 && t->abs_tol >= 0 && t->rel_tol >= 0,
                   "a loaded test lacks a name or kind, or has negative points or tolerance");
        fuzz_check(t->limits.time_ms > 0 && t->limits.memory_bytes > 0 &&
                   t->limits.output_bytes > 0, "a loaded test has a limit that is not positive");
        fuzz_check(t->n_params >= 0 && t->n_params <= GR_MAX_PARAMS, "too many params");
        for (int j = 0; j < i; j++)
            fuzz_check(strcmp(r.tests[j].name, t->name) != 0, "two tests share a name");
    }
    gr_rubric_free(&r);
    return 0;
}
