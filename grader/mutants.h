/* mutants.h: the bundled mutant submissions `attnlab validate` grades.
 *
 * data/mutants/labNN/manifest.yaml lists whole labNN.c files, each with one
 * known mistake, and what the grader must say about it:
 *     lab: 1
 *     mutants:
 *       - file: inv_dk.c
 *         verdict: wrong answer     # a verdict name (result.h), lower case
 *         misconception: inv_dk     # misconception id a test must name (optional)
 */
#ifndef GR_MUTANTS_H
#define GR_MUTANTS_H

#include <stddef.h>
#include "result.h"

typedef struct gr_mutant {
    char *file;             /* path of the mutant source */
    gr_verdict verdict;     /* at least one test must get it */
    char *misconception;    /* the id that test must name, or NULL */
} gr_mutant;

typedef struct gr_mutant_set {
    int lab;
    gr_mutant *mutants;
    int n;
} gr_mutant_set;

/* Load a manifest; file paths become relative to its folder. 0, or -1 with
   "path:line:column: what is wrong" in err. */
int gr_mutants_load(const char *path, gr_mutant_set *out, char *err, size_t errlen);

void gr_mutants_free(gr_mutant_set *s);

/* The verdict named s ("wrong answer", ...), or -1. */
int gr_verdict_from_name(const char *s);

#endif
