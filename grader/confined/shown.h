/* shown.h: what the build shows a student of what it found, bounded whatever
 * the submission holds.
 *
 *   gr_shown_log   a tool's output as a short excerpt, in the names the student
 *                  knows, quoting no file but the student's own
 *   gr_capped      a list of refused items: the first few, then "and N more"
 *   gr_strset      a set of strings, to name each item once in linear time
 */
#ifndef GR_SHOWN_H
#define GR_SHOWN_H

#include <stddef.h>

#include "base/util.h"

/* The first lines of a tool's output log (at most 20 lines and 2 KiB, then
   "... (N more lines)"), with the private folder priv and the test child folder
   rewritten to the names the student knows. A compiler quotes the source line
   of each diagnostic: those quotes are kept only under a diagnostic in the
   student's file source, and a diagnostic about a file outside the submission
   (neither source, a pristine header nor a system header) is left out, so no
   other file's text (/etc/passwd named by a trick) reaches a report. NULL when
   log is empty. */
char *gr_shown_log(const char *log, const char *priv, const char *child_dir, const char *source);

/* A capped list written into b: gr_capped_take says whether the next item is
   written (1) or only counted (0); gr_capped_end adds "... and N more WHAT."
   on a line of its own when some were only counted. */
typedef struct gr_capped {
    gr_strbuf *b;
    int cap, taken, more;
} gr_capped;

#define GR_CAPPED_ITEMS 5             /* items of one list a report names */

void gr_capped_init(gr_capped *c, gr_strbuf *b, int cap);
int gr_capped_take(gr_capped *c);
void gr_capped_end(gr_capped *c, const char *what);

/* A set of strings (open addressing, copies kept). */
typedef struct gr_strset {
    char **slot;
    size_t cap, n;
} gr_strset;

/* Add s: 1 when it was not in the set, 0 when it was. */
int gr_strset_add(gr_strset *set, const char *s);
void gr_strset_free(gr_strset *set);

#endif
