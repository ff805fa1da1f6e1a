/* manifest.h: a lab's manifest, the top block of data/rubrics/labNN.yaml, read
 * and checked at build time by labgen (and by test_manifest).
 *
 * The manifest is the lab's one definition: number, name, folder, title, the
 * student's file, and each student function with its C signature, the shapes
 * of its arrays, the handout section that teaches it, the functions of the lab
 * it calls and its points. labgen writes from it the child's call numbers and
 * dispatch, the grader's function table and module registry, and the lab
 * count. The format is documented in doc/manifest.md.
 *
 * Every error is "path:line:column: what is wrong" at the YAML node at fault,
 * or at the line of another file (the contract header, the syllabus) that
 * disagrees with it. Prefix mf_.
 */
#ifndef MF_MANIFEST_H
#define MF_MANIFEST_H

#include <stddef.h>

#define MF_MAX_FUNCS    16
#define MF_MAX_ARGS     16
#define MF_MAX_DIMS     6
#define MF_MAX_USES     8
#define MF_MAX_VARIANTS 4
#define MF_NAME_LEN     48

/* One argument of a student function, as its signature declares it. */
typedef struct mf_arg {
    char name[MF_NAME_LEN];     /* "S" */
    char type[MF_NAME_LEN];     /* the C type without const and '*': "float", "uint64_t" */
    char kind;                  /* a buffer: 'f' float, 'i' int32, 'u' uint8 (child_call_shape's
                                   letters); a scalar: 'n' an int of the wire, 'r' a real */
    int n_dims;                 /* its shape (buffers only; 0: none given, not checked) */
    char dims[MF_MAX_DIMS][MF_NAME_LEN];   /* each an int argument's name or a whole number */
} mf_arg;

/* A second wire call of a function with its arrays arranged another way. */
typedef struct mf_variant {
    char suffix[MF_NAME_LEN];   /* "inplace": the call LABNN_<NAME>_INPLACE */
    char same[MF_NAME_LEN];     /* this buffer is passed the memory of ... */
    char same_as[MF_NAME_LEN];  /* ... this one (both off the wire but that one), or "" */
    char null[MF_NAME_LEN];     /* this buffer is passed as NULL (off the wire), or "" */
} mf_variant;

typedef struct mf_pos {
    int line, column;
} mf_pos;

typedef struct mf_function {
    char name[MF_NAME_LEN];     /* "lab_softmax" */
    char *signature;            /* as written in the manifest */
    mf_arg args[MF_MAX_ARGS];
    int n_args;
    int handout;                /* section N of labs/<dir>/README.md ("## N. ...") */
    char uses[MF_MAX_USES][MF_NAME_LEN];
    int n_uses;
    double points;
    mf_variant variants[MF_MAX_VARIANTS];
    int n_variants;
    mf_pos at, sig_at, handout_at, uses_at, points_at;
} mf_function;

typedef struct mf_lab {
    char *path;                 /* the rubric file read */
    int lab;                    /* 1.. */
    char name[MF_NAME_LEN];     /* "softmax" */
    char dir[MF_NAME_LEN];      /* "lab02-softmax": always labNN-<name> */
    char *title;                /* "masks and softmax" */
    char source[MF_NAME_LEN];   /* "lab02.c" */
    mf_function fns[MF_MAX_FUNCS];
    int n_fns;
    double test_points;         /* the sum of the rubric's tests' points */
    mf_pos lab_at, functions_at;
} mf_lab;

/* Read the manifest of rubric text[0..len) (path names it in messages) into *out.
   0, or -1 with the first error in err. Call mf_free either way. */
int mf_parse(const char *path, const char *text, size_t len, mf_lab *out, char *err,
             size_t errlen);
/* mf_parse of the file at path. */
int mf_load(const char *path, mf_lab *out, char *err, size_t errlen);
void mf_free(mf_lab *lab);

/* labs[0..n), sorted by lab number: the numbers must run 1..n without a gap or a
   repeat. 0, or -1 with err naming the file that breaks the run. */
int mf_check_numbers(mf_lab *labs, int n, char *err, size_t errlen);

/* Check lab against the course tree at root: labs/<dir>/labNN.h declares exactly
   the manifest's signatures (whitespace aside), each handout section exists in
   labs/<dir>/README.md, each use names another function of the lab, and each
   function's points add up to the rubric's tests' points. 0, or -1 with err. */
int mf_check_tree(const char *root, const mf_lab *lab, char *err, size_t errlen);

/* Check the syllabus at path (syllabus.md): each "### Lab N:" section's
   "**Points: P.**" against the rubric's total and its "| `lab_x` | P |" rows
   against the manifest. A lab the syllabus does not list is a warning written
   to warn (when not NULL). 0, or -1 with err at the syllabus's line. */
int mf_check_syllabus(const char *path, const mf_lab *labs, int n, char *warn, size_t warnlen,
                      char *err, size_t errlen);

/* The call number's enum name of function f (variant v, or -1 for the plain call)
   of lab: LAB02_SOFTMAX, LAB02_SOFTMAX_INPLACE. */
void mf_call_name(const mf_lab *lab, const mf_function *f, int v, char *out, size_t len);

#endif
