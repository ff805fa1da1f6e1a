/* lab12.c: what the grader knows about lab 12, the whole layer, projections, heads, W_O and cross-attention.
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   split_heads    lab_split_heads on inputs drawn from the test's seed
 *   self_attention    lab_self_attention on inputs drawn from the test's seed
 *   cross_attention    lab_cross_attention on inputs drawn from the test's seed
 * A rubric test with params {seed: N} draws the same inputs for every student.
 *
 * TODO(new-lab): for each function, fill in its expected outputs (between
 * BEGIN EXPECTED and END EXPECTED) and, when normal draws do not fit, its
 * inputs (between BEGIN INPUTS and END INPUTS); then add the misconceptions
 * (lab 2's module shows how) and kinds for the contract's edge cases.
 */
#include "labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labsup.h"
#include "lab12_calls.h"

/* ---- lab_split_heads ---- */

/* The expected outputs of a lab_split_heads call, from its inputs. */
static void expect_split_heads(gr_case *gc)
{
    float *Xh = gr_case_expect(gc, 0);   /* (B, H, T, dh) */
    const float *X = gc->call.bufs[1].data;   /* (B, T, H, dh) */
    int B = (int)gc->call.ints[0];
    int T = (int)gc->call.ints[1];
    int H = (int)gc->call.ints[2];
    int dh = (int)gc->call.ints[3];
    gc->expected_status = LAB_OK;
    /* BEGIN EXPECTED lab_split_heads */
    (void)Xh; (void)X; (void)B; (void)T; (void)H; (void)dh;
    /* END EXPECTED lab_split_heads */
}

/* A lab_split_heads call on the sizes of test, inputs drawn from seed. */
static int gen_split_heads(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,
                       gr_case *gc, char *err, size_t errlen)
{
    (void)kind;
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    int B;
    int T;
    int H;
    int dh;
    if (gr_test_int(test, "B", 3, 1, 1024, &B, err, errlen) != 0 ||
        gr_test_int(test, "T", 4, 1, 1024, &T, err, errlen) != 0 ||
        gr_test_int(test, "H", 5, 1, 1024, &H, err, errlen) != 0 ||
        gr_test_int(test, "dh", 3, 1, 1024, &dh, err, errlen) != 0)
        return -1;
    const long count[] = { (long)B * H * T * dh, (long)B * T * H * dh };
    for (int k = 0; k < (int)(sizeof count / sizeof count[0]); k++)
        if (count[k] > GR_MAX_ELEMS) {
            snprintf(err, errlen, "test %s: sizes too large (at most %ld "
                     "elements an array)", test->name, GR_MAX_ELEMS);
            return -1;
        }
    gc->call.fn = LAB12_SPLIT_HEADS;
    gr_case_add_f32(gc, PROTO_OUT, count[0]);
    float *X = gr_case_add_f32(gc, PROTO_IN, count[1]);
    /* BEGIN INPUTS lab_split_heads */
    gr_fill_normal(&rng, X, count[1], 1.0);
    /* END INPUTS lab_split_heads */
    gr_case_set_names(gc, "Xh", "X", NULL);
    gr_case_set_shape4(gc, 0, B, H, T, dh);
    gr_case_set_shape4(gc, 1, B, T, H, dh);
    GR_CASE_ADD_INTS(gc, B, T, H, dh);
    snprintf(gc->describe, sizeof gc->describe, "lab_split_heads(Xh, X, B=%d, T=%d, H=%d, dh=%d)", B, T, H, dh);
    expect_split_heads(gc);
    return 0;
}

/* A lab_split_heads call the contract rejects: the case of test with B = -1
   (TODO(new-lab): each LAB_BAD_ARG case of the contract, a kind of its own). */
static int gen_split_heads_bad(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,
                       gr_case *gc, char *err, size_t errlen)
{
    if (gen_split_heads(kind, test, seed, gc, err, errlen) != 0)
        return -1;
    for (int b = 0; b < PROTO_MAX_BUFS; b++) {   /* no output is computed now */
        free(gc->expected[b]);
        gc->expected[b] = NULL;
    }
    gc->call.ints[0] = -1;   /* the first int argument */
    snprintf(gc->describe, sizeof gc->describe, "lab_split_heads with B = -1");
    return gr_case_expect_bad_arg(gc);
}

