/* report_json.c: Gradescope's results.json.
 *
 * The fields follow Gradescope's autograder specification
 * (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
 *
 *   {
 *     "score": 3.5,                  total points earned (overrides the tests' sum)
 *     "max_score": 15.5,             total points possible
 *     "execution_time": 2,           whole seconds of the grading run
 *     "output": "attnlab: ...",      the summary students always see: the points of
 *                                    the visible tests only, in all and per lab
 *                                    (gr_report_text_summary), never a hidden test's
 *     "visibility": "visible",       the default of tests that set none
 *     "stdout_visibility": "hidden", the grader's own stdout may describe hidden
 *                                    tests, so students never see it
 *     "extra_data": { "student": "s123", "practice_secret": false,
 *                     "toolchain_confinement": "user nobody, mount+network namespace, ...",
 *                     "test_sandbox": "user nobody, seccomp allow-list ..." },
 *                                    who was graded, whether with the public practice
 *                                    secret, and which kernel walls were up; after a
 *                                    regrade also "regrades": [{"when", "lab", "test",
 *                                    "old", "new", "reason", "change"}] (regrade.h)
 *     "tests": [ { "name": "lab01-scores: dot_worked_example", "number": "1.1",
 *                  "score": 2, "max_score": 2, "status": "passed",
 *                  "visibility": "visible", "output": "passed\n",
 *                  "output_format": "text",
 *                  "extra_data": { "lab": 1, "test": "dot_worked_example",
 *                                  "verdict": "passed", "misconception": null } },
 *                ...,
 *                { "name": "Your grade", "score": 0, "max_score": 0,
 *                  "visibility": "after_published", "output": "Final score: ...",
 *                  "extra_data": { "grade": true } } ]
 *   }
 *
 * "score" counts every test, as the grade must; each test's "visibility" is the
 * rubric's (visible, hidden, after_due_date, after_published), and Gradescope
 * shows a test's name, score and output only when that visibility allows.
 * A test's extra_data is the same facts as structured data, so tools count
 * them without parsing text (attnlab batch's class report ranks
 * misconceptions by it, and reads results.json back with report_read.c):
 * the lab number, the rubric's test name, the verdict's name (result.h) and
 * the id of the misconception the wrong answer matched (labmod.h), or null;
 * and for a wrong answer on fixed inputs that matched none, "digest",
 * "excerpt" and "relation" (digest.h), which attnlab batch clusters.
 *
 * When some tests are not visible at submission, a last entry of no points,
 * shown once grades are published, gives the grade as feedback.txt opens with
 * it: the final score and the hidden tests' count and points earned
 * (gr_report_text_grade_header); readers skip it.
 *
 * "number" is lab.test (1-based), so Gradescope sorts tests by lab. Test output
 * is plain text ("output_format": "text"), so nothing a student's program
 * printed is ever rendered as HTML or Markdown. Gradescope rejects a file that
 * is not valid JSON, so strings are escaped strictly and invalid UTF-8 becomes
 * U+FFFD; numbers are written with the fewest digits that read back exactly.
 */
#include "report/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gr_report_json_string(gr_strbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    gr_sb_append(b, "\"");
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        int len = gr_report_text_utf8_decode(p + i, n - i, &cp);
        if (len == 0) {                       /* invalid byte: one U+FFFD each */
            gr_sb_append(b, "\\ufffd");
            i++;
            continue;
        }
        switch (cp) {
        case '"':  gr_sb_append(b, "\\\""); break;
        case '\\': gr_sb_append(b, "\\\\"); break;
        case '\n': gr_sb_append(b, "\\n"); break;
        case '\r': gr_sb_append(b, "\\r"); break;
        case '\t': gr_sb_append(b, "\\t"); break;
        default:
            if (cp < 0x20 || cp == 0x7f)
                gr_sb_printf(b, "\\u%04x", (unsigned)cp);
            else if (cp == 0x2028 || cp == 0x2029)   /* line separators break some JS readers */
                gr_sb_printf(b, "\\u%04x", (unsigned)cp);
            else
                gr_sb_appendn(b, (const char *)p + i, (size_t)len);
        }
        i += (size_t)len;
    }
    gr_sb_append(b, "\"");
}

