/* labmod.h: what the grader knows about each lab, in the parent only.
 *
 * A lab module (grader/labs/labNN.c) turns a rubric test plus a seed into a
 * concrete call of the student's function and the expected outputs, computed
 * with libattn. Its misconceptions predict what a student holding a known wrong
 * idea would output for the same call, so a wrong answer can be named.
 */
#ifndef GR_LABMOD_H
#define GR_LABMOD_H

#include <stdint.h>
#include "labsup.h"
#include "base/protocol.h"
#include "base/rubric.h"
#include "base/util.h"

/* One concrete test: the call the child receives and what it should return. */
typedef struct gr_case {
    proto_call call;                      /* inputs and output sizes; bufs own their data */
    int32_t expected_status;              /* LAB_OK, or LAB_BAD_ARG for a contract-breaking input */
    void *expected[PROTO_MAX_BUFS];       /* expected content of each OUT/INOUT buffer, else NULL */
    char describe[256];                   /* one line for feedback: function, shapes, settings */
    int shape[PROTO_MAX_BUFS][4];         /* optional shape of each buffer for messages: (batch,
                                             rows, cols, heads), batch -1 for a 2-D array,
                                             heads 0 unless 4-D; all 0 = flat */
    const char *buf_name[PROTO_MAX_BUFS]; /* optional argument name of each buffer ("S", "W"), for messages */
} gr_case;

/* Where a handout teaches something: section of lab's handout (labs/<dir>/
   README.md; gr_layout_handout_at spells it). */
typedef struct gr_handout_ref {
    int lab;
    const char *section;    /* "3" */
} gr_handout_ref;

/* A known mistake. predict fills out[i] (malloc'd, same layout as expected[i]) with
   what a student holding it would return for c, and returns 0; or returns -1 when
   the mistake does not apply to this case. */
typedef struct gr_misconception {
    const char *id;         /* short stable id used by data/mutants/manifest.yaml: "postmask" */
    const char *name;       /* "mask applied after softmax" */
    const char *explain;    /* one or two sentences: what the code does wrong and why it matters */
    gr_handout_ref handout; /* where to reread: { 5, "2" }, lab 5's handout, section 2 */
    int (*predict)(const gr_case *c, void *out[PROTO_MAX_BUFS]);
} gr_misconception;

typedef struct gr_lab_module {
    int number;                            /* 1..GR_N_LABS */
    const char *dir;                       /* "lab01-scores" */
    /* Build the case for rubric test t from seed. 0, or -1 with err for an unknown
       kind or bad sizes (a rubric error, reported with the test's line). */
    int (*make_case)(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen);
    const gr_misconception *misconceptions;
    int n_misconceptions;
    /* Optional: describe the inputs that produced output element `index` of buffer
       `buf` (e.g. the score row and mask around it), a few short lines appended to
       out. NULL: the grading loop shows only the output row around the mismatch. */
    void (*input_window)(const gr_case *c, int buf, long index, gr_strbuf *out);
} gr_lab_module;

/* What make generates from the labs' manifests (data/rubrics/labNN.yaml, written
   by grader/tools/labgen.c into build/gen/labs_gen.h): GR_N_LABS, how many labs
   the course has (lab numbers run 1..GR_N_LABS, one per rubric), GR_MAX_USES,
   and each module's declaration (gr_lab01_module, ...). A new lab adds files only. */
#include "labs_gen.h"
/* Every lab's module, indexed by lab number - 1 (generated: build/gen/labs_gen.c). */
extern const gr_lab_module *const gr_lab_modules[GR_N_LABS];

/* A lab as its manifest names it (generated), indexed by lab number - 1. */
typedef struct gr_lab_info {
    int number;                 /* 1..GR_N_LABS */
    const char *name;           /* "softmax" */
    const char *dir;            /* "lab02-softmax" */
    const char *title;          /* "masks and softmax" */
    const char *source;         /* "lab02.c" */
} gr_lab_info;
extern const gr_lab_info gr_labs[GR_N_LABS];

/* The misconception called id in lab's module (grader/labs/functions.c), or NULL (also for
   a lab outside 1..GR_N_LABS or a NULL id). */
const gr_misconception *gr_misconception_of(int lab, const char *id);

/* Building a case (grader/labs/case.c). Buffers are added in the order of the
   student function's array arguments; ints and reals likewise. The case owns
   everything; OUT buffers get no data (the child fills them). */