/* ---- lab_self_attention ---- */

/* The expected outputs of a lab_self_attention call, from its inputs. */
static void expect_self_attention(gr_case *gc)
{
    float *O = gr_case_expect(gc, 0);   /* (B, T, d_model) */
    float *A = gr_case_expect(gc, 1);   /* (B, H, T, T) */
    const float *X = gc->call.bufs[2].data;   /* (B, T, d_model) */
    const float *W = gc->call.bufs[3].data;   /* (4, d_model, d_model) */
    int B = (int)gc->call.ints[0];
    int T = (int)gc->call.ints[1];
    int d_model = (int)gc->call.ints[2];
    int H = (int)gc->call.ints[3];
    int causal = (int)gc->call.ints[4];
    int average = (int)gc->call.ints[5];
    gc->expected_status = LAB_OK;
    /* BEGIN EXPECTED lab_self_attention */
    (void)O; (void)A; (void)X; (void)W; (void)B; (void)T; (void)d_model; (void)H; (void)causal; (void)average;
    /* END EXPECTED lab_self_attention */
}

/* A lab_self_attention call on the sizes of test, inputs drawn from seed. */
static int gen_self_attention(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,
                       gr_case *gc, char *err, size_t errlen)
{
    (void)kind;
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    int B;
    int T;
    int d_model;
    int H;
    int causal;
    int average;
    if (gr_test_int(test, "B", 3, 1, 1024, &B, err, errlen) != 0 ||
        gr_test_int(test, "T", 4, 1, 1024, &T, err, errlen) != 0 ||
        gr_test_int(test, "d_model", 5, 1, 1024, &d_model, err, errlen) != 0 ||
        gr_test_int(test, "H", 3, 1, 1024, &H, err, errlen) != 0 ||
        gr_test_int(test, "causal", 4, 1, 1024, &causal, err, errlen) != 0 ||
        gr_test_int(test, "average", 5, 1, 1024, &average, err, errlen) != 0)
        return -1;
    const long count[] = { (long)B * T * d_model, (long)B * H * T * T, (long)B * T * d_model, (long)4 * d_model * d_model };
    for (int k = 0; k < (int)(sizeof count / sizeof count[0]); k++)
        if (count[k] > GR_MAX_ELEMS) {
            snprintf(err, errlen, "test %s: sizes too large (at most %ld "
                     "elements an array)", test->name, GR_MAX_ELEMS);
            return -1;
        }
    gc->call.fn = LAB12_SELF_ATTENTION;
    gr_case_add_f32(gc, PROTO_OUT, count[0]);
    gr_case_add_f32(gc, PROTO_OUT, count[1]);
    float *X = gr_case_add_f32(gc, PROTO_IN, count[2]);
    float *W = gr_case_add_f32(gc, PROTO_IN, count[3]);
    /* BEGIN INPUTS lab_self_attention */
    gr_fill_normal(&rng, X, count[2], 1.0);
    gr_fill_normal(&rng, W, count[3], 1.0);
    /* END INPUTS lab_self_attention */
    gr_case_set_names(gc, "O", "A", "X", "W", NULL);
    gr_case_set_shape(gc, 0, B, T, d_model);
    gr_case_set_shape4(gc, 1, B, H, T, T);
    gr_case_set_shape(gc, 2, B, T, d_model);
    gr_case_set_shape(gc, 3, 4, d_model, d_model);
    GR_CASE_ADD_INTS(gc, B, T, d_model, H, causal, average);
    snprintf(gc->describe, sizeof gc->describe, "lab_self_attention(O, A, X, W, B=%d, T=%d, d_model=%d, H=%d, causal=%d, average=%d)", B, T, d_model, H, causal, average);
    expect_self_attention(gc);
    return 0;
}

/* A lab_self_attention call the contract rejects: the case of test with B = -1
   (TODO(new-lab): each LAB_BAD_ARG case of the contract, a kind of its own). */
