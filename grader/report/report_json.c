/* report_json.c: Gradescope's results.json.
 *
 * The fields follow Gradescope's autograder specification
 * (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
 *
 *   {
 *     "score": 3.5,                  total points earned (overrides the tests' sum)
 *     "max_score": 15.5,             total points possible
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
 * No "execution_time" (the specification's optional run time): the run's
 * wall time counts the tests a student may not see, and how long those take
 * may depend on inputs they must not learn.
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
 * is not valid JSON: the file is made and printed by Jansson (json.h), the
 * library every reader uses too, with invalid UTF-8 as U+FFFD and numbers to
 * 15 significant digits (no float noise: 13, not 12.999999999999996).
 *
 * Signed: given the grading secret, extra_data ends with "signature":
 * "hmac-sha256:HEX", an HMAC-SHA256 keyed by the secret over the file's
 * canonical text without that key (gr_report_json_signature); attnlab merge
 * refuses a shard's file whose signature does not verify (hmac.h).
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

#include "engine/hmac.h"
#include "engine/json.h"

#define SIGNATURE_KEY "signature"
#define SIGNATURE_TAG "hmac-sha256:"

/* A string, or null when s is NULL. */
static json_t *text_or_null(const char *s)
{
    return s ? gr_json_text(s) : json_null();
}

/* A test's extra_data: lab, test, verdict, misconception, and for an
   uncatalogued mistake on fixed inputs its digest, excerpt and relation
   (digest.h), which the class's clusters read (class/clusters.h). */
static json_t *test_extra(const gr_lab_result *lab, const gr_test_result *t)
{
    json_t *x = json_object();
    gr_json_put(x, "lab", json_integer(lab->lab));
    gr_json_put(x, "test", gr_json_text(t->name ? t->name : "?"));
    gr_json_put(x, "verdict", gr_json_text(gr_result_verdict_name(t->verdict)));
    gr_json_put(x, "misconception", text_or_null(t->misconception));
    if (t->digest) {
        gr_json_put(x, "digest", gr_json_text(t->digest));
        gr_json_put(x, "excerpt", gr_json_text(t->excerpt ? t->excerpt : ""));
        gr_json_put(x, "relation", text_or_null(t->relation));
    }
    return x;
}

static json_t *test_object(const gr_lab_result *lab, int j)
{
    const gr_test_result *t = &lab->tests[j];
    char *name = gr_xasprintf("%s: %s", lab->name ? lab->name : "lab", t->name ? t->name : "?");
    char number[32];
    snprintf(number, sizeof number, "%d.%d", lab->lab, j + 1);
    char *feedback = gr_report_text_feedback(lab, t);
    json_t *o = json_object();
    gr_json_put(o, "name", gr_json_text(name));
    gr_json_put(o, "number", gr_json_text(number));
    gr_json_put(o, "score", gr_json_points(t->score));
    gr_json_put(o, "max_score", gr_json_points(t->max_score));
    gr_json_put(o, "status", gr_json_text(t->verdict == GR_PASSED ? "passed" : "failed"));
    gr_json_put(o, "visibility", gr_json_text(gr_rubric_visibility_name(t->visibility)));
    gr_json_put(o, "output", gr_json_text(feedback));
    gr_json_put(o, "output_format", gr_json_text("text"));
    gr_json_put(o, "extra_data", test_extra(lab, t));
    free(name);
    free(feedback);
    return o;
}

/* The grade as the student's feedback opens with it (the final score, the
   hidden tests' count and points), as a test of no points that Gradescope
   shows only once grades are published; extra_data "grade" tells readers
   (report_read.c) it is no test. */
static json_t *grade_object(const gr_report *r)
{
    char *text = gr_report_text_grade_header(r, r->score, r->max_score, NULL);
    json_t *o = json_object(), *x = json_object();
    gr_json_put(o, "name", gr_json_text("Your grade"));
    gr_json_put(o, "score", json_integer(0));
    gr_json_put(o, "max_score", json_integer(0));
    gr_json_put(o, "visibility", gr_json_text("after_published"));
    gr_json_put(o, "output", gr_json_text(text));
    gr_json_put(o, "output_format", gr_json_text("text"));
    gr_json_put(x, "grade", json_true());
    gr_json_put(o, "extra_data", x);
    free(text);
    return o;
}

/* A score, or null when the test had none (added, or removed, by the regrade). */
static json_t *score_or_null(int has, double x)
{
    return has ? gr_json_points(x) : json_null();
}

