/* mutgen.h: classic mechanical mutants of a C source, for `attnlab mutate`.
 *
 * The text is cut into tokens (comments, strings, character constants and
 * preprocessor lines are skipped, never mutated), and every token inside a
 * function body (brace depth 1 or more) that an operator applies to gives one
 * mutant per replacement, in the order of the text, so the same source always
 * gives the same list:
 *
 *   relational   < <= > >= == !=: the boundary moved and the test negated
 *   logical      && and || swapped
 *   arithmetic   binary + - * / and += -= *= /=: + with -, * with /
 *   constant     an integer n to n + 1 and to 0, a real x to 0 and to 2x (0 to 1)
 *   loop bound   a for loop's condition with " - 1" appended
 *   delete       an expression statement (also break; and continue;) removed
 *   infinity     -INFINITY to INFINITY and to 0.0f, INFINITY to 0.0f
 *   math         expf, exp, sqrtf, sqrt, logf, log, fabsf, fabs called on one
 *                argument replaced by the argument itself; fmaxf with fminf
 *   swap         two neighbouring arguments of a call swapped
 *
 * A mutant is named by the text of the line it edits (trimmed), the
 * operator and what it replaces ("relational: < -> <="), and, when the same
 * line holds the same mutation more than once, its occurrence ("#2"): a name
 * that survives edits elsewhere in the file, for the reviewed list of
 * equivalent mutants (data/mutation/equivalent.yaml).
 */
#ifndef GR_MUTGEN_H
#define GR_MUTGEN_H

#include <stddef.h>

typedef struct gr_mutation {
    size_t offset, len;     /* the bytes of the source it replaces */
    char *to;               /* what replaces them */
    int line;               /* 1-based line of offset */
    char *line_text;        /* that line, trimmed: part of the name */
    char *what;             /* "relational: < -> <=" (with " #2" for a repeat on the line) */
} gr_mutation;

typedef struct gr_mutation_list {
    gr_mutation *m;
    int n, cap;
} gr_mutation_list;

/* Every mutant of src[0..len), in text order, appended to out. */
void gr_mutgen(const char *src, size_t len, gr_mutation_list *out);

/* The source with mutation m applied (malloc'd, NUL-terminated). */
char *gr_mutation_apply(const char *src, size_t len, const gr_mutation *m);

void gr_mutation_list_free(gr_mutation_list *l);

#endif
