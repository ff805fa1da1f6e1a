/* report.h: the ways a grading run is reported.
 *
 *   gr_report_term      for a person at a terminal, in the spirit of CS:APP's
 *                       driver: Score / Max / Verdict / Test rows, feedback under
 *                       each failing test, "Total points: x/y"   (report_term.c)
 *   gr_report_json      Gradescope's results.json                (report_json.c)
 *   gr_report_junit     JUnit XML for CI servers                 (report_junit.c)
 *   gr_report_prairielearn  PrairieLearn's results.json   (report_prairielearn.c)
 *
 * and a results.json is read back by gr_report_read_json (report_read.c); the
 * text they all share is report_text.c's. Each file report_X.c names its
 * functions gr_report_X_*.
 *
 * All take a finished gr_report (result.h) and never change it. Text that
 * may hold bytes from a student's program (messages, output excerpts) is made
 * safe for each medium: control characters shown as \xNN on a terminal, escaped
 * in JSON, dropped in XML, and invalid UTF-8 replaced by U+FFFD everywhere, so
 * nothing a student prints can colour the screen, break a file or fake a score.
 * Files are written atomically: a reader sees the old file or the new one.
 */
#ifndef GR_REPORT_H
#define GR_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/result.h"
#include "base/util.h"

/* ---- terminal (report_term.c) --------------------------------------------- */

/* Flags of gr_report_term. */
enum {
    GR_TERM_COLOR = 1,    /* ANSI colours (gr_report_term_color_wanted says when) */
    GR_TERM_VERBOSE = 2   /* every test of every lab, passed ones too */
};

/* Print r for a person: one summary line per lab (points and status), "Total
   points: x/y" and the next step; then, for each lab that needs work, a block
   with a row per failing test and its feedback (the message, the output
   excerpt, a handout section for a wrong answer), the stubbed functions on one
   line, each misconception shared by several tests named once, "fix X first"
   when a function fails with one it calls, and a compile error once. flags:
   GR_TERM_COLOR, GR_TERM_VERBOSE (every lab, every test). */
void gr_report_term(FILE *f, const gr_report *r, int flags);

/* The block gr_report_term prints for lab (its failing tests with their
   feedback, the compiler's output or warnings, the misconceptions shared by
   several tests), when gr_report_term would print it: 1, else 0 and nothing.
   attnlab watch shows a lab as grade does with it. */
int gr_report_term_lab(FILE *f, const gr_lab_result *lab, int flags);

/* 1 when output to f should be coloured: f is a terminal, NO_COLOR is unset or
   empty (https://no-color.org) and TERM is not "dumb"; otherwise 0. */
int gr_report_term_color_wanted(FILE *f);

/* Append s to b made safe for a terminal: printable UTF-8, tabs and newlines
   kept; control bytes, C1 controls and invalid UTF-8 shown as \xNN per byte. */
void gr_report_term_text(gr_strbuf *b, const char *s);

/* ---- Gradescope results.json (report_json.c) -------------------------------- */

/* The largest results.json any reader takes (every test's output is cut short
   long before: this only refuses a file that is not attnlab's). */
#define GR_RESULTS_MAX ((size_t)64 << 20)

/* Write r to path as Gradescope's results.json, atomically, signed with
   secret (NULL: unsigned; report_json.c). 0, or -1 with errno set (path is
   left as it was). */
int gr_report_json(const char *path, const gr_report *r, const char *secret);

/* The text gr_report_json writes (malloc'd, never NULL). */
char *gr_report_json_text(const gr_report *r, const char *secret);

/* 0 when the results.json at path carries a signature that verifies under
   secret (no edit since attnlab wrote it, graded with that secret); -1 with
   err naming the file and what is wrong otherwise. */
int gr_report_json_signature(const char *path, const char *secret, char *err, size_t errlen);

/* Read a results.json that gr_report_json wrote back into out (free with
   gr_result_free): the student, the walls, and per lab (grouped by each
   test's extra_data.lab, in the file's order) its tests with score, maximum,
   visibility, verdict, misconception, digest, excerpt and relation (digest.h;
   a malformed digest is left out, an excerpt cut to GR_EXCERPT_MAX) and whole
   feedback (gr_test_result's
   feedback, so writing out again gives the same tests); lab and report
   totals are the sums of their tests. Keys it does not need are skipped.
   0, or -1 with "path:line:column: what is wrong" in err (report_read.c). */
int gr_report_read_json(const char *path, gr_report *out, char *err, size_t errlen);

/* 1 when r, read from a results.json, is the results of student id: its
   "student" is id as the writer put it (valid UTF-8, json.h), so an id
   holding bytes that are no UTF-8 still matches; else 0. */
int gr_report_is_of(const gr_report *r, const char *id);

/* The same, from the text of a results.json (name says where, in err). */
int gr_report_parse_json(const char *name, const char *text, size_t len, gr_report *out,
                         char *err, size_t errlen);

/* Merge the tests of from (a regrade of some tests) into into: each replaces
   the test of the same lab and name, or is added after its lab's tests (and
   the lab after the others when into has none of it); into's totals and test
   numbers are made again. from is not changed (report_read.c). */
void gr_report_read_merge(gr_report *into, const gr_report *from);

