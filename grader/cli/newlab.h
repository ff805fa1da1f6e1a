/* newlab.h: what `attnlab new-lab` knows of the lab it scaffolds, and how it
 * writes the lab's files from the templates in data/newlab/.
 *
 *   newlab_spec.c     the description: signatures parsed, shapes, --from FILE
 *   newlab_render.c   the templates expanded, and the C each function needs
 *   cmd_newlab.c      the command: options, a staging folder, the files moved in
 *
 * A function is described by its C signature and the shape of each array
 * argument, as the lab's manifest (data/rubrics/labNN.yaml) declares it:
 *   int lab_row_sums(float *out, const float *W, int rows, int n)
 *   shapes: {out: [rows], W: [rows, n]}
 * A const pointer is an input, any other pointer an output; int arguments are
 * sizes (a test's `sizes`), float and double ones reals. Prefix nl_.
 */
#ifndef GR_NEWLAB_H
#define GR_NEWLAB_H

#include <stddef.h>

#define NL_MAX_FUNCS 16
#define NL_MAX_ARGS  12
#define NL_MAX_DIMS  4
#define NL_NAME_LEN  32

/* One argument of a student function. */
typedef struct nl_arg {
    char name[NL_NAME_LEN];     /* "W" */
    char type[NL_NAME_LEN];     /* the C type without const and '*': "float", "int32_t" */
    char kind;                  /* an array: 'f' float, 'i' int32, 'u' uint8; a scalar:
                                   'n' a whole number, 'r' a real */
    int out;                    /* an array the function writes (not const) */
    int n_dims;                 /* its shape: each an int argument's name or a number */
    char dims[NL_MAX_DIMS][NL_NAME_LEN];
} nl_arg;

typedef struct nl_fn {
    char name[NL_NAME_LEN];     /* "lab_row_sums" */
    char *signature;            /* as given, one line */
    nl_arg args[NL_MAX_ARGS];
    int n_args;
    double points;              /* the function's share of the lab's points */
} nl_fn;

typedef struct nl_lab {
    int lab;                    /* 1..99 */
    char name[NL_NAME_LEN];     /* "rowsums" */
    char dir[NL_NAME_LEN + 8];  /* "lab11-rowsums" */
    char *title;                /* "row sums of softmax weights" */
    nl_fn fns[NL_MAX_FUNCS];
    int n_fns;
} nl_lab;

/* ---- the description (newlab_spec.c) ---------------------------------------- */

/* Parse signature into a new function of lab (its shapes still to come). 0, or
   -1 with err saying what to fix. */
int nl_add_function(nl_lab *lab, const char *signature, char *err, size_t errlen);

/* --shape ARG=D1,D2 for the last function added. 0, or -1 with err. */
int nl_set_shape(nl_lab *lab, const char *spec, char *err, size_t errlen);

/* Read the description file at path (title, functions: signature, shapes,
   points) into lab. 0, or -1 with "path:line:column: ..." in err. */
int nl_load_description(const char *path, nl_lab *lab, char *err, size_t errlen);

/* Check the whole description: a function at least, names unique, every array
   shaped by int arguments or numbers, no argument named as the generated code's
   own variables. 0, or -1 with err. */
int nl_check(const nl_lab *lab, char *err, size_t errlen);

/* The lab's total points. */
double nl_points(const nl_lab *lab);

void nl_free(nl_lab *lab);

/* ---- the files (newlab_render.c) ------------------------------------------------ */

/* Template text expanded for lab: @KEY@ replaced by the lab's values, and the
   lines between a line holding @EACH_FUNCTION@ and one holding @END_EACH@
   repeated for each function with its own keys. NULL with err naming an
   unknown key or an unclosed block. */
char *nl_render(const char *tmpl, const char *tmpl_name, const nl_lab *lab, char *err,
                size_t errlen);

#endif
