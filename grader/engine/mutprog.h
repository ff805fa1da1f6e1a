/* mutprog.h: the programs `attnlab mutate` grades its mutants in.
 *
 * Each lab's mutants that fit a schema (mutschema.h) are cut into chunks of
 * GR_MUTPROG_CHUNK, and each chunk is built as one program in a worker process
 * (pool.h), as many at once as the run has jobs, with the same confined build
 * and checks as any submission (confined/build.h). A chunk that does not build
 * sheds the mutants the compiler's errors point at, or is halved, until every
 * part builds or is one mutant; those mutants, and the ones that fit no
 * schema, are built alone when graded (gr_mutprog_prepare says which).
 */
#ifndef GR_MUTPROG_H
#define GR_MUTPROG_H

#include <stddef.h>
#include "engine/grade.h"
#include "engine/mutgen.h"

#define GR_MUTPROG_CHUNK 48               /* mutants per schema: small enough to split
                                             the work evenly, large enough that each
                                             build's fixed cost is shared */

/* One mutant to build: its lab, its mutation and the lab's solution text. */
typedef struct gr_mutprog_in {
    int lab;
    const gr_mutation *m;
    const char *src;
    size_t src_len;
} gr_mutprog_in;

/* A built schema: its source and program in the work folder (the program is
   copied, with the selector set, for each of its mutants; it is read there,
   never held, so that the workers forked per mutant stay small). */
typedef struct gr_mutprog_schema {
    char *source;
    gr_build b;                 /* its build: b.exe the program's path, b.static_bytes */
} gr_mutprog_schema;

typedef struct gr_mutprog {
    gr_mutprog_schema *s;
    int n;
    int *in_schema;             /* [n_in]: mutant i's schema, or -1: it is built alone */
    int *selector;              /* [n_in]: its selector in that schema */
    int n_in;
    double seconds;             /* the building's wall clock */
} gr_mutprog;

/* Build the schemas of in[0..n) under o's root, child_dir and (course) rubrics,
   into work (a folder the grader made), jobs builds at once. 0, or a
   GR_STATUS_* code with err set (the grader's own failure: a mutant that does
   not build is no failure, it is built alone). */
int gr_mutprog_build(const gr_grade_opts *o, const char *work, const gr_mutprog_in *in, int n,
                     int jobs, gr_mutprog *out, char *err, size_t errlen);

/* Set o up to grade mutant i: its schema's program with the selector set,
   written into work, as o->built (b holds the build o points at), or, for one
   built alone, its source written into work as o->sources. The file written
   (malloc'd: the caller removes and frees it), or NULL with err. */
char *gr_mutprog_prepare(const gr_mutprog *p, const gr_mutprog_in *in, int i, const char *work,
                         gr_grade_opts *o, gr_build *b, char *err, size_t errlen);

/* How many mutants are in a schema. */
int gr_mutprog_count(const gr_mutprog *p);

void gr_mutprog_free(gr_mutprog *p);

#endif
