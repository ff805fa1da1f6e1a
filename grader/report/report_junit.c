/* report_junit.c: JUnit XML, the test report most CI servers read.
 *
 *   <testsuites name="attnlab" tests failures errors skipped time>
 *     <testsuite name="lab01-scores" tests failures errors skipped time>
 *       <properties> score and max_score of the lab </properties>
 *       <testcase name="dot_worked_example" classname="lab01-scores" time="0.012">
 *         <properties><property name="visibility" value="visible"/></properties>
 *       </testcase>
 *       <testcase ...><properties>...</properties>
 *         <failure message="wrong answer: ..." type="wrong answer">feedback</failure>
 *       </testcase>
 *
 * A <failure> is the student's code answering wrongly or not at all by the
 * rules (wrong answer, not implemented, forbidden call, compile error); an
 * <error> is the code breaking while it ran (crashed, timed out, out of
 * memory, output limit). Nothing is skipped. Every test carries its rubric
 * visibility as a property. XML 1.0 cannot hold most control characters even
 * as entities, so they are dropped, and invalid UTF-8 becomes U+FFFD, so any
 * XML parser accepts the file.
 *
 * For students' eyes (gr_report_junit_shown with a moment), a test not shown
 * at that moment keeps its place, its points and whether it passed, nothing
 * else: it is named "hidden test N", a failing one is a bare <failure
 * type="not shown"/> (crashing or timing out is not told apart), its time is
 * 0, and the lab's score and max_score properties count shown tests only. The
 * times of the suites and of the whole file add up the shown tests' own times:
 * a run's wall time would count the tests not shown, and how long they take
 * may depend on inputs the student must not learn.
 */
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

void gr_report_junit_xml_text(gr_strbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        int len = gr_utf8_decode(p + i, n - i, &cp);
        if (len == 0 || cp == 0xfffe || cp == 0xffff) {
            gr_sb_append(b, "\xef\xbf\xbd");       /* U+FFFD */
            i += len ? (size_t)len : 1;
            continue;
        }
        switch (cp) {
        case '&':  gr_sb_append(b, "&amp;"); break;
        case '<':  gr_sb_append(b, "&lt;"); break;
        case '>':  gr_sb_append(b, "&gt;"); break;
        case '"':  gr_sb_append(b, "&quot;"); break;
        case '\'': gr_sb_append(b, "&apos;"); break;
        default:
            if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7f)
                break;                              /* dropped */
            gr_sb_appendn(b, (const char *)p + i, (size_t)len);
        }
        i += (size_t)len;
    }
}

/* An <error> when the code broke while running, else a <failure>. */
static int is_error(gr_verdict v)
{
    return v == GR_CRASHED || v == GR_TIMED_OUT || v == GR_OUT_OF_MEMORY || v == GR_OUTPUT_LIMIT;
}

/* 1 when the file tells everything about t: every detail, or t is shown at moment. */
static int told(const gr_test_result *t, int moment)
{
    return moment == GR_JUNIT_ALL || gr_rubric_visibility_shown(t->visibility, moment);
}

/* What one lab adds up to in the file: counts, seconds and points of the tests it tells. */
typedef struct suite_sums {
    int failures, errors;
    double seconds, score, max_score;
} suite_sums;

static suite_sums sums(const gr_lab_result *lab, int moment)
{
    suite_sums s = {0, 0, 0, 0, 0};
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_test_result *t = &lab->tests[j];
        int full = told(t, moment);
        if (full) {
            s.seconds += t->seconds;
            s.score += t->score;
            s.max_score += t->max_score;
        }
        if (t->verdict == GR_PASSED)
            continue;
        if (full && is_error(t->verdict))
            s.errors++;
        else
            s.failures++;
    }
    return s;
}

/* A test not shown at the moment: its place, its visibility and whether it passed. */
static void untold_testcase(gr_strbuf *b, const gr_lab_result *lab, const gr_test_result *t,
                            int hidden_number)
{
    gr_sb_printf(b, "    <testcase name=\"hidden test %d\" classname=\"", hidden_number);
    gr_report_junit_xml_text(b, lab->name ? lab->name : "lab");
    gr_sb_printf(b, "\" time=\"0.000\">\n"
                 "      <properties><property name=\"visibility\" value=\"%s\"/></properties>\n",
                 gr_rubric_visibility_name(t->visibility));
    if (t->verdict != GR_PASSED)
        gr_sb_append(b, "      <failure message=\"failed\" type=\"not shown\"/>\n");
    gr_sb_append(b, "    </testcase>\n");
}

