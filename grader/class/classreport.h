/* classreport.h: what attnlab batch writes about a class (batch.h).
 *
 * Each function is gr_classreport_NAME:
 *   gradebook_csv    gradebook.csv: one row per student (id, name, email,
 *                    one column per lab, total) under a points-possible row
 *                    (each lab's rubric points, class.h), for LMS gradebook
 *                    imports; with a late policy each lab has raw, days late
 *                    and adjusted columns, and the total raw and adjusted
 *   feedback_header  what each student's feedback.txt opens with: the final
 *                    score as the gradebook has it, late penalties, the
 *                    hidden tests' count and points
 *   text             the class report, as Markdown (report.md) or aligned
 *                    text for a terminal: per lab and overall mean, median,
 *                    range and distribution; the tests most often failed
 *                    by those who attempted the lab (share failing, then
 *                    students, then points); time-outs, crashes, forbidden
 *                    calls, compile errors and missing files per lab, with
 *                    the students; the misconceptions diagnosed in attempted
 *                    labs, ranked by how many students show each, with the
 *                    handout section to reteach and the students (items.h)
 *   histogram        histogram.dat and, with gnuplot, histogram.png: the
 *                    students' final grades (after the late policy) in
 *                    percent of the maximum
 */
#ifndef GR_CLASSREPORT_H
#define GR_CLASSREPORT_H

#include <stdio.h>
#include "class/class.h"

/* The gradebook as CSV text (malloc'd): RFC 4180 (CRLF line ends, cells quoted
   when they hold a comma, quote or line end), every text cell neutralised so
   that no spreadsheet evaluates it (gr_csv_text), scores exact numbers. The
   header, then a "Points possible" row, then one row per student. With bom,
   a UTF-8 byte order mark first, for Excel. */
char *gr_classreport_gradebook_csv(const gr_class *c, int bom);

/* The lines each student's feedback.txt starts with, then a blank line
   (malloc'd): "Final score: X/Y" with the total exactly as the gradebook has
   it, a "Late penalty:" line per late lab, and a "Hidden tests:" line saying
   how many and the points earned, never what they check. */
char *gr_classreport_feedback_header(const gr_class *c, const gr_student *s);

/* Bands of the distribution: 0-9 %, 10-19 %, ..., 90-99 %, and 100 % (full marks). */
#define GR_CLASS_BINS 11

/* Scores of the students with a submission in one lab or in all. */
typedef struct gr_class_stats {
    int n;                        /* students */
    double mean, median, min, max, max_points;
    int bins[GR_CLASS_BINS];      /* students per band of max_points */
} gr_class_stats;

/* The statistics of every submitted student's score in lab (0: the total),
   raw or after the late policy (adjusted 1). */
gr_class_stats gr_classreport_stats(const gr_class *c, int lab, int adjusted);

/* The class report: Markdown when markdown is 1, else aligned text (malloc'd). */
char *gr_classreport_text(const gr_class *c, int markdown);

/* Write out/histogram.dat and draw out/histogram.png with
   root/data/plots/histogram.gp. 0, or -1 after a message on err (no gnuplot:
   the .dat is still written). */
int gr_classreport_histogram(FILE *err, const gr_class *c, const char *root, const char *out);

#endif
