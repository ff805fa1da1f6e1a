/* mutgen.h: classic mechanical mutants of a C source, for `attnlab mutate`.
 *
 * The text is cut into tokens (comments, strings, character constants and
 * preprocessor lines are skipped, never mutated), and every token inside a
 * function body (brace depth 1 or more) that an operator applies to gives one
 * mutant per replacement, in the order of the text, so the same source always
 * gives the same list:
 *
 *   relational   < to <=, >= and !=; > to >=, <= and !=; <= to < and >;
 *                >= to > and <; == and != to each other
 *   logical      && and || swapped
 *   arithmetic   binary + - * / % each to each other one, and += -= *= /= %=
 *                likewise, where the operands' types allow (mtok.h guesses
 *                them: * and / never on a pointer, % on integers only)
 *   constant     an integer n to n + 1, n - 1 and 0 (0 to 1 and -1); a real x
 *                to 0, 2x, x + 1 and x - 1 (0 to 1 and -1); a negative one in
 *                parentheses, and a replacement made once when two coincide
 *   loop bound   a for loop's limit off by one both ways (" - 1" and " + 1"
 *                after its condition) and so its start, when the init assigns
 *                more than a lone constant (the constant operator moves that)
 *   delete       an expression statement (also break; and continue;) removed
 *   infinity     -INFINITY to INFINITY and to 0.0f, INFINITY to 0.0f
 *   math         expf, exp, sqrtf, sqrt, logf, log, fabsf, fabs called on one
 *                argument replaced by the argument itself; fmaxf with fminf
 *   swap         two neighbouring arguments of a call swapped, and two further
 *                apart whose types look the same
 *
 * A mutant is named by the text of the line it edits (trimmed), the
 * operator and what it replaces ("relational: < -> <="), and, when the same
 * line holds the same mutation more than once, its occurrence ("#2"): a name
 * that survives edits elsewhere in the file, for the reviewed list of
 * equivalent mutants (data/mutants/labNN/equivalent.yaml).
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
char *gr_mutgen_apply(const char *src, size_t len, const gr_mutation *m);

void gr_mutgen_list_free(gr_mutation_list *l);

/* A function defined at file scope, as the mutant schema (mutschema.h) needs
   it: where its definition starts and its body lies, its name and what a call
   forwarding its own parameters looks like. */
typedef struct gr_cfunc {
    size_t start;           /* the first token of the definition (its return type) */
    size_t name, name_len;  /* the function's name */
    size_t body, end;       /* its body's '{' and one past its '}' */
    char *args;             /* "q, k, T" (its parameters' names), "" for (void) */
    int returns_void;       /* 1: "void NAME(", so a forwarded call is no return value */
    int is_static;          /* 1: "static" among the tokens before its name */
    int forwardable;        /* 0: a parameter list the tokenizer cannot forward (...) */
} gr_cfunc;

typedef struct gr_cfunc_list {
    gr_cfunc *f;
    int n;
} gr_cfunc_list;

/* The function definitions at file scope of src[0..len), in text order. */
void gr_mutgen_functions(const char *src, size_t len, gr_cfunc_list *out);

void gr_mutgen_functions_free(gr_cfunc_list *l);

#endif
