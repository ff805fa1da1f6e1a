/* mutants.h: the bundled mutant submissions `attnlab validate` grades.
 *
 * data/mutants/labNN/manifest.yaml lists mutants of the lab's reference
 * solution: each is the solution's text with a few edits applied in order, so
 * the planted mistake shows in the manifest and follows the solution when it
 * changes. Each mutant says what the grader must find:
 *     lab: 1
 *     mutants:
 *       - name: inv_dk              # a word: letters, digits, _ and -
 *         why: scaled scores divided by d instead of sqrt(d)   # one line, for people
 *         edits:                    # applied in order to the solution's text
 *           - from: "1.0 / sqrt((double)d));"   # must occur exactly once
 *             to: "1.0 / (double)d);   // MISTAKE: 1/d"
 *         verdict: wrong answer     # a verdict name (result.h), lower case
 *         misconception: inv_dk     # misconception id a test must name (optional)
 * from and to may be YAML block scalars (|-) for edits of several lines.
 */
#ifndef GR_MUTANTS_H
#define GR_MUTANTS_H

#include <stddef.h>
#include "base/result.h"

typedef struct gr_mutant_edit {
    char *from;             /* text that must occur exactly once, never empty */
    char *to;               /* what replaces it (may be empty) */
    size_t line, column;    /* where from is written in the manifest, 1-based */
} gr_mutant_edit;

typedef struct gr_mutant {
    char *name;             /* a word, also the mutant source's file name (NAME.c) */
    char *why;              /* the planted mistake, one line for people */
    gr_mutant_edit *edits;
    int n_edits;
    gr_verdict verdict;     /* at least one test must get it */
    char *misconception;    /* the id that test must name, or NULL */
} gr_mutant;

typedef struct gr_mutant_set {
    char *path;             /* the manifest, as given to gr_mutants_load */
    int lab;
    gr_mutant *mutants;
    int n;
} gr_mutant_set;

/* Load a manifest. 0, or -1 with "path:line:column: what is wrong" in err. */
int gr_mutants_load(const char *path, gr_mutant_set *out, char *err, size_t errlen);

/* Apply mutant m's edits in order to the text of solution (the lab's reference
   labNN.c) and write the result to work_dir/NAME.c, atomically. 0 with the
   file's path in *out_path (malloc'd), or -1 with err: "manifest:line:column:
   ..." when an edit's from does not occur exactly once in the text it edits. */
int gr_mutants_write(const gr_mutant_set *s, const gr_mutant *m, const char *solution,
                    const char *work_dir, char **out_path, char *err, size_t errlen);

void gr_mutants_free(gr_mutant_set *s);


struct yr_doc;
struct yaml_node_s;

/* Read v, the lab: of a mutation data file (a manifest, equivalent.yaml), as
   one of the course's labs: 0 with it in *lab, or -1 with the error at v. */
int gr_mutants_read_lab(struct yr_doc *d, const struct yaml_node_s *v, int *lab);

#endif