static int gen_self_attention_bad(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,
                       gr_case *gc, char *err, size_t errlen)
{
    if (gen_self_attention(kind, test, seed, gc, err, errlen) != 0)
        return -1;
    for (int b = 0; b < PROTO_MAX_BUFS; b++) {   /* no output is computed now */
        free(gc->expected[b]);
        gc->expected[b] = NULL;
    }
    gc->call.ints[0] = -1;   /* the first int argument */
    snprintf(gc->describe, sizeof gc->describe, "lab_self_attention with B = -1");
    return gr_case_expect_bad_arg(gc);
}

/* ---- lab_cross_attention ---- */

/* The expected outputs of a lab_cross_attention call, from its inputs. */
static void expect_cross_attention(gr_case *gc)
{
    float *O = gr_case_expect(gc, 0);   /* (B, Tq, d_model) */
    float *A = gr_case_expect(gc, 1);   /* (B, H, Tq, Tk) */
    const float *Y = gc->call.bufs[2].data;   /* (B, Tq, d_model) */
    const float *S = gc->call.bufs[3].data;   /* (B, Tk, d_model) */
    const float *W = gc->call.bufs[4].data;   /* (4, d_model, d_model) */
    const uint8_t *keep = gc->call.bufs[5].data;   /* (B, Tk) */
    int B = (int)gc->call.ints[0];
    int Tq = (int)gc->call.ints[1];
    int Tk = (int)gc->call.ints[2];
    int d_model = (int)gc->call.ints[3];
    int H = (int)gc->call.ints[4];
    int average = (int)gc->call.ints[5];
    gc->expected_status = LAB_OK;
    /* BEGIN EXPECTED lab_cross_attention */
    (void)O; (void)A; (void)Y; (void)S; (void)W; (void)keep; (void)B; (void)Tq; (void)Tk; (void)d_model; (void)H; (void)average;
    /* END EXPECTED lab_cross_attention */
}

/* A lab_cross_attention call on the sizes of test, inputs drawn from seed. */
static int gen_cross_attention(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,
                       gr_case *gc, char *err, size_t errlen)
{
    (void)kind;
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    int B;
    int Tq;
    int Tk;
    int d_model;
    int H;
    int average;
    if (gr_test_int(test, "B", 3, 1, 1024, &B, err, errlen) != 0 ||
        gr_test_int(test, "Tq", 4, 1, 1024, &Tq, err, errlen) != 0 ||
        gr_test_int(test, "Tk", 5, 1, 1024, &Tk, err, errlen) != 0 ||
        gr_test_int(test, "d_model", 3, 1, 1024, &d_model, err, errlen) != 0 ||
        gr_test_int(test, "H", 4, 1, 1024, &H, err, errlen) != 0 ||
        gr_test_int(test, "average", 5, 1, 1024, &average, err, errlen) != 0)
        return -1;
    const long count[] = { (long)B * Tq * d_model, (long)B * H * Tq * Tk, (long)B * Tq * d_model, (long)B * Tk * d_model, (long)4 * d_model * d_model, (long)B * Tk };
    for (int k = 0; k < (int)(sizeof count / sizeof count[0]); k++)
        if (count[k] > GR_MAX_ELEMS) {
            snprintf(err, errlen, "test %s: sizes too large (at most %ld "
                     "elements an array)", test->name, GR_MAX_ELEMS);
            return -1;
        }
    gc->call.fn = LAB12_CROSS_ATTENTION;
    gr_case_add_f32(gc, PROTO_OUT, count[0]);
    gr_case_add_f32(gc, PROTO_OUT, count[1]);
    float *Y = gr_case_add_f32(gc, PROTO_IN, count[2]);
    float *S = gr_case_add_f32(gc, PROTO_IN, count[3]);
    float *W = gr_case_add_f32(gc, PROTO_IN, count[4]);
    uint8_t *keep = gr_case_add_u8(gc, PROTO_IN, count[5]);
    /* BEGIN INPUTS lab_cross_attention */
    gr_fill_normal(&rng, Y, count[2], 1.0);
    gr_fill_normal(&rng, S, count[3], 1.0);
    gr_fill_normal(&rng, W, count[4], 1.0);
    for (long k = 0; k < count[5]; k++)
        keep[k] = (uint8_t)(sup_rng_u64(&rng) % 2);
    /* END INPUTS lab_cross_attention */
    gr_case_set_names(gc, "O", "A", "Y", "S", "W", "keep", NULL);
    gr_case_set_shape(gc, 0, B, Tq, d_model);
    gr_case_set_shape4(gc, 1, B, H, Tq, Tk);
    gr_case_set_shape(gc, 2, B, Tq, d_model);
    gr_case_set_shape(gc, 3, B, Tk, d_model);
    gr_case_set_shape(gc, 4, 4, d_model, d_model);
    gr_case_set_shape2(gc, 5, B, Tk);
    GR_CASE_ADD_INTS(gc, B, Tq, Tk, d_model, H, average);
    snprintf(gc->describe, sizeof gc->describe, "lab_cross_attention(O, A, Y, S, W, keep, B=%d, Tq=%d, Tk=%d, d_model=%d, H=%d, average=%d)", B, Tq, Tk, d_model, H, average);
    expect_cross_attention(gc);
    return 0;
}

