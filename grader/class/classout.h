/* classout.h: the class files of a batch output folder, written one way
 * whether the class was just graded (attnlab batch) or joined from shards
 * (attnlab merge, merge.h): gradebook.csv, tests.csv (items.h), report.md
 * (also printed), clusters.json (clusters.h), histogram.dat with its PNG
 * (classreport.h), and report.html
 * (classhtml.h; its similar pairs only when c->submissions is known). Both commands call
 * gr_classout_write, so a merged gradebook is a single run's byte for byte. */
#ifndef GR_CLASSOUT_H
#define GR_CLASSOUT_H

#include <stdio.h>
#include "class/class.h"

/* Write the class files of c into out, notes (no gnuplot ...) on notes. bom:
   gradebook.csv opens with a UTF-8 byte order mark. 0; 1 when all but the
   histogram PNG were written (the note says why); -1 with err when a file
   could not be written. */
int gr_classout_write(const gr_class *c, const char *root, const char *out, int bom, FILE *notes,
                   char *err, size_t errlen);

/* The class report as text on f, then a line naming the files written into
   out (png: gr_classout_write drew the histogram PNG). */
void gr_classout_print(FILE *f, const gr_class *c, const char *out, int png);

#endif
