/* regrades.h: a regrade recorded, and the one-student merge of `attnlab
 * grade --test NAME --json results.json`.
 *
 * A regrade is a test whose score changed after the student was graded. Each
 * is kept twice:
 *   - in the student's results.json, extra_data "regrades": [{when, lab,
 *     test, old, new, reason, change}] (result.h's gr_regrade), kept across
 *     later gradings;
 *   - as one line of regrades.log, tab-separated under a header line:
 *     when (UTC), student, lab, test, old, new, reason, change ("-" for a
 *     score the test did not have: added or removed).
 * A batch's regrade of a changed rubric (class/regrade.h) records its
 * regrades with these too.
 */
#ifndef GR_REPORT_REGRADES_H
#define GR_REPORT_REGRADES_H

#include <stddef.h>
#include "base/result.h"
#include "base/util.h"

#define GR_NO_REASON "no reason given"

/* The UTC time now as 2026-12-02T03:40:00Z. Returns buf. */
const char *gr_regrades_now(char buf[32]);

/* The test called name of l (NULL: no lab), or NULL. */
const gr_test_result *gr_regrades_find_test(const gr_lab_result *l, const char *name);

/* Merge from (a regrade of some tests, attnlab grade --test) into into, as
   gr_report_read_merge does, recording on into each test's old and new score with
   reason (NULL: GR_NO_REASON). Returns the regrades.log lines (malloc'd). */
char *gr_regrades_test(gr_report *into, const gr_report *from, const char *reason);

/* The regrades of the student's results.json at path (if it reads back)
   put before r's own: a full regrade keeps the history. */
void gr_regrades_carry(const char *path, gr_report *r);

/* Record on r the regrade of test of lab from old to r's score now (has_old
   0: it had none), at when, with reason (NULL: GR_NO_REASON) and change
   (NULL: none). */
void gr_regrades_add(gr_report *r, int lab, const char *test, int has_old, double old_score,
                     int has_new, double new_score, const char *when, const char *reason,
                     const char *change);

/* regrades.log lines of r's regrades from index from on (malloc'd). */
char *gr_regrades_log_lines(const char *student, const gr_report *r, int from);

/* The regrades.log line of lab's rubric change onto b: when, no student,
   the lab, no test or scores, reason (NULL: GR_NO_REASON), change (every
   changed setting, gr_regrade_lab_change; NULL: no line). */
void gr_regrades_log_lab(gr_strbuf *b, const char *when, int lab, const char *reason,
                         const char *change);

/* A regrades.log line for a change of the class's settings (batch_settings.h):
   student "*", no lab, test or scores, reason (NULL: GR_NO_REASON) and
   change ("roster: --roster a.yaml (digest ...) -> no --roster"). */
char *gr_regrades_class_line(const char *when, const char *reason, const char *change);

/* Append lines to dir/regrades.log (made with its header when new) in one
   write. 0, or -1 with err. */
int gr_regrades_log_append(const char *dir, const char *lines, char *err, size_t errlen);

/* The folder whose regrades.log a results.json's regrade goes to (malloc'd):
   DIR for DIR/students/ID/results.json (a batch's), else its own folder. */
char *gr_regrades_log_dir(const char *json_path);

#endif
