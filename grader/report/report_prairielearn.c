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
 * as a grade must. Written through Jansson, as Gradescope's file is (json.h).
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

#include "engine/json.h"

/* One entry of "tests". */
static json_t *pl_test(const char *name, const char *description, double points,
                       double max_points, const char *message, const char *output)
{
    json_t *o = json_object();
    gr_json_put(o, "name", gr_json_text(name));
    if (description)
        gr_json_put(o, "description", gr_json_text(description));
    gr_json_put(o, "points", gr_json_points(points));
    gr_json_put(o, "max_points", gr_json_points(max_points));
    gr_json_put(o, "message", gr_json_text(message));
    gr_json_put(o, "output", gr_json_text(output));
    return o;
}

/* "extra_data" (student, practice secret) into root, then root as text. */
static char *pl_finish(json_t *root, const gr_report *r)
{
    json_t *x = json_object();
    gr_json_put(x, "student", gr_json_text(r->student ? r->student : ""));
    gr_json_put(x, "practice_secret", json_boolean(r->practice_secret));
    gr_json_put(root, "extra_data", x);
    char *text = gr_json_dump(root);
    json_decref(root);
    return text;
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
    json_t *errors = json_array();
    for (int i = 0; i < r->n_labs; i++) {
        const gr_lab_result *lab = &r->labs[i];
        if (!did_not_compile(lab))
            continue;
        char *text = gr_xasprintf("%s did not compile, so it was not graded and this attempt "
                                  "does not count; fix it and submit again.%s%s",
                                  lab->name ? lab->name : "the lab",
                                  lab->compile_log ? "\ncompiler output:\n" : "",
                                  lab->compile_log ? lab->compile_log : "");
        json_array_append_new(errors, gr_json_text(text));
        free(text);
    }
    if (json_array_size(errors) == 0) {
        json_decref(errors);
        return NULL;
    }
    json_t *root = json_object();
    gr_json_put(root, "gradable", json_false());
    gr_json_put(root, "format_errors", errors);
    return pl_finish(root, r);
}

/* The visible tests one by one, every other test as one entry of points. */
static json_t *pl_tests(const gr_report *r)
{
    json_t *tests = json_array();
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
            json_array_append_new(tests, pl_test(name, NULL, t->score, t->max_score,
                                                 gr_result_verdict_name(t->verdict), feedback));
            free(name);
            free(feedback);
        }
    }
    if (unseen_max > 0)
        json_array_append_new(tests, pl_test("tests not shown",
            "Tests that are hidden, or shown after the due date or once grades are "
            "published: their points, no more.", unseen, unseen_max, "", ""));
    return tests;
}

char *gr_report_prairielearn_text(const gr_report *r, int compile_errors_graded)
{
    char *ungradable = compile_errors_graded ? NULL : not_gradable(r);
    if (ungradable)
        return ungradable;
    json_t *root = json_object();
    char *summary = gr_report_text_summary(r, GR_SHOWN_AT_SUBMISSION);
    gr_json_put(root, "gradable", json_true());
    gr_json_put(root, "score", gr_json_points(r->max_score > 0 ? r->score / r->max_score : 0));
    char *first_line = gr_xasprintf("%.*s", (int)strcspn(summary, "\n"), summary);
    gr_json_put(root, "message", gr_json_text(first_line));
    free(first_line);
    gr_json_put(root, "output", gr_json_text(summary));
    free(summary);
    gr_json_put(root, "tests", pl_tests(r));
    return pl_finish(root, r);
}

int gr_report_prairielearn(const char *path, const gr_report *r, int compile_errors_graded)
{
    return gr_report_text_write(path, gr_report_prairielearn_text(r, compile_errors_graded));
}