void gr_report_json_number(gr_strbuf *b, double x)
{
    if (!isfinite(x)) {
        gr_sb_append(b, "0");
        return;
    }
    char buf[40];
    if (x == floor(x) && fabs(x) < 1e15) {
        snprintf(buf, sizeof buf, "%.0f", x);  /* whole points read as 10, not 1e+01 */
        gr_sb_append(b, buf);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    gr_sb_append(b, buf);
}

static void field_string(gr_strbuf *b, const char *indent, const char *key, const char *value,
                         int last)
{
    gr_sb_printf(b, "%s\"%s\": ", indent, key);
    gr_report_json_string(b, value);
    gr_sb_append(b, last ? "\n" : ",\n");
}

static void field_number(gr_strbuf *b, const char *indent, const char *key, double value)
{
    gr_sb_printf(b, "%s\"%s\": ", indent, key);
    gr_report_json_number(b, value);
    gr_sb_append(b, ",\n");
}

/* A test's digest, excerpt and relation (null when none), for the class's
   clusters (class/clusters.h). */
static void cluster_fields(gr_strbuf *b, const gr_test_result *t)
{
    gr_sb_append(b, ", \"digest\": ");
    gr_report_json_string(b, t->digest);
    gr_sb_append(b, ", \"excerpt\": ");
    gr_report_json_string(b, t->excerpt ? t->excerpt : "");
    gr_sb_append(b, ", \"relation\": ");
    if (t->relation)
        gr_report_json_string(b, t->relation);
    else
        gr_sb_append(b, "null");
}

static void test_object(gr_strbuf *b, const gr_lab_result *lab, int j, int last)
{
    const gr_test_result *t = &lab->tests[j];
    const char *in = "      ";
    char *name = gr_xasprintf("%s: %s", lab->name ? lab->name : "lab", t->name ? t->name : "?");
    char number[32];
    snprintf(number, sizeof number, "%d.%d", lab->lab, j + 1);
    char *feedback = gr_report_text_feedback(lab, t);

    gr_sb_append(b, "    {\n");
    field_string(b, in, "name", name, 0);
    field_string(b, in, "number", number, 0);
    field_number(b, in, "score", t->score);
    field_number(b, in, "max_score", t->max_score);
    field_string(b, in, "status", t->verdict == GR_PASSED ? "passed" : "failed", 0);
    field_string(b, in, "visibility", gr_rubric_visibility_name(t->visibility), 0);
    field_string(b, in, "output", feedback, 0);
    field_string(b, in, "output_format", "text", 0);
    gr_sb_printf(b, "%s\"extra_data\": {\"lab\": %d, \"test\": ", in, lab->lab);
    gr_report_json_string(b, t->name ? t->name : "?");
    gr_sb_append(b, ", \"verdict\": ");
    gr_report_json_string(b, gr_result_verdict_name(t->verdict));
    gr_sb_append(b, ", \"misconception\": ");
    if (t->misconception)
        gr_report_json_string(b, t->misconception);
    else
        gr_sb_append(b, "null");
    if (t->digest)                   /* an uncatalogued mistake on fixed inputs (digest.h) */
        cluster_fields(b, t);
    gr_sb_append(b, "}\n");
    gr_sb_append(b, last ? "    }\n" : "    },\n");
    free(name);
    free(feedback);
}

/* The grade as the student's feedback opens with it (the final score, the
   hidden tests' count and points), as a test of no points that Gradescope
   shows only once grades are published; extra_data "grade" tells readers
   (report_read.c) it is no test. */
static void grade_object(gr_strbuf *b, const gr_report *r)
{
    const char *in = "      ";
    char *text = gr_report_text_grade_header(r, r->score, r->max_score, NULL);
    gr_sb_append(b, "    {\n");
    field_string(b, in, "name", "Your grade", 0);
    field_number(b, in, "score", 0);
    field_number(b, in, "max_score", 0);
    field_string(b, in, "visibility", "after_published", 0);
    field_string(b, in, "output", text, 0);
    field_string(b, in, "output_format", "text", 0);
    gr_sb_printf(b, "%s\"extra_data\": {\"grade\": true}\n    }\n", in);
    free(text);
}

/* A score, or null when the test had none (added, or removed, by the regrade). */
static void score_or_null(gr_strbuf *b, int has, double x)
{
    if (has)
        gr_report_json_number(b, x);
    else
        gr_sb_append(b, "null");
}

/* extra_data's "regrades": every regrade of the student's results, oldest first. */
static void regrades_array(gr_strbuf *b, const gr_report *r)
{
    gr_sb_append(b, "    \"regrades\": [\n");
    for (int i = 0; i < r->n_regrades; i++) {
        const gr_regrade *g = &r->regrades[i];
        gr_sb_append(b, "      {\"when\": ");
        gr_report_json_string(b, g->when ? g->when : "");
        gr_sb_printf(b, ", \"lab\": %d, \"test\": ", g->lab);
        gr_report_json_string(b, g->test ? g->test : "");
        gr_sb_append(b, ", \"old\": ");
        score_or_null(b, g->has_old, g->old_score);
        gr_sb_append(b, ", \"new\": ");
        score_or_null(b, g->has_new, g->new_score);
        gr_sb_append(b, ", \"reason\": ");
        gr_report_json_string(b, g->reason ? g->reason : "");
        gr_sb_append(b, ", \"change\": ");
        if (g->change)
            gr_report_json_string(b, g->change);
        else
            gr_sb_append(b, "null");
        gr_sb_append(b, i + 1 < r->n_regrades ? "},\n" : "}\n");
    }
    gr_sb_append(b, "    ]\n");
}

char *gr_report_json_text(const gr_report *r)
{
    gr_strbuf b = {0};
    const char *in = "  ";
    gr_sb_append(&b, "{\n");
    field_number(&b, in, "score", r->score);
    field_number(&b, in, "max_score", r->max_score);
    field_number(&b, in, "execution_time", r->seconds > 0 ? floor(r->seconds + 0.5) : 0);
    char *out = gr_report_text_summary(r, GR_SHOWN_AT_SUBMISSION);
    field_string(&b, in, "output", out, 0);
    free(out);
    field_string(&b, in, "visibility", "visible", 0);
    field_string(&b, in, "stdout_visibility", "hidden", 0);
    gr_sb_append(&b, "  \"extra_data\": {\n");
    field_string(&b, "    ", "student", r->student ? r->student : "", 0);
    gr_sb_printf(&b, "    \"practice_secret\": %s,\n", r->practice_secret ? "true" : "false");
    field_string(&b, "    ", "toolchain_confinement", r->confinement ? r->confinement : "", 0);
    field_string(&b, "    ", "test_sandbox", r->sandbox ? r->sandbox : "", !r->n_regrades);
    if (r->n_regrades)
        regrades_array(&b, r);
    gr_sb_append(&b, "  },\n");

    int total = 0, unseen = 0;
    for (int i = 0; i < r->n_labs; i++)
        for (int j = 0; j < r->labs[i].n_tests; j++) {
            total++;
            unseen += !gr_rubric_visibility_shown(r->labs[i].tests[j].visibility, GR_SHOWN_AT_SUBMISSION);
        }
    gr_sb_append(&b, total ? "  \"tests\": [\n" : "  \"tests\": []\n");
    int k = 0;
    for (int i = 0; i < r->n_labs; i++)
        for (int j = 0; j < r->labs[i].n_tests; j++)
            test_object(&b, &r->labs[i], j, ++k == total && !unseen);
    if (unseen)
        grade_object(&b, r);
    if (total)
        gr_sb_append(&b, "  ]\n");
    gr_sb_append(&b, "}\n");
    return gr_sb_take(&b);
}

int gr_report_json(const char *path, const gr_report *r)
{
    return gr_report_text_write(path, gr_report_json_text(r));
}
