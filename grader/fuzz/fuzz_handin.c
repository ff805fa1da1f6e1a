/* fuzz_handin.c: the hand-in readers (grader/class/handin.c) on any bytes.
 *
 * A Gradescope export's submission_metadata.yml and an instructor's times
 * file (YAML, or CSV by its name) name students and give their hand-in times.
 * The same bytes go to all three readers. Each must turn every mistake into
 * "path:line:column: what is wrong" (or "path: ..." for the whole file) and
 * never crash; what loads must hold what handin.h promises: every folder and
 * student id usable as a folder name and a gradebook cell, every submission
 * with a submitter, no id given a time twice.
 */
#include <string.h>

#include "class/handin.h"
#include "fuzz.h"

static void check_export(const uint8_t *data, size_t size)
{
    gr_handin x;
    char err[512];
    if (gr_handin_parse("fuzz.yml", (const char *)data, size, &x, err, sizeof err) != 0) {
        fuzz_check(strncmp(err, "fuzz.yml:", 9) == 0 && strlen(err) > 12,
                   "a rejected export has no file:line:column message");
        return;
    }
    for (int i = 0; i < x.n; i++) {
        const gr_handin_sub *s = &x.subs[i];
        fuzz_check(gr_id_ok(s->folder), "a loaded submission's folder is no folder name");
        fuzz_check(s->n_who > 0 || !s->who, "a submission with no submitter has a list of them");
        for (int k = 0; k < s->n_who; k++)
            fuzz_check(gr_id_ok(s->who[k].id) && s->who[k].name && s->who[k].email,
                       "a loaded submitter's id cannot name a student");
        fuzz_check(gr_handin_find(&x, s->folder) != NULL, "a loaded folder is not found");
    }
    gr_handin_free(&x);
}

static void check_times(const char *path, const uint8_t *data, size_t size)
{
    gr_times t;
    char err[512];
    size_t n = strlen(path);
    if (gr_times_parse(path, (const char *)data, size, &t, err, sizeof err) != 0) {
        fuzz_check(strncmp(err, path, n) == 0 && err[n] == ':' && strlen(err) > n + 3,
                   "a rejected times file has no file:line:column message");
        return;
    }
    for (int i = 0; i < t.n; i++) {
        fuzz_check(gr_id_ok(t.e[i].id), "a loaded time's id cannot name a student");
        fuzz_check(gr_times_find(&t, t.e[i].id) == &t.e[i], "an id has two times");
    }
    gr_times_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check_export(data, size);
    check_times("fuzz.yaml", data, size);
    check_times("fuzz.csv", data, size);
    return 0;
}
