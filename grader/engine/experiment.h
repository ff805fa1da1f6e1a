/* experiment.h: the course's three experiments as numbers, for `attnlab
 * experiment` (the answer key's numbers) and `attnlab plot` (those beside a
 * student's own).
 *
 *   entropy     lab 4: mean entropy of the weights vs d_k, raw and scaled scores
 *   masking     lab 5: post-mask row sum and output drift vs pad keys
 *   saturation  lab 8: mean ||ds|| of softmax backward vs d_k, raw and scaled
 *
 * Nothing here computes an experiment itself: each one is the lab module's own
 * test case (labmod.h) for the sizes of the lab's `make run`, built in memory
 * with the module's experiment kind. The case's expected outputs are the
 * reference numbers, and the student's numbers are what their lab file returns
 * for the very same call, built and run in the sandbox as `attnlab grade` does.
 * The predicted columns are the handouts' predictions from the score
 * distribution alone (labsup.h, sup_predict.c), never from the run's draws.
 *
 * The seed: every case takes it as is ({seed: S}), and lab 5's pads are those
 * of run_lab05.c (0, 1, 2, 4, ..., 64), so the numbers are those of the lab's
 * `make run SEED=S`; exp_seed and the x column say which were used.
 */
#ifndef GR_EXPERIMENT_H
#define GR_EXPERIMENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/grade.h"
#include "engine/judge.h"
#include "base/labmod.h"
#include "base/result.h"

#define GR_EXP_MAX_ROWS 16   /* x values (d_k or pad counts) */
#define GR_EXP_MAX_COLS 6    /* the x column, the two outputs, predictions */

/* One experiment of the course. */
typedef struct gr_experiment {
    const char *name;         /* what the user types: "entropy" */
    int lab;                  /* 4, 5 or 8 */
    const char *what;         /* one line: "entropy of the weights vs d_k, raw and scaled" */
    const char *out[2];       /* the case's two outputs, as the lab's run CSV names them */
    const char *notes;        /* what the columns mean, a few lines for people */
} gr_experiment;

/* The experiment called name, or NULL. */
const gr_experiment *gr_experiment_find(const char *name);

/* "entropy, masking or saturation", for messages. */
const char *gr_experiment_names(void);


/* The reference run of one experiment: the case and its numbers as a table.
   Column 0 is the x value, then the columns of the lab's run CSV in its order
   (the two outputs and the predictions). */
typedef struct gr_exp_run {
    const gr_experiment *e;
    uint64_t seed;                            /* the case seed (--seed) */
    uint64_t exp_seed;                        /* the seed the experiment itself runs with */
    int T;                                    /* keys (lab 5: real keys and queries) */
    int trials;                               /* labs 4 and 8; 0 for lab 5 */
    int d;                                    /* lab 5's key size; 0 otherwise */
    gr_case c;                                /* the module's case: the call and its expected outputs */
    int n_rows, n_cols;
    const char *col[GR_EXP_MAX_COLS];         /* column names: "d_k", "H_raw", ... */
    int out_col[2];                           /* which columns hold the two outputs */
    double v[GR_EXP_MAX_COLS][GR_EXP_MAX_ROWS];
    char settings[256];                       /* "T = 64 keys, 200 trials, d_k = 8, 16, ..., 512, seed 1" */
} gr_exp_run;

/* Build e's case for the lab's standard sizes from seed and fill out. 0, or -1
   with err (a lab module that refuses its own sizes: a grader bug). */
int gr_experiment_reference(const gr_experiment *e, uint64_t seed, gr_exp_run *out,
                            char *err, size_t errlen);

void gr_experiment_free(gr_exp_run *r);

/* What a student's lab file made of the same case. */
typedef struct gr_exp_student {
    int have;                     /* 1: y holds the student's two outputs */
    gr_verdict verdict;           /* passed; wrong answer (y may still be there); or why not */
    char *why;                    /* one line for a person; NULL when passed */
    char *source;                 /* the file that was built */
    double y[2][GR_EXP_MAX_ROWS]; /* NaN where the student wrote nothing finite */
} gr_exp_student;

/* Where the tree, the child objects and the submission are. */
typedef struct gr_exp_paths {
    const char *root;             /* the attnlab tree: data/rubrics, labs/ */
    const char *child_dir;         /* prebuilt child objects */
    const char *submission;       /* a folder laid out like labs/ */
} gr_exp_paths;

/* Build the student's lab file for ref's lab (gr_build_lab, in a private work
   folder removed afterwards) and run ref's case in the sandbox under the
   rubric's limits for the lab's experiment tests. Whatever happens to the
   student's code (missing file, compile error, crash, wrong numbers) ends in
   out; returns -1 with err only when the grader itself cannot go on (no
   rubric, no work folder, no sandbox). */
int gr_experiment_student_run(const gr_exp_run *ref, const gr_exp_paths *paths,
                              gr_exp_student *out, char *err, size_t errlen);

void gr_experiment_student_free(gr_exp_student *s);

/* A student's lab file built and run on one case of its lab's module, judged
   as `attnlab grade` judges it (the experiments above, and plot heatmap's
   lab 10 head, are made of it). */
typedef struct gr_student_case {
    gr_verdict verdict;           /* the run's verdict, or why there was none (compile error) */
    char *why;                    /* one line for a person; NULL when passed */
    char *source;                 /* the file that was built */
    int ran;                      /* 1: oc holds the judged run */
    gr_outcome oc;                /* what the function returned and wrote, and the diagnosis */
    double abs_tol, rel_tol;      /* the rubric tolerance it was judged with */
} gr_student_case;

/* Build the student's file for lab (gr_build_lab, in a private work folder
   removed afterwards) and run case c in the sandbox under the limits and
   tolerance of the rubric's first test of kind that is not a contract-breaking
   one. Whatever happens to the student's code ends in out; returns -1 with err
   only when the grader itself cannot go on (no rubric, no work folder, no
   sandbox). Free out with gr_experiment_case_free either way. */
int gr_experiment_case_run(int lab, const char *kind, const gr_case *c, const gr_exp_paths *paths,
                           gr_student_case *out, char *err, size_t errlen);

/* The misconception the run was diagnosed with, or NULL. */
const gr_misconception *gr_experiment_case_misconception(int lab, const gr_student_case *sc);

void gr_experiment_case_free(gr_student_case *s);

#endif
