/* classhtml.h: report.html, the class report an instructor clicks through
 * (attnlab batch writes it beside report.md).
 *
 * One self-contained static file: inline CSS (with a print style), no
 * script, nothing fetched (no link, font or image from elsewhere; the
 * histogram PNG is embedded as a data: URI), readable offline and printable.
 * The first screen says who struggled, why, and what is broken: the tests
 * to check (passed by no one, or discriminating negatively) by name, the late
 * students, and every student ranked by final grade (after the late policy),
 * lowest first, with days late, the labs not passed and the misconceptions.
 * Then sections, each reached from the contents line:
 *   - the warnings block, the distribution of final grades and a summary per
 *     lab (attempted, missing, not started, mean, median, range);
 *   - item analysis: the flagged tests' rows, then every test's pass rate,
 *     discrimination and flags in a <details> closed by default (items.h);
 *   - verdicts across the class: time-outs, crashes, forbidden calls, compile
 *     errors and missing files per lab, with the students;
 *   - misconceptions ranked by the students showing them among those who
 *     attempted the lab, with the handout section and the students;
 *   - similar files: students who handed in the same file, one line per
 *     file, then pairs of different files (Jaccard at least GR_HTML_SIM_MIN,
 *     similarity.h), GR_HTML_SIM_TOP per lab and how many more;
 *   - one section per student: total, each lab's score, late days and
 *     penalty, each failing test's verdict and diagnosis (tests a student
 *     does not see marked as such), and the similarity pairs they are in.
 * Printed, the class view takes a few pages: headings stay with what follows
 * them, rows, figures and list items are not split, and each student's
 * section prints only when the page is open at its link (:target).
 * Every byte that comes from a submission, a roster or a report (ids, names,
 * file names, messages, output excerpts) is HTML-escaped (gr_report_junit_xml_text).
 */
#ifndef GR_CLASSHTML_H
#define GR_CLASSHTML_H

#include "class/class.h"

/* Pairs of lab files this similar (Jaccard of their fingerprints) are listed. */
#define GR_HTML_SIM_MIN 0.5

typedef struct gr_html_opts {
    const char *root;          /* the attnlab tree: each lab's pristine stub, for similarity */
    const char *submissions;   /* the students' folders, or NULL: no similarity section */
    const char *out;           /* DIR: histogram.png is read from it when there */
} gr_html_opts;

/* report.html's text (malloc'd). */
char *gr_classhtml_page(const gr_class *c, const gr_html_opts *o);

#endif