float   *gr_case_add_f32(gr_case *c, proto_role role, long count);
int32_t *gr_case_add_i32(gr_case *c, proto_role role, long count);
uint8_t *gr_case_add_u8(gr_case *c, proto_role role, long count);
void     gr_case_add_int(gr_case *c, int64_t v);
void     gr_case_add_real(gr_case *c, double v);
/* Allocate (zeroed) and return the expected content of buffer buf (OUT or INOUT),
   same kind and count; for INOUT it starts as a copy of the input. */
void    *gr_case_expect(gr_case *c, int buf);
/* Allocate (zeroed) a prediction array shaped like buffer buf, for a misconception's
   predict(); for INOUT it starts as a copy of the input. */
void    *gr_case_alloc_like(const gr_case *c, int buf);
/* Record the shape of buffer buf, for mismatch messages, as the contract spells
   it: (batch, rows, cols) shows index k as [k / (rows*cols)][k / cols % rows][k % cols];
   gr_case_set_shape2's (rows, cols) as [r][c]; gr_case_set_shape4's (B, H, rows, cols)
   as [b][h][i][j]. */
void     gr_case_set_shape(gr_case *c, int buf, int batch, int rows, int cols);
void     gr_case_set_shape2(gr_case *c, int buf, int rows, int cols);
void     gr_case_set_shape4(gr_case *c, int buf, int B, int H, int rows, int cols);
/* Name buffer buf after the contract's argument ("S"), for messages. */
void     gr_case_set_name(gr_case *c, int buf, const char *name);

/* Expect every OUT and INOUT buffer of c back as the child holds it when the call
   writes nothing: OUT floats NaN, other OUT kinds 0x5A bytes, INOUT as sent. */
void     gr_case_expect_untouched(gr_case *c);

/* Expect the call of c refused: LAB_BAD_ARG, every output untouched (as
   gr_case_expect_untouched). Returns 0, what make_case then returns. */
int      gr_case_expect_bad_arg(gr_case *c);

/* Name buffers 0, 1, ... of c after the contract's arguments, up to a NULL:
   gr_case_set_names(c, "W", "Q", "K", NULL). */
void     gr_case_set_names(gr_case *c, ...);

/* Add int arguments v[0..n) in order, as gr_case_add_int does one. */
void     gr_case_add_ints(gr_case *c, const int64_t *v, int n);
/* The same for a list: GR_CASE_ADD_INTS(c, B, Tq, Tk) adds B, then Tq, then Tk. */
#define GR_CASE_ADD_INTS(c, ...)                                                    \
    gr_case_add_ints((c), (const int64_t[]){ __VA_ARGS__ },                         \
                     (int)(sizeof (const int64_t[]){ __VA_ARGS__ } / sizeof(int64_t)))

/* Free what make_case allocated in c, leaving it zeroed. */
void gr_case_free(gr_case *c);

/* Test kinds: a module's make_case looks the rubric test's kind up in a table
   (grader/labs/case.c). */
typedef struct gr_case_kind gr_case_kind;

/* Build the case of rubric test t, of kind `kind`, from seed, as make_case does: 0, or
   -1 with err for bad sizes. */
typedef int (*gr_case_gen)(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                           gr_case *c, char *err, size_t errlen);

/* Which inputs a kind's generator makes, for a generator shared by kinds. */
typedef enum gr_case_variant {
    GR_VARIANT_NONE = 0,    /* the generator has only one */
    GR_VARIANT_WORKED,      /* the handout's worked example */
    GR_VARIANT_RANDOM,      /* seeded random inputs of the rubric's sizes */
    GR_VARIANT_BAD,         /* sizes that break the contract: expect LAB_BAD_ARG */
    GR_VARIANT_EMPTY,       /* a zero size: nothing to compute */
} gr_case_variant;

/* One test kind of a lab. */
struct gr_case_kind {
    const char *kind;       /* the rubric's `kind`: "premask" */
    gr_case_gen gen;        /* builds its cases */
    uint32_t fn;            /* for a gen shared by kinds: the student function called, else 0 */
    gr_case_variant what;   /* ... and which inputs it makes */
};