static void testcase(gr_strbuf *b, const gr_lab_result *lab, const gr_test_result *t)
{
    gr_sb_append(b, "    <testcase name=\"");
    gr_report_junit_xml_text(b, t->name ? t->name : "?");
    gr_sb_append(b, "\" classname=\"");
    gr_report_junit_xml_text(b, lab->name ? lab->name : "lab");
    gr_sb_printf(b, "\" time=\"%.3f\">\n"
                 "      <properties><property name=\"visibility\" value=\"%s\"/></properties>\n",
                 t->seconds, gr_rubric_visibility_name(t->visibility));
    if (t->verdict == GR_PASSED) {
        gr_sb_append(b, "    </testcase>\n");
        return;
    }
    const char *tag = is_error(t->verdict) ? "error" : "failure";
    const char *verdict = gr_result_verdict_name(t->verdict);

    /* message: the verdict and the first line of the feedback message */
    gr_strbuf msg = {0};
    gr_sb_append(&msg, verdict);
    char *own = gr_report_text_message(lab, t);
    if (own && *own) {
        gr_sb_append(&msg, ": ");
        gr_sb_appendn(&msg, own, strcspn(own, "\n"));
    }
    free(own);
    char *message = gr_sb_take(&msg);
    char *feedback = gr_report_text_feedback(lab, t);

    gr_sb_printf(b, "      <%s message=\"", tag);
    gr_report_junit_xml_text(b, message);
    gr_sb_append(b, "\" type=\"");
    gr_report_junit_xml_text(b, verdict);
    gr_sb_append(b, "\">");
    gr_report_junit_xml_text(b, feedback);
    gr_sb_printf(b, "</%s>\n    </testcase>\n", tag);
    free(message);
    free(feedback);
}

char *gr_report_junit_shown_text(const gr_report *r, int moment)
{
    gr_strbuf b = {0};
    int tests = 0, failures = 0, errors = 0;
    double told_seconds = 0;
    for (int i = 0; i < r->n_labs; i++) {
        suite_sums s = sums(&r->labs[i], moment);
        tests += r->labs[i].n_tests;
        failures += s.failures;
        errors += s.errors;
        told_seconds += s.seconds;
    }
    /* the run's time counts the tests not told too: for a student, only those told */
    gr_sb_append(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    gr_sb_printf(&b, "<testsuites name=\"attnlab\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
                 "skipped=\"0\" time=\"%.3f\">\n", tests, failures, errors,
                 moment == GR_JUNIT_ALL ? r->seconds : told_seconds);
    int hidden = 0;   /* untold tests are numbered through the file */
    for (int i = 0; i < r->n_labs; i++) {
        const gr_lab_result *lab = &r->labs[i];
        suite_sums s = sums(lab, moment);
        gr_sb_append(&b, "  <testsuite name=\"");
        gr_report_junit_xml_text(&b, lab->name ? lab->name : "lab");
        gr_sb_printf(&b, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" "
                     "time=\"%.3f\">\n", lab->n_tests, s.failures, s.errors, s.seconds);
        gr_sb_printf(&b, "    <properties>\n"
                     "      <property name=\"score\" value=\"%g\"/>\n"
                     "      <property name=\"max_score\" value=\"%g\"/>\n"
                     "    </properties>\n", s.score, s.max_score);
        for (int j = 0; j < lab->n_tests; j++) {
            if (told(&lab->tests[j], moment))
                testcase(&b, lab, &lab->tests[j]);
            else
                untold_testcase(&b, lab, &lab->tests[j], ++hidden);
        }
        gr_sb_append(&b, "  </testsuite>\n");
    }
    gr_sb_append(&b, "</testsuites>\n");
    return gr_sb_take(&b);
}

char *gr_report_junit_text(const gr_report *r)
{
    return gr_report_junit_shown_text(r, GR_JUNIT_ALL);
}

int gr_report_junit_shown(const char *path, const gr_report *r, int moment)
{
    return gr_report_text_write(path, gr_report_junit_shown_text(r, moment));
}

int gr_report_junit(const char *path, const gr_report *r)
{
    return gr_report_junit_shown(path, r, GR_JUNIT_ALL);
}