/* A lab_cross_attention call the contract rejects: the case of test with B = -1
   (TODO(new-lab): each LAB_BAD_ARG case of the contract, a kind of its own). */
static int gen_cross_attention_bad(const gr_case_kind *kind, const gr_rubric_test *test, uint64_t seed,
                       gr_case *gc, char *err, size_t errlen)
{
    if (gen_cross_attention(kind, test, seed, gc, err, errlen) != 0)
        return -1;
    for (int b = 0; b < PROTO_MAX_BUFS; b++) {   /* no output is computed now */
        free(gc->expected[b]);
        gc->expected[b] = NULL;
    }
    gc->call.ints[0] = -1;   /* the first int argument */
    snprintf(gc->describe, sizeof gc->describe, "lab_cross_attention with B = -1");
    return gr_case_expect_bad_arg(gc);
}

/* ---- misconceptions ---- */

#if 0   /* TODO(new-lab): the known mistakes, then .misconceptions below. Each is named
           on a visible test (validate requires it) and planted as a mutant in
           data/mutants/lab12/manifest.yaml; predict fills out[b] with what a
           student holding the mistake returns for c (gr_case_alloc_like), or
           returns -1 when the mistake does not apply to c. Lab 2's module has many. */
static int predict_example(const gr_case *c, void *out[PROTO_MAX_BUFS])
{
    float *o = gr_case_alloc_like(c, 0);
    /* ... what the mistaken code computes from c->call.bufs[...].data ... */
    out[0] = o;
    return 0;
}

static const gr_misconception misconceptions[] = {
    {"example", "the mistake in a few words", "what the code does wrong, in one or two "
     "sentences, and why it matters", {12, "3"}, predict_example},
};
#endif

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c, char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "split_heads", gen_split_heads, LAB12_SPLIT_HEADS, GR_VARIANT_RANDOM },
        { "split_heads_bad", gen_split_heads_bad, LAB12_SPLIT_HEADS, GR_VARIANT_BAD },
        { "self_attention", gen_self_attention, LAB12_SELF_ATTENTION, GR_VARIANT_RANDOM },
        { "self_attention_bad", gen_self_attention_bad, LAB12_SELF_ATTENTION, GR_VARIANT_BAD },
        { "cross_attention", gen_cross_attention, LAB12_CROSS_ATTENTION, GR_VARIANT_RANDOM },
        { "cross_attention_bad", gen_cross_attention_bad, LAB12_CROSS_ATTENTION, GR_VARIANT_BAD },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 12, t, seed, c, err, errlen);
}

const gr_lab_module gr_lab12_module = {
    .number = 12,
    .dir = "lab12-layer",
    .make_case = make_case,
    .misconceptions = NULL,   /* TODO(new-lab): misconceptions, from the block above */
    .n_misconceptions = 0,    /* and GR_N_KINDS(misconceptions) */
    .input_window = NULL,
};