/* Define `name`, a gr_misconception's predict(), as the lab's shared predictor
   `with` called with one mistake's mode: GR_PREDICT(predict_sign, predict_bias,
   BIAS_SIGN) is predict_bias(c, out, BIAS_SIGN). One line per mistake. */
#define GR_PREDICT(name, with, ...)                                                 \
    static int name(const gr_case *c, void *out[PROTO_MAX_BUFS])                    \
    {                                                                               \
        return with(c, out, __VA_ARGS__);                                           \
    }

/* The number of entries of a lab's kinds[] table, for gr_make_case_by_kind. */
#define GR_N_KINDS(kinds) ((int)(sizeof(kinds) / sizeof((kinds)[0])))

/* make_case by table: zero c, then build t's case with the generator of the kind
   called t->kind among kinds[0..n); 0, the generator's -1, or -1 with err naming
   t, its kind and every kind of the table when it is none of them. */
int gr_make_case_by_kind(const gr_case_kind *kinds, int n, int lab, const gr_rubric_test *t,
                         uint64_t seed, gr_case *c, char *err, size_t errlen);

/* Helpers the lab modules share (grader/labs/case.c). */

/* Integer size or param `key` of test t (dflt when absent) into *out: 0, or -1 with
   err naming the test, the key and its value when that is not a whole number in [lo, hi]. */
int      gr_test_int(const gr_rubric_test *t, const char *key, int dflt, int lo, int hi,
                     int *out, char *err, size_t errlen);
/* Fill x[0..n) in index order with draws of r: scale * N(0, 1), rounded once to float. */
void     gr_fill_normal(sup_rng *r, float *x, long n, double scale);
/* Fill s[0..n) with scores shift + scale * N(0, 1), each -inf instead with probability
   mask_frac (one normal, then one uniform, per element). */
void     gr_fill_scores(sup_rng *r, float *s, long n, float scale, float shift, double mask_frac);
/* The seed test t's case is made from: param seed when the rubric gives one
   (fixed inputs, the same for every student and secret: what a
   misconception is sure to cost the same everywhere), else gr_seed's draw for
   this student under secret. */
uint64_t gr_test_seed(const gr_rubric_test *t, const char *secret, const char *student, int lab);
/* A seed drawn from r for the student's own generator: 31 bits, so it prints the same
   everywhere and a student can paste it into a run of their own. */
uint64_t gr_draw_seed(sup_rng *r);
/* Append v as "nan", "inf", "-inf", or printf's %.*f (conv 'f'; %.*g from |v| >= 1e5,
   where fixed notation is unreadable) or %.*g (conv 'g') with precision prec. */
void     gr_case_float(gr_strbuf *out, float v, char conv, int prec);
/* Append " x0 x1 ..." for input windows: the first 8 values of x[0..n) as gr_case_float
   writes them, then " ..." when there are more. */
void     gr_case_values(gr_strbuf *out, const float *x, long n, char conv, int prec);
/* Append "[x0 x1 ...]" for input windows: all n values when n <= 8, else the first 6,
   " ... " and the last, then " (n values)"; each with 4 decimals. */
void     gr_case_floats(gr_strbuf *out, const float *x, long n);

/* Append "  Q[b][i] = [...]" and "  K[b][j] = [...]" lines for input windows: the
   query row (dq values) and key row (dk values) whose score is element index of
   S (B, Tq, Tk); Q is (B, Tq, dq), K (B, Tk, dk). */
void     gr_case_qk_rows(gr_strbuf *out, const float *Q, const float *K, long index,
                         int Tq, int Tk, int dq, int dk);
/* "{3, 5, 0}" into buf[0..len): x[0..n), at most `shown` of them, then ", ...". */
void     gr_format_ints(char *buf, size_t len, const int32_t *x, int n, int shown);

/* Inputs and sizes several labs make the same way (grader/labs/inputs.c). */

/* What the grader never asks for in one call: bigger would only slow grading. */
#define GR_MAX_ELEMS (4L << 20)

/* Add S (B, Tq, Tk) as the next buffer: INOUT scores ~ N(0, 1) drawn from r,
   named "S" and shaped. Returns its data. */
float   *gr_case_add_scores(gr_case *c, sup_rng *r, int B, int Tq, int Tk);
/* Fill W (rows x n) with softmax rows of scores scale * N(0, 1) drawn from r:
   realistic weights, in [0, 1], each row summing to 1. */
