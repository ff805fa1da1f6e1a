/* mutequiv.h: the reviewed list of equivalent mutants, data/mutation/equivalent.yaml.
 *
 * An equivalent mutant changes the text of a solution but not what any call
 * of the contract can observe, so no test can kill it; each is listed with the
 * reason it is equivalent, and `attnlab mutate` does not grade it:
 *     equivalent:
 *       - lab: 1
 *         line: "sum += (double)q[c] * (double)k[c];"   # the mutated line, trimmed
 *         mutation: "swap: ..."                         # as `attnlab mutate --list` names it
 *         reason: a dot product is symmetric            # one line, for people
 * An entry matches every line of the lab's solution with that text.
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

/* Load path. 0, or -1 with "path:line:column: what is wrong" in err. */
int gr_equiv_load(const char *path, gr_equiv_set *out, char *err, size_t errlen);

/* The entry naming lab's mutant (line text, mutation), or NULL. */
gr_equiv *gr_equiv_find(gr_equiv_set *s, int lab, const char *line, const char *mutation);

void gr_equiv_free(gr_equiv_set *s);

#endif
