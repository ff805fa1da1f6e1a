/* fuzz_results.c: results.json's writer and reader (report_json.c,
 * report_read.c) on any bytes.
 *
 * A results.json is written from bytes a student chose (a folder name, what
 * the compiler quotes from their file, what their program printed) and read
 * back by batch, merge, regrade and grade --test; a file the reader refuses
 * once stopped a whole class. So two promises, checked on every input:
 *   - any bytes in any field are written as a file the reader reads back,
 *     and what it reads writes the same file again;
 *   - the reader, given the input itself as a file, reads it or says
 *     "fuzz.json: ..." (never a crash), and what it reads writes a file it
 *     reads again.
 */
#include <string.h>

#include "fuzz.h"
#include "engine/json.h"
#include "report/report.h"

/* Field k of the input cut at NUL bytes (a copy, "" past the last). */
static char *field(const uint8_t *data, size_t size, int k)
{
    size_t at = 0;
    for (int i = 0; i < k && at < size; i++) {
        const uint8_t *nul = memchr(data + at, 0, size - at);
        at = nul ? (size_t)(nul - data) + 1 : size;
    }
    const uint8_t *nul = at < size ? memchr(data + at, 0, size - at) : NULL;
    size_t end = nul ? (size_t)(nul - data) : size;
    return gr_xasprintf("%.*s", (int)(end - at), (const char *)data + at);
}

/* A report of one lab, two tests, its strings the input's fields. */
static void report_of(const uint8_t *data, size_t size, gr_report *r)
{
    memset(r, 0, sizeof *r);
    r->student = field(data, size, 0);
    r->confinement = field(data, size, 1);
    r->n_labs = 1;
    r->labs = gr_xcalloc(1, sizeof *r->labs);
    gr_lab_result *l = &r->labs[0];
    l->lab = 2;
    l->name = gr_xstrdup("lab02-softmax");
    l->compile_log = field(data, size, 2);
    l->n_tests = 2;
    l->tests = gr_xcalloc(2, sizeof *l->tests);
    for (int j = 0; j < 2; j++) {
        gr_test_result *t = &l->tests[j];
        t->name = field(data, size, 3 + 3 * j);
        t->message = field(data, size, 4 + 3 * j);
        t->student_output = field(data, size, 5 + 3 * j);
        t->verdict = j ? GR_WRONG_ANSWER : GR_PASSED;
        t->max_score = 0.1 * (j + 1) + size % 7;
        t->score = j ? 0 : t->max_score;
        t->visibility = j ? GR_HIDDEN : GR_VISIBLE;
        l->score += t->score;
        l->max_score += t->max_score;
    }
    r->score = l->score;
    r->max_score = l->max_score;
}

/* text read back, written again and read again: the same file. */
static void round_trip(const char *text, const char *what)
{
    gr_report back, again;
    char err[512];
    fuzz_check(gr_report_parse_json("fuzz.json", text, strlen(text), &back, err, sizeof err) == 0,
               what);
    char *second = gr_report_json_text(&back, "fuzz secret");
    fuzz_check(gr_report_parse_json("fuzz.json", second, strlen(second), &again, err,
                                    sizeof err) == 0, "a file written from one read back does not read");
    char *third = gr_report_json_text(&again, "fuzz secret");
    fuzz_check(strcmp(second, third) == 0, "read back and written again, the file changes");
    free(second);
    free(third);
    gr_result_free(&back);
    gr_result_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gr_report r;
    report_of(data, size, &r);
    char *text = gr_report_json_text(&r, "fuzz secret");
    round_trip(text, "the writer's file does not read back");
    gr_report back;
    char err[512];
    gr_report_parse_json("fuzz.json", text, strlen(text), &back, err, sizeof err);
    char *id = gr_json_utf8_clean(r.student);
    fuzz_check(strcmp(back.student, id) == 0, "the student's id does not read back");
    free(id);
    gr_result_free(&back);
    free(text);
    gr_result_free(&r);

    /* the input itself as a results.json */
    if (gr_report_parse_json("fuzz.json", (const char *)data, size, &back, err, sizeof err) != 0) {
        fuzz_check(strncmp(err, "fuzz.json:", 10) == 0, "a refused file has no fuzz.json: message");
        return 0;
    }
    text = gr_report_json_text(&back, "fuzz secret");
    round_trip(text, "a file the reader took, written again, does not read back");
    free(text);
    gr_result_free(&back);
    return 0;
}
