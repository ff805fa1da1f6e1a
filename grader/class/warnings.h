/* warnings.h: the batch's warnings block: what an instructor should look at
 * before trusting the gradebook, each with the ids it concerns.
 */
#ifndef GR_WARNINGS_H
#define GR_WARNINGS_H

#include "class/class.h"
#include "base/util.h"

/* Append the warnings block to b (Markdown when md is 1, else text), nothing
   when all is well: empty submissions, those found by a forgiving rule
   (intake.h), folders not on the roster, roster students with no folder,
   each lab's missing files and the files not graded (ambiguous, or not a
   regular file), each line with its count and the first few ids. */
void gr_warnings_block(gr_strbuf *b, const gr_class *c, int md);

#endif
