/* classhtml.h: report.html, the class report an instructor clicks through
 * (attnlab batch writes it beside report.md).
 *
 * One self-contained static file: inline CSS (with a print style), no
 * script, nothing fetched (no link, font or image from elsewhere; the
 * histogram PNG is embedded as a data: URI), readable offline and printable.
 * Sections, each reached from the table of contents:
 *   - the warnings block, the score distribution and a summary per lab
 *     (attempted, missing, not started, mean, median, range);
 *   - item analysis: every test's pass rate, discrimination and flags (items.h);
 *   - verdicts across the class: time-outs, crashes, forbidden calls, compile
 *     errors and missing files per lab, with the students;
 *   - misconceptions ranked by the students showing them among those who
 *     attempted the lab, with the handout section and the students;
 *   - similarity pairs (Jaccard at least GR_HTML_SIM_MIN, similarity.h);
 *   - one section per student: total, each lab's score, late days and
 *     penalty, each failing test's verdict and diagnosis (tests a student
 *     does not see marked as such), and the similarity pairs they are in.
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