/* ---- PrairieLearn results.json (report_prairielearn.c) ------------------------ */

/* Write r to path as PrairieLearn's external-grader results.json, atomically:
   score in [0, 1] over every test, the visible tests one by one with points,
   max_points and output, the others as one line of points. A lab that did not
   compile makes it "gradable": false with the compiler's message (no attempt
   charged) unless compile_errors_graded is 1.
   0, or -1 with errno set (path is left as it was). */
int gr_report_prairielearn(const char *path, const gr_report *r, int compile_errors_graded);

/* The text gr_report_prairielearn writes (malloc'd, never NULL). */
char *gr_report_prairielearn_text(const gr_report *r, int compile_errors_graded);

/* ---- JUnit XML (report_junit.c) ---------------------------------------------- */

/* Write r to path as JUnit XML (one testsuite per lab; <failure> for wrong
   answer, not implemented, forbidden call and compile error; <error> for
   crashed, timed out, out of memory and output limit; each test's visibility
   as a property), with every test's details, atomically.
   0, or -1 with errno set (path is left as it was). */
int gr_report_junit(const char *path, const gr_report *r);

/* The text gr_report_junit writes (malloc'd, never NULL). */
char *gr_report_junit_text(const gr_report *r);

/* The moment argument that tells every test's details. */
#define GR_JUNIT_ALL (-1)

/* Like gr_report_junit, but for students' eyes: the details of a test not
   shown at moment (GR_SHOWN_* flags, rubric.h) are left out (name, feedback,
   time, kind of failure), and the lab's points count shown tests only
   (report_junit.c says what remains).
   GR_JUNIT_ALL writes what gr_report_junit does. */
int gr_report_junit_shown(const char *path, const gr_report *r, int moment);

/* The text gr_report_junit_shown writes (malloc'd, never NULL). */
char *gr_report_junit_shown_text(const gr_report *r, int moment);

/* Append s to b escaped for XML text and attributes: & < > " ' as entities,
   control characters other than tab and newline dropped, invalid UTF-8 and
   code points XML forbids replaced by U+FFFD. */
void gr_report_junit_xml_text(gr_strbuf *b, const char *s);

/* ---- shared by the writers (report_text.c) ----------------------------------- */

/* The test that carries lab's message (gr_lab_result.message) in every
   report: the first test a student sees at submission, else the first; the
   others refer to it, so the message is written once per lab. NULL for a lab
   without tests. */
const gr_test_result *gr_report_text_lead_test(const gr_lab_result *lab);

/* What test t of lab is told (malloc'd, or NULL for nothing): its own
   message; for a lab with a message of its own, that message on the lead test
   and one line naming the lead test on the others. */
char *gr_report_text_message(const gr_lab_result *lab, const gr_test_result *t);

/* The summary a student may always see (malloc'd, never NULL): the points of
   the tests shown at moment (GR_SHOWN_* flags, rubric.h), in all and per lab,
   a line saying more tests count when some are not shown (never how many or
   how many points), and a line when the results are marked practice_secret.
   Results that a student reads from submission on pass GR_SHOWN_AT_SUBMISSION. */
char *gr_report_text_summary(const gr_report *r, int moment);

/* How much of the points of labs[0..n) their visible tests carry, appended to
   b: "3.65 of 14 points visible; 10.35 in hidden tests", exact decimals. A lab
   graded with its hidden tests counts the points graded; one graded on its
   visible tests alone (the student kit, status, watch) counts its manifest's
   points (labmod.h), and ", not run here" ends the text. Nothing when every
   point is visible. */
void gr_report_text_visible_share(gr_strbuf *b, const gr_lab_result *labs, int n);

/* The lines a student's grade opens with, then a blank line (malloc'd):
   "Final score: total/max" exactly, the late lines as given (NULL: none), and,
   when r has tests not shown at submission, "Hidden tests: N tests, P of Q
   points earned" (never what they check), and the visible tests' share of the
   points (gr_report_text_visible_share). feedback.txt starts with it, and
   Gradescope shows it once grades are published (report_json.c). */
char *gr_report_text_grade_header(const gr_report *r, double total, double max, const char *late);

/* The feedback of test t of lab as plain text, the same in every file: the
   verdict alone for a passed test; otherwise the verdict, then the message, the misconception, the labelled excerpt of the
   student's output and, for a compile error, the lab's compiler output, each
   when there is one (malloc'd, never NULL). Not escaped: each writer escapes
   it for its medium. A test read back from a results.json gives its feedback
   as read. */
char *gr_report_text_feedback(const gr_lab_result *lab, const gr_test_result *t);

/* Each line of text (one trailing newline dropped) on a line of its own after
   indent, and after mark and a space when mark is not NULL (mark alone on an
   empty line). */
void gr_report_text_lines(gr_strbuf *b, const char *indent, const char *mark, const char *text);

/* Write text to path atomically and free it: 0, or -1 with errno set (path is
   left as it was). The one way every writer puts its file down. */
int gr_report_text_write(const char *path, char *text);

/* Append text to b with every line prefixed by indent and "| ", the label
   that marks text from the student's program or the compiler (one trailing
   newline dropped, so it does not make an empty line). */
void gr_report_text_quoted(gr_strbuf *b, const char *indent, const char *text);

#endif