void     gr_fill_weights(sup_rng *r, float *W, long rows, int n, double scale);
/* Sizes rows and n of a test of a row-wise function of variant what: for
   GR_VARIANT_BAD (defaults 2, 4) rows < 0 or n < 1 as the contract forbids, else
   (defaults 4, 8) rows * n at most GR_MAX_ELEMS. 0, or -1 with err. */
int      gr_test_rows(const gr_rubric_test *t, gr_case_variant what, int *rows, int *n,
                      char *err, size_t errlen);
/* Sizes rows and n of a backward-pass test (defaults 3, 6), and *worked from param
   worked: the handout's two rows of 4, which the sizes must then be. For what
   GR_VARIANT_BAD (defaults 2, 4): rows < 1 or n < 1, as the contract forbids, each
   from -4. 0, or -1 with err. */
int      gr_backward_sizes(const gr_rubric_test *t, gr_case_variant what, int *worked,
                           int *rows, int *n, char *err, size_t errlen);
/* An experiment's seed: one drawn from r (gr_draw_seed, the student's own), unless
   param seed fixes it, as `make run SEED=S` does; r advances either way. */
uint64_t gr_experiment_seed(const gr_rubric_test *t, sup_rng *r);
/* With params {descending: 1}, reverse x[0..n) (an experiment's rising d_k or pad
   list, largest first: code that sizes buffers from the first entry shows). */
void gr_test_descending(const gr_rubric_test *t, int32_t *x, int n);

/* The score functions of labs 1 and 3, whose kinds are the variants. */

/* Sizes B, Tq, Tk against variant what: a GR_VARIANT_BAD test must break the
   contract (bad; else err "a KIND test needs <needs>"), a GR_VARIANT_EMPTY test
   needs B, Tq or Tk of 0. 0, or -1 with err. */
int      gr_scores_variant_fits(const gr_rubric_test *t, gr_case_variant what, int bad,
                                const char *needs, int B, int Tq, int Tk,
                                char *err, size_t errlen);
/* Add S (B, Tq, Tk), the scores written, as the next buffer, named "S": OUT and
   shaped, or when the call must write nothing (untouched) INOUT with at least 4
   values ~ N(0, 1) drawn from r, to come back as sent. Returns its data. */
float   *gr_scores_add_out(gr_case *c, sup_rng *r, int B, int Tq, int Tk, int untouched);
/* Expect a call of variant what (GR_VARIANT_BAD or GR_VARIANT_EMPTY) to write
   nothing: S untouched, status LAB_BAD_ARG or LAB_OK. Returns the clause that
   says so for the description. */
const char *gr_scores_expect_nothing(gr_case *c, gr_case_variant what);

/* The student functions of every lab, in the order of their manifests (generated
   into build/gen/labs_gen.c): where the handout teaches each one, which other
   functions of its lab it calls, so a report can say "fix lab_row_entropy
   first", its points, and its wire calls (labNN_calls.h): first_call, then its
   variants (the same function with its arrays arranged another way). */
typedef struct gr_lab_function {
    int lab;                              /* 1..GR_N_LABS */
    const char *name;                     /* "lab_entropy_experiment" */
    const char *handout;                  /* "labs/lab04-entropy/README.md, section 3" */
    const char *uses[GR_MAX_USES];        /* functions of the same lab it calls; NULL ends */
    double points;                        /* the points of the tests that call it */
    uint32_t first_call, n_calls;         /* its calls: first_call .. first_call + n_calls - 1 */
} gr_lab_function;
extern const gr_lab_function gr_lab_functions[];
extern const int gr_n_lab_functions;

/* Lab lab's points: its functions' points in its manifest (0 for no such lab). */
double gr_lab_points(int lab);

/* The function called name[0..len) of lab, or NULL. */
const gr_lab_function *gr_lab_function_named(int lab, const char *name, size_t len);

/* The function a test's feedback is about (feedback opens with its call,
   "lab_softmax(W, S, ...)"), or NULL when message names none of lab's. */
const gr_lab_function *gr_lab_function_of(int lab, const char *message);

/* Each student function of lab is worth in rubric r what its manifest says: the
   points of the tests whose case (built with seed 1) calls it. 0, or -1 with err
   naming the function and both sums (or the test whose case cannot be built). */
int gr_lab_function_points_check(int lab, const gr_rubric *r, char *err, size_t errlen);

#endif
