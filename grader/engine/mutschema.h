/* mutschema.h: many mutants of one solution in one program (a mutant schema).
 *
 * `attnlab mutate` used to build every mutant alone: a compile, an assembly, a
 * static link and every check on what is compiled, per mutant, most of its
 * time. A schema is the solution's source with every function that holds
 * mutants written out once per mutant, renamed NAME__mutK, and the function
 * itself made a dispatcher that forwards its parameters to the copy the
 * program's selector names (-1, the solution itself, as built). The selector
 * is a tagged constant in the program's read-only data, so a mutant's program
 * is the schema's program with four bytes changed (gr_mutschema_select): one
 * build per lab instead of one per mutant, and each mutant is still graded as
 * a program by the same sandbox and judge.
 *
 * Each copy is a whole function, so labels, statics and early returns mean
 * what they meant; a mutant outside a function the tokenizer can forward (a
 * file-scope initializer, a variadic function) does not fit and is built
 * alone, as are the mutants of a schema that does not build (its mutants are
 * halved until the one that breaks it is found: gr_mutschema_split).
 */
#ifndef GR_MUTSCHEMA_H
#define GR_MUTSCHEMA_H

#include <stddef.h>
#include "engine/mutgen.h"

/* The selector's tag in the program: 16 bytes, then the selector (int32). */
#define GR_MUTSCHEMA_TAG "attnlab-mutant:"

/* The function of fl whose body holds all of m, if the schema can forward it; else NULL. */
const gr_cfunc *gr_mutschema_home(const gr_cfunc_list *fl, const gr_mutation *m);

/* The schema of src[0..len) with the mutants ms[0..n) (each with a home in
   fl): mutant ms[k] runs when the selector holds k. malloc'd, NUL-terminated.
   lines (n pairs, or NULL) gets the first and last line of each mutant's copy,
   so a compiler's error can be traced to the mutant that made it. */
char *gr_mutschema_source(const char *src, size_t len, const gr_cfunc_list *fl,
                          const gr_mutation *const *ms, int n, int (*lines)[2]);

/* Which mutants' copies hold a line the compiler's log (its "FILE:LINE:COL:
   error" lines about the schema's file name) names an error on: broken[k] set
   to 1 for each. The number found. */
int gr_mutschema_broken(const char *log, const char *file, int (*lines)[2], int n, int *broken);

/* Write the schema's program exe[0..len) to path (mode 0755) with its selector
   set to k. 0, or -1 with err set (the tag is not found exactly once, or the
   file cannot be written). */
int gr_mutschema_select(const char *exe, size_t len, int k, const char *path, char *err,
                        size_t errlen);

#endif
