/* mutequiv.h: the reviewed lists of equivalent mutants, one a lab, kept with
 * its planted mutants in data/mutants/labNN/equivalent.yaml (not shipped to
 * students: the lines quote the solution).
 *
 * An equivalent mutant changes the text of a solution but not what any call
 * of the contract can observe, so no test can kill it; each is listed with the
 * reason it is equivalent, and `attnlab mutate` does not grade it:
 *     lab: 1
 *     equivalent:
 *       - line: "sum += (double)q[c] * (double)k[c];"   # the mutated line, trimmed
 *         mutation: "swap: ..."                         # as `attnlab mutate --list` names it
 *         reason: a dot product is symmetric            # one line, for people
 * An entry matches every line of the lab's solution with that text.
 *
 * Two kinds recur. A counting loop's < made != (for (v = a; v < b; v++), with
 * a <= b wherever the loop runs) stops at the same v. A loop from -1 over a
 * scratch block from malloc reads the 8 bytes below it, two huge floats that
 * differ from block to block (the test child's), and dies; one that only
 * writes there what nothing reads again, in a block freed before the call
 * returns, is seen by the test child alone (a note, not graded): such entries
 * say so, not equivalent C, unobservable by design.
 */
#ifndef GR_MUTEQUIV_H
#define GR_MUTEQUIV_H

#include <stddef.h>

typedef struct gr_equiv {
    int lab;
    char *line, *mutation, *reason;
    int used;               /* how many generated mutants it matched */
} gr_equiv;

typedef struct gr_equiv_set {
    gr_equiv *e;
    int n;
} gr_equiv_set;

/* Load one lab's list at path into out (emptied first). 0, or -1 with
   "path:line:column: what is wrong" in err. */
int gr_mutequiv_load(const char *path, gr_equiv_set *out, char *err, size_t errlen);

/* Load the list of each lab l with want[l - 1] set, under root (a lab without
   the file has none), into out: 0, or -1 with err (a file's own error, or one
   whose lab: is not the lab whose folder holds it). */
int gr_mutequiv_load_labs(const char *root, const int *want, gr_equiv_set *out, char *err,
                          size_t errlen);

/* The entry naming lab's mutant (line text, mutation), or NULL. */
gr_equiv *gr_mutequiv_find(gr_equiv_set *s, int lab, const char *line, const char *mutation);

void gr_mutequiv_free(gr_equiv_set *s);

#endif