/* extra_data's "regrades": every regrade of the student's results, oldest first. */
static json_t *regrades_array(const gr_report *r)
{
    json_t *a = json_array();
    for (int i = 0; i < r->n_regrades; i++) {
        const gr_regrade *g = &r->regrades[i];
        json_t *o = json_object();
        gr_json_put(o, "when", gr_json_text(g->when ? g->when : ""));
        gr_json_put(o, "lab", json_integer(g->lab));
        gr_json_put(o, "test", gr_json_text(g->test ? g->test : ""));
        gr_json_put(o, "old", score_or_null(g->has_old, g->old_score));
        gr_json_put(o, "new", score_or_null(g->has_new, g->new_score));
        gr_json_put(o, "reason", gr_json_text(g->reason ? g->reason : ""));
        gr_json_put(o, "change", text_or_null(g->change));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *report_extra(const gr_report *r)
{
    json_t *x = json_object();
    gr_json_put(x, "student", gr_json_text(r->student ? r->student : ""));
    gr_json_put(x, "practice_secret", json_boolean(r->practice_secret));
    gr_json_put(x, "toolchain_confinement", gr_json_text(r->confinement ? r->confinement : ""));
    gr_json_put(x, "test_sandbox", gr_json_text(r->sandbox ? r->sandbox : ""));
    if (r->n_regrades)
        gr_json_put(x, "regrades", regrades_array(r));
    return x;
}

static json_t *tests_array(const gr_report *r)
{
    json_t *a = json_array();
    int unseen = 0;
    for (int i = 0; i < r->n_labs; i++)
        for (int j = 0; j < r->labs[i].n_tests; j++) {
            json_array_append_new(a, test_object(&r->labs[i], j));
            unseen += !gr_rubric_visibility_shown(r->labs[i].tests[j].visibility, GR_SHOWN_AT_SUBMISSION);
        }
    if (unseen)
        json_array_append_new(a, grade_object(r));
    return a;
}

/* The HMAC of root's canonical text (signature key absent) under secret. */
static char *signature_of(const json_t *root, const char *secret)
{
    char *canon = gr_json_canonical(root);
    char *msg = gr_xasprintf("attnlab results.json 1\n%s", canon);
    char hex[GR_HMAC_HEX + 1];
    gr_hmac_sha256_hex(secret, strlen(secret), msg, strlen(msg), hex);
    free(canon);
    free(msg);
    return gr_xasprintf("%s%s", SIGNATURE_TAG, hex);
}

char *gr_report_json_text(const gr_report *r, const char *secret)
{
    json_t *root = json_object();
    gr_json_put(root, "score", gr_json_points(r->score));
    gr_json_put(root, "max_score", gr_json_points(r->max_score));
    char *out = gr_report_text_summary(r, GR_SHOWN_AT_SUBMISSION);
    gr_json_put(root, "output", gr_json_text(out));
    free(out);
    gr_json_put(root, "visibility", gr_json_text("visible"));
    gr_json_put(root, "stdout_visibility", gr_json_text("hidden"));
    json_t *extra = report_extra(r);
    gr_json_put(root, "extra_data", extra);
    gr_json_put(root, "tests", tests_array(r));
    if (secret) {
        char *sig = signature_of(root, secret);
        gr_json_put(extra, SIGNATURE_KEY, gr_json_text(sig));
        free(sig);
    }
    char *text = gr_json_dump(root);
    json_decref(root);
    return text;
}

int gr_report_json(const char *path, const gr_report *r, const char *secret)
{
    return gr_report_text_write(path, gr_report_json_text(r, secret));
}

int gr_report_json_signature(const char *path, const char *secret, char *err, size_t errlen)
{
    json_t *root = gr_json_load(path, GR_RESULTS_MAX, err, errlen);
    if (!root)
        return -1;
    json_t *extra = json_object_get(root, "extra_data");
    const char *sig = json_string_value(json_object_get(extra, SIGNATURE_KEY));
    int rc = -1;
    if (!sig) {
        gr_set_err(err, errlen, "%s has no signature: it was not written by attnlab batch with "
                   "a secret", path);
    } else {
        char *have = gr_xstrdup(sig);
        json_object_del(extra, SIGNATURE_KEY);
        char *want = signature_of(root, secret);
        if (strlen(have) == strlen(want) && gr_hmac_equal(have, want, strlen(want)))
            rc = 0;
        else
            gr_set_err(err, errlen, "%s: its signature does not verify under this secret: the "
                       "file was changed after attnlab wrote it, or graded with another secret",
                       path);
        free(have);
        free(want);
    }
    json_decref(root);
    return rc;
}
