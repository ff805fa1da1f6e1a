/* rubric.h: a lab's rubric, loaded from data/rubrics/labNN.yaml with libyaml.
 *
 *   lab: 1                              # lab number
 *   name: scores                        # folder is labs/lab01-scores
 *   source: lab01.c                     # the one file a student submits for this lab
 *   allowed_headers: [lab01.h, labsup.h, math.h, stddef.h, stdint.h, stdlib.h, string.h]
 *   allowed_symbols: [sqrtf, sqrt, malloc, calloc, free, memset, memcpy]
 *   limits: {time_ms: 2000, memory_mb: 64, output_kb: 64}   # defaults for every test
 *   budget_s: 30                        # optional: the lab's share of a submission's
 *                                       # wall-clock budget (the sum over the labs graded)
 *   param_names:                        # optional, before tests: names only this lab's
 *     base: the frequency base (10000)  # generators read, each with what it does
 *   tests:
 *     - name: dot_worked_example        # unique in the lab
 *       kind: dot                       # which generator of the lab module builds it
 *       points: 2
 *       visibility: visible             # visible | hidden | after_due_date | after_published
 *       sizes: {B: 2, Tq: 3, Tk: 5, d: 4}   # integers the generator reads
 *       params: {scale: 1.0}                # reals the generator reads (optional)
 *       # names in sizes and params: the course's (rubric.c) or the lab's param_names
 *       tolerance: {abs: 1.0e-5, rel: 1.0e-5}
 *       limits: {time_ms: 1000}             # optional per-test override
 *
 * Unknown keys, wrong types, missing required keys, duplicate test names and
 * non-positive limits and a time limit below GR_TIME_MS_FLOOR are errors
 * reported as "file:line:column: what is wrong".
 */
#ifndef GR_RUBRIC_H
#define GR_RUBRIC_H

#include <stddef.h>

#define GR_MAX_PARAMS 16
#define GR_MAX_OWN_NAMES 32   /* names a lab may declare in param_names */

typedef enum gr_visibility {
    GR_VISIBLE = 0,        /* the student sees result and feedback at once */
    GR_HIDDEN,             /* the student never sees it */
    GR_AFTER_DUE_DATE,     /* shown after the due date */
    GR_AFTER_PUBLISHED,    /* shown once the instructor publishes the grades */
    GR_VISIBILITY_COUNT
} gr_visibility;

/* What has happened by the moment a student looks (flags, combined with |):
   after_due_date tests show once the due date passed, after_published ones
   once grades are published; hidden ones never, visible ones always. */
enum {
    GR_SHOWN_AT_SUBMISSION = 0,  /* nothing yet: only visible tests */
    GR_SHOWN_DUE_PASSED = 1,
    GR_SHOWN_PUBLISHED = 2
};

/* A lab's share of a submission's wall-clock budget when its rubric sets no
   budget_s: each lab graded adds 30 s, whatever it does. */
#define GR_DEFAULT_BUDGET_S 30

/* The shortest time limit a rubric may set, a fixed floor: a test's time
   covers starting its program as well as the call, and a grading machine
   that other jobs share stalls a process for tens of milliseconds at a time,
   so below a quarter of a second a correct solution's verdict would follow
   the machine's load (lab 1's quickest test takes 6 ms on an idle machine,
   the slowest solution test 1.4 s under its 20 s). A limit above the floor
   that is still too tight for a lab's solution fails attnlab validate
   --rubrics, which batch runs on every changed lab before regrading. Memory
   and output limits are whole MiB and KiB, and 1 of each is their floor:
   lab 7 grants 1 MiB on purpose, and no solution prints. */
#define GR_TIME_MS_FLOOR 250L

typedef struct gr_limits {
    long time_ms;          /* CPU limit; the wall clock allows a small multiple of it */
    long memory_bytes;     /* heap the student's code may allocate, and the address-space cap */
    long output_bytes;     /* stdout + stderr the child may write */
    long static_bytes;     /* not from the rubric: the student's static data, which the build
                              measured in the linked program and memory_bytes includes */
} gr_limits;

typedef struct gr_param {
    char *key;
    double value;
} gr_param;

/* A size or param name a lab declares for its own generators (param_names:). */
typedef struct gr_param_name {
    char *name;
    char *what;                       /* one line: what it does */
} gr_param_name;

typedef struct gr_rubric_test {
    char *name;
    char *kind;
    double points;
    gr_visibility visibility;
    int n_params;                     /* sizes and params, merged */
    gr_param params[GR_MAX_PARAMS];
    double abs_tol, rel_tol;          /* element passes if |got-exp| <= abs + rel*|exp| */
    gr_limits limits;                 /* lab defaults with the test's overrides applied */
    int line;                         /* 1-based line of the test in the rubric, for messages */
    const gr_param_name *own;         /* the rubric's param_names (it owns them), or NULL */
    int n_own;
} gr_rubric_test;

typedef struct gr_rubric {
    char *path;
    int lab;
    char *name;
    char *source;
    char **allowed_headers;
    int n_headers;
    char **allowed_symbols;
    int n_symbols;
    gr_limits limits;
    long budget_s;                    /* the lab's share of a submission's wall-clock budget */
    gr_param_name *own;               /* param_names: the lab's own size and param names */
    int n_own;
    gr_rubric_test *tests;
    int n_tests;
} gr_rubric;

/* Load and check a rubric. 0 on success; -1 with "file:line:column: ..." in err. */
int gr_rubric_load(const char *path, gr_rubric *out, char *err, size_t errlen);


/* The same for a rubric already in memory: buf[0..len) is the file's text (it
   need not end in NUL), path only names it in messages. */
int gr_rubric_parse(const char *path, const char *buf, size_t len, gr_rubric *out,
                    char *err, size_t errlen);

/* Free what gr_rubric_load or gr_rubric_parse allocated. */
void gr_rubric_free(gr_rubric *r);

/* Drop every test that is not visible (what `attnlab status` and `watch` run:
   the tests a student may see, in their rubric order). */
void gr_rubric_keep_visible(gr_rubric *r);

/* Value of a size or param of t, or dflt when the rubric does not give it.
   key must be one of the course's names (rubric.c) or of the lab's param_names
   (it aborts otherwise: a rubric could never set it). */
double gr_rubric_test_param(const gr_rubric_test *t, const char *key, double dflt);

/* 1 when name is one of the course's size and param names (every lab may use
   it; README's table documents it), else 0: `attnlab new-lab` declares a new
   function's other argument names in the lab's param_names. */
int gr_rubric_param_known(const char *name);

/* Name of a visibility as written in YAML and results.json. */
const char *gr_rubric_visibility_name(gr_visibility v);

/* 1 when a student may see a test of visibility v at moment (GR_SHOWN_* flags). */
int gr_rubric_visibility_shown(gr_visibility v, int moment);

#endif
