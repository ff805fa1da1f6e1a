/* mtok.h: the C tokenizer behind `attnlab mutate`'s operators (mutgen.h),
 * with the token predicates they share and a guess at the type an operand
 * has, so an operator is applied only where the mutant can compile.
 *
 * Comments, strings, character constants and preprocessor lines are skipped;
 * every other token keeps its place in the text, its line and its brace
 * depth. The type guess reads the declarations of the whole file (a name
 * declared float or double, or with a pointer, array or function declarator)
 * without scopes: a wrong guess costs one mutant that does not compile, which
 * `attnlab mutate` counts apart. */
#ifndef GR_MTOK_H
#define GR_MTOK_H

#include <stddef.h>

enum { GR_MTOK_ID, GR_MTOK_NUM, GR_MTOK_PUNCT };

typedef struct gr_mtok {
    int kind;
    size_t off, len;
    int line;
    int depth;              /* brace depth before the token */
} gr_mtok;

/* A declared name: what an expression holding it can be. */
typedef struct gr_mtok_decl {
    size_t off, len;        /* the name, in the source */
    unsigned char real;     /* float or double (for a pointer: its elements) */
    unsigned char ptr;      /* a pointer or an array */
    unsigned char func;     /* a function: real and ptr describe its result */
} gr_mtok_decl;

typedef struct gr_mtoks {
    gr_mtok *t;
    int n, cap;
    const char *src;
    gr_mtok_decl *d;        /* every declaration in the text, see gr_mtok_types */
    int nd;
} gr_mtoks;

/* Cut src[0..len) into tokens. */
void gr_mtok_tokenize(const char *src, size_t len, gr_mtoks *ts);
void gr_mtok_free(gr_mtoks *ts);

/* Token i's text is exactly text (0 when i is out of range). */
int gr_mtok_is(const gr_mtoks *ts, int i, const char *text);
/* Token i is one of the NULL-terminated words. */
int gr_mtok_is_any(const gr_mtoks *ts, int i, const char *const *words);
/* Token i is a type word (int, const, a name ending in _t ...). */
int gr_mtok_is_type_word(const gr_mtoks *ts, int i);
/* Token i is a keyword that starts or belongs to a statement (return, if ...). */
int gr_mtok_is_keyword(const gr_mtoks *ts, int i);
/* Token i ends an operand, so an operator after it is binary. */
int gr_mtok_ends_operand(const gr_mtoks *ts, int i);
/* The token closing the bracket opened at i, or -1. */
int gr_mtok_closing(const gr_mtoks *ts, int i);

/* What an expression can hold, as a mask of these. */
enum { GR_MTOK_REAL = 1, GR_MTOK_PTR = 2, GR_MTOK_PTR_REAL = 4 };

/* Read the declarations of the text (once, before gr_mtok_class). */
void gr_mtok_types(gr_mtoks *ts);

/* The tokens [a, b] of an expression: GR_MTOK_REAL when a float or double
   can take part in its value (a real name, element, constant, cast or call),
   GR_MTOK_PTR when a pointer does (with GR_MTOK_PTR_REAL when it points to
   reals); 0 for integers only. Subscripts and call arguments are not read. */
int gr_mtok_class(const gr_mtoks *ts, int a, int b);

/* The tokens around the binary operator at i that an operator of another
   precedence could take as its operands: from the first token of the operand
   chain on its left to the last of the one on its right. With mul set, the
   chains are of * / % only (they stop at + and -); else they run to a
   comparison, an assignment, a comma, ?, : or an open bracket. */
void gr_mtok_operands(const gr_mtoks *ts, int i, int mul, int *a, int *b);

#endif
