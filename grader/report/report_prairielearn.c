/* report_prairielearn.c: PrairieLearn's external-grader results.json.
 *
 * The fields follow PrairieLearn's external grading reference
 * (https://docs.prairielearn.com/externalGrading/, "Grading results"):
 *
 *   {
 *     "gradable": true,
 *     "score": 0.25,                 points earned over points possible, in [0, 1]
 *     "message": "attnlab: 3.5/14.0 points on the tests you can see now",
 *     "output": "attnlab: ...",      the summary: visible tests only (gr_report_text_summary)
 *     "tests": [
 *       { "name": "lab01-scores: dot_worked_example", "points": 2, "max_points": 2,
 *         "message": "passed", "output": "passed\n" }, ...
 *       { "name": "tests not shown", "description": "...", "points": 3, "max_points": 12,
 *         "message": "", "output": "" }
 *     ],
 *     "extra_data": { "student": "s123", "practice_secret": false }
 *   }
 *
 * PrairieLearn shows students everything it renders, and it has no hidden
 * tests of its own. So only visible tests are listed one by one; every other
 * test (hidden, after_due_date, after_published) is summed into one last entry
 * that names none of them. That entry says no more than the score does (score
 * times the total, less the visible tests' points). "score" counts every test,
 * as a grade must. Strings are escaped as for Gradescope (gr_report_json_string).
 *
 * Code that does not compile is, by default, not gradable: PrairieLearn then
 * charges no attempt and shows format_errors, one per lab that did not
 * compile, with the compiler's message:
 *
 *   { "gradable": false,
 *     "format_errors": ["lab01-scores did not compile ...:\n<compiler output>"],
 *     "extra_data": { ... } }
 *
 * With compile errors graded (attnlab grade --prairielearn-compile-errors
 * graded) it is an ordinary result scoring 0 for that lab.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

/* "key": value, with the separator and newline that follow. */
static void pl_number(gr_strbuf *b, const char *indent, const char *key, double v, int last)
{
    gr_sb_printf(b, "%s\"%s\": ", indent, key);
    gr_report_json_number(b, v);
    gr_sb_append(b, last ? "\n" : ",\n");
}

static void pl_string(gr_strbuf *b, const char *indent, const char *key, const char *v, int last)
{
    gr_sb_printf(b, "%s\"%s\": ", indent, key);
    gr_report_json_string(b, v);
    gr_sb_append(b, last ? "\n" : ",\n");
}

/* One entry of "tests"; the comma before it unless it is the first. */
static void pl_test(gr_strbuf *b, int *first, const char *name, const char *description,
                    double points, double max_points, const char *message, const char *output)
{
    gr_sb_append(b, *first ? "    {\n" : ",\n    {\n");
    *first = 0;
    const char *in = "      ";
    pl_string(b, in, "name", name, 0);
    if (description)
        pl_string(b, in, "description", description, 0);
    pl_number(b, in, "points", points, 0);
    pl_number(b, in, "max_points", max_points, 0);
    pl_string(b, in, "message", message, 0);
    pl_string(b, in, "output", output, 1);
    gr_sb_append(b, "    }");
}

/* "extra_data" (student, practice secret) and the closing brace. */
static void pl_extra(gr_strbuf *b, const gr_report *r)
{
    gr_sb_append(b, "  \"extra_data\": {\n");
    pl_string(b, "    ", "student", r->student ? r->student : "", 0);
    gr_sb_printf(b, "    \"practice_secret\": %s\n  }\n}\n",
                 r->practice_secret ? "true" : "false");
}

/* The lab did not compile: every test's verdict says so. */
static int did_not_compile(const gr_lab_result *lab)
{
    for (int j = 0; j < lab->n_tests; j++)
        if (lab->tests[j].verdict != GR_COMPILE_ERROR)
            return 0;
    return lab->n_tests > 0;
}

/* The results of a submission with a lab that did not compile, gradable
   false, or NULL when every lab compiled. */
static char *not_gradable(const gr_report *r)
{
    gr_strbuf b = {0};
    int n = 0;
    for (int i = 0; i < r->n_labs; i++) {
        const gr_lab_result *lab = &r->labs[i];
        if (!did_not_compile(lab))
            continue;
        if (n++ == 0)
            gr_sb_append(&b, "{\n  \"gradable\": false,\n  \"format_errors\": [\n");
        else
            gr_sb_append(&b, ",\n");
        char *text = gr_xasprintf("%s did not compile, so it was not graded and this attempt "
                                  "does not count; fix it and submit again.%s%s",
                                  lab->name ? lab->name : "the lab",
                                  lab->compile_log ? "\ncompiler output:\n" : "",
                                  lab->compile_log ? lab->compile_log : "");
        gr_sb_append(&b, "    ");
        gr_report_json_string(&b, text);
        free(text);
    }
    if (n == 0)
        return NULL;
    gr_sb_append(&b, "\n  ],\n");
    pl_extra(&b, r);
    return gr_sb_take(&b);
}

char *gr_report_prairielearn_text(const gr_report *r, int compile_errors_graded)
{
    char *ungradable = compile_errors_graded ? NULL : not_gradable(r);
    if (ungradable)
        return ungradable;
    gr_strbuf b = {0};
    const char *in = "  ";
    char *summary = gr_report_text_summary(r, GR_SHOWN_AT_SUBMISSION);
    gr_sb_append(&b, "{\n  \"gradable\": true,\n");
    pl_number(&b, in, "score", r->max_score > 0 ? r->score / r->max_score : 0, 0);
    char *first_line = gr_xasprintf("%.*s", (int)strcspn(summary, "\n"), summary);
    pl_string(&b, in, "message", first_line, 0);
    free(first_line);
    pl_string(&b, in, "output", summary, 0);
    free(summary);

    gr_sb_append(&b, "  \"tests\": [\n");
    int first = 1;
    double unseen = 0, unseen_max = 0;
    for (int i = 0; i < r->n_labs; i++) {
        const gr_lab_result *lab = &r->labs[i];
        for (int j = 0; j < lab->n_tests; j++) {
            const gr_test_result *t = &lab->tests[j];
            if (!gr_rubric_visibility_shown(t->visibility, GR_SHOWN_AT_SUBMISSION)) {
                unseen += t->score;
                unseen_max += t->max_score;
                continue;
            }
            char *name = gr_xasprintf("%s: %s", lab->name ? lab->name : "lab",
                                      t->name ? t->name : "?");
            char *feedback = gr_report_text_feedback(lab, t);
            pl_test(&b, &first, name, NULL, t->score, t->max_score,
                    gr_result_verdict_name(t->verdict), feedback);
            free(name);
            free(feedback);
        }
    }
    if (unseen_max > 0)
        pl_test(&b, &first, "tests not shown",
                "Tests that are hidden, or shown after the due date or once grades are "
                "published: their points, no more.", unseen, unseen_max, "", "");
    gr_sb_append(&b, first ? "  ],\n" : "\n  ],\n");

    pl_extra(&b, r);
    return gr_sb_take(&b);
}

int gr_report_prairielearn(const char *path, const gr_report *r, int compile_errors_graded)
{
    return gr_report_text_write(path, gr_report_prairielearn_text(r, compile_errors_graded));
}
