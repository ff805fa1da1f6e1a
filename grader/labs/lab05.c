/* lab05.c: what the grader knows about lab 5, pre- versus post-softmax masking.
 *
 * Three functions are graded (lab05_calls.h, generated from the manifest, numbers them):
 *   lab_attend_premask      mask the scores (-inf), softmax, O = W V
 *   lab_attend_postmask     softmax over every key, zero the padded weights
 *                           (the bug, on purpose), O = W V and the row sums
 *   lab_masking_experiment  row sums and output drift as padding grows
 *
 * Dimensions: B batch, Tq queries, Tk keys, dv value size; in the experiment
 * T real keys and queries, d key size. Expected values come from libattn; the
 * misconceptions below rebuild the same pipeline with one step done wrong, so
 * a wrong answer can be named.
 */
#include "base/labmod.h"
#include "lab05_calls.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"


/* ---- the reference pipeline and its known wrong variants ---------------------- */

/* How lab_attend_premask gets the mask wrong (PRE_RIGHT: it does not). */
typedef enum pre_mode {
    PRE_RIGHT,
    PRE_POSTMASK,     /* softmax over every key, then zero the padded weights */
    PRE_ZERO,         /* padded scores set to 0 instead of -inf */
    PRE_NEG1E9,       /* padded scores set to -1e9 instead of -inf */
    PRE_OFF_BY_ONE,   /* masks j > lengths[b]: key lengths[b] stays in */
    PRE_PADMAX        /* row max taken over the padded keys too */
} pre_mode;

/* How lab_attend_postmask goes wrong. */
typedef enum post_mode {
    POST_RIGHT,
    POST_FIXED,       /* renormalises: computes the pre-mask answer instead */
    POST_SUM_BEFORE,  /* row sum taken before the padded weights are zeroed */
    POST_OFF_BY_ONE   /* zeroes j > lengths[b] */
} post_mode;

/* Lengths a student with the off-by-one mask effectively uses. */
static void lengths_plus_one(int *out, const int32_t *lengths, int B, int Tk)
{
    for (int b = 0; b < B; b++)
        out[b] = lengths[b] < Tk ? lengths[b] + 1 : Tk;
}

/* The padded-max student, step by step in float as their code runs: the row max
   includes padded scores, so a huge padded score (the contract allows +1e30)
   makes every real exp underflow to 0 and the row becomes 0/0 = NaN. */
static void premask_padmax(float *O, const float *S, const int32_t *lengths, const float *V,
                           int B, int Tq, int Tk, int dv)
{
    for (int b = 0; b < B; b++) {
        int L = lengths[b];
        const float *Vb = V + (long)b * Tk * dv;
        for (int i = 0; i < Tq; i++) {
            const float *s = S + ((long)b * Tq + i) * Tk;
            float *o = O + ((long)b * Tq + i) * dv;
            for (int c = 0; c < dv; c++) o[c] = 0.0f;
            if (L == 0) continue;
            float maxval = s[0];
            for (int j = 1; j < Tk; j++) if (s[j] > maxval) maxval = s[j];
            float sum = 0.0f;
            for (int j = 0; j < L; j++) sum += expf(s[j] - maxval);
            for (int j = 0; j < L; j++) {
                float w = expf(s[j] - maxval) / sum;
                for (int c = 0; c < dv; c++) o[c] += w * Vb[(long)j * dv + c];
            }
        }
    }
}

/* O = (pre-masked attention of S, V) as a student in `mode` computes it. */
static void premask_ref(float *O, const float *S, const int32_t *lengths, const float *V,
                        int B, int Tq, int Tk, int dv, pre_mode mode)
{
    if (mode == PRE_PADMAX) {
        premask_padmax(O, S, lengths, V, B, Tq, Tk, dv);
        return;
    }
    long rows = (long)B * Tq;
    float *W = gr_xmalloc((size_t)rows * Tk * sizeof *W);
    int *len = gr_xmalloc((size_t)B * sizeof *len);
    for (int b = 0; b < B; b++) len[b] = lengths[b];
    memcpy(W, S, (size_t)rows * Tk * sizeof *W);

    switch (mode) {
    case PRE_RIGHT:
    case PRE_PADMAX:
        /* The lesson: -inf on the scores, so exp gives exactly 0 there. */
        attn_padding_mask(W, len, B, Tq, Tk);
        attn_softmax(W, W, rows, Tk);
        break;
    case PRE_OFF_BY_ONE:
        lengths_plus_one(len, lengths, B, Tk);
        attn_padding_mask(W, len, B, Tq, Tk);
        attn_softmax(W, W, rows, Tk);
        break;
    case PRE_POSTMASK:
        attn_softmax(W, W, rows, Tk);
        attn_postmask(W, len, B, Tq, Tk);
        break;
    case PRE_ZERO:
    case PRE_NEG1E9: {
        /* A finite "mask": exp of it is not 0 (PRE_ZERO), or is 0 except on a
           row with no real key, where every score is -1e9 and softmax makes
           them uniform 1/Tk instead of zeros (PRE_NEG1E9). */
        float fill = mode == PRE_ZERO ? 0.0f : -1e9f;
        for (int b = 0; b < B; b++)
            for (int i = 0; i < Tq; i++)
                for (int j = lengths[b]; j < Tk; j++)
                    W[((long)b * Tq + i) * Tk + j] = fill;
        attn_softmax(W, W, rows, Tk);
        break;
    }
    }
    attn_output(O, W, V, B, Tq, Tk, dv);
    free(W);
    free(len);
}

/* O and rowsum of the post-masked attention (the bug lab 5 asks for) as a
   student in `mode` computes them. */
static void postmask_ref(float *O, float *rowsum, const float *S, const int32_t *lengths,
                         const float *V, int B, int Tq, int Tk, int dv, post_mode mode)
{
    long rows = (long)B * Tq;
    float *W = gr_xmalloc((size_t)rows * Tk * sizeof *W);
    int *len = gr_xmalloc((size_t)B * sizeof *len);
    for (int b = 0; b < B; b++) len[b] = lengths[b];
    memcpy(W, S, (size_t)rows * Tk * sizeof *W);

    if (mode == POST_FIXED) {
        /* mask the scores instead: the right answer to a different question */
        attn_padding_mask(W, len, B, Tq, Tk);
        attn_softmax(W, W, rows, Tk);
    } else {
        /* softmax over all Tk keys: the padding takes its share of the mass,
           then the padded weights are zeroed and nothing is renormalised */
        attn_softmax(W, W, rows, Tk);
        if (mode == POST_OFF_BY_ONE)
            lengths_plus_one(len, lengths, B, Tk);
        attn_postmask(W, len, B, Tq, Tk);
    }
    for (long r = 0; r < rows; r++) {
        double sum = 0.0;
        for (int j = 0; j < Tk; j++) sum += (double)W[r * Tk + j];
        /* the full softmax row, before zeroing, sums to 1 */
        rowsum[r] = mode == POST_SUM_BEFORE ? 1.0f : (float)sum;
    }
    attn_output(O, W, V, B, Tq, Tk, dv);
    free(W);
    free(len);
}

/* The experiment of lab05.h, as a student whose functions are in modes pm / qm
   (and who scales the scores or not) computes it. */
static void experiment_ref(float *rowsum, float *drift, const int32_t *pads, int n_pads,
                           int T, int d, uint64_t seed, pre_mode pm, post_mode qm, int scaled)
{
    int max_pad = 0;
    for (int m = 0; m < n_pads; m++)
        if (pads[m] > max_pad) max_pad = pads[m];
    int Tk_max = T + max_pad;
    float *Q = gr_xmalloc((size_t)T * d * sizeof *Q);
    float *K = gr_xmalloc((size_t)Tk_max * d * sizeof *K);
    float *V = gr_xmalloc((size_t)Tk_max * d * sizeof *V);
    float *S = gr_xmalloc((size_t)T * Tk_max * sizeof *S);
    float *O_pre = gr_xmalloc((size_t)T * d * sizeof *O_pre);
    float *O_post = gr_xmalloc((size_t)T * d * sizeof *O_post);
    float *sums = gr_xmalloc((size_t)T * sizeof *sums);

    /* The draws, in the contract's order: Q, K, V, then kp and vp, which land
       in row T of K and V and are copied down to every padded row. */
    sup_rng r;
    sup_rng_seed(&r, seed);
    sup_rng_fill_normal(&r, Q, (long)T * d);
    sup_rng_fill_normal(&r, K, (long)T * d);
    sup_rng_fill_normal(&r, V, (long)T * d);
    float *kp = gr_xmalloc((size_t)d * sizeof *kp), *vp = gr_xmalloc((size_t)d * sizeof *vp);
    sup_rng_fill_normal(&r, kp, d);
    sup_rng_fill_normal(&r, vp, d);
    for (int t = T; t < Tk_max; t++) {
        memcpy(K + (long)t * d, kp, (size_t)d * sizeof *kp);
        memcpy(V + (long)t * d, vp, (size_t)d * sizeof *vp);
    }

    const int32_t lengths[1] = { T };
    for (int m = 0; m < n_pads; m++) {
        int Tk = T + pads[m];
        if (scaled)
            attn_scaled_dot_scores(S, Q, K, 1, T, Tk, d);
        else
            attn_dot_scores(S, Q, K, 1, T, Tk, d);
        premask_ref(O_pre, S, lengths, V, 1, T, Tk, d, pm);
        postmask_ref(O_post, sums, S, lengths, V, 1, T, Tk, d, qm);
        double mean = 0.0, worst = 0.0;
        for (int i = 0; i < T; i++) mean += (double)sums[i];
        for (long n = 0; n < (long)T * d; n++) {
            double diff = fabs((double)O_post[n] - (double)O_pre[n]);
            if (diff > worst) worst = diff;
        }
        rowsum[m] = (float)(mean / T);
        drift[m] = (float)worst;
    }
    free(Q); free(K); free(V); free(S); free(kp); free(vp);
    free(O_pre); free(O_post); free(sums);
}

/* ---- unpacking a case ----------------------------------------------------------- */

/* The arguments of an attend call, read back from the case (see lab05_calls.h). */
typedef struct attend_args {
    int post;                /* 1: lab_attend_postmask (O, rowsum, S, lengths, V) */
    int B, Tq, Tk, dv;
    const float *S, *V;
    const int32_t *lengths;
    int some_padding;        /* some lengths[b] < Tk */
    int some_empty;          /* some lengths[b] == 0 */
} attend_args;

static int attend_unpack(const gr_case *c, attend_args *a)
{
    if (c->expected_status != LAB_OK)
        return -1;
    uint32_t fn = c->call.fn;
    if (fn != LAB05_ATTEND_PREMASK && fn != LAB05_ATTEND_POSTMASK)
        return -1;
    a->post = fn == LAB05_ATTEND_POSTMASK;
    int s = a->post ? 2 : 1;
    a->S = c->call.bufs[s].data;
    a->lengths = c->call.bufs[s + 1].data;
    a->V = c->call.bufs[s + 2].data;
    a->B = (int)c->call.ints[0];
    a->Tq = (int)c->call.ints[1];
    a->Tk = (int)c->call.ints[2];
    a->dv = (int)c->call.ints[3];
    a->some_padding = a->some_empty = 0;
    for (int b = 0; b < a->B; b++) {
        if (a->lengths[b] < a->Tk) a->some_padding = 1;
        if (a->lengths[b] == 0) a->some_empty = 1;
    }
    return 0;
}

/* The experiment's arguments, read back from the case. */
typedef struct experiment_args {
    const int32_t *pads;
    int n_pads, T, d;
    uint64_t seed;
} experiment_args;

static int experiment_unpack(const gr_case *c, experiment_args *a)
{
    if (c->call.fn != LAB05_MASKING_EXPERIMENT || c->expected_status != LAB_OK)
        return -1;
    a->pads = c->call.bufs[2].data;
    a->n_pads = (int)c->call.ints[0];
    a->T = (int)c->call.ints[1];
    a->d = (int)c->call.ints[2];
    a->seed = (uint64_t)c->call.ints[3];
    return 0;
}

/* ---- test generators -------------------------------------------------------- */

/* Shared by both attend functions: sizes, scores, lengths and values.
 *   sizes:  B, Tq, Tk, dv
 *   params: scale      scores are scale * N(0, 1) (1e4: max subtraction matters)
 *           empty      1: the last batch entry has length 0 (a fully masked row)
 *           pad_score  != 0: every padded score is this (e.g. 1e30) and every
 *                      padded value 1e30, which must not change O at all
 *           worked     1: the course's worked row, scores [2, 1, -1, 0.5] with
 *                      the 4th key padding and V the identity (O = the weights)
 */
/* The sizes and settings of one attend test, read and checked from the rubric. */
typedef struct attend_spec {
    int worked, empty, B, Tq, Tk, dv;
    double scale, pad_score;
} attend_spec;

static int attend_spec_read(const gr_rubric_test *t, attend_spec *a, char *err, size_t errlen)
{
    int w = a->worked = gr_rubric_test_param(t, "worked", 0) != 0;
    if (gr_test_int(t, "B", w ? 1 : 2, 1, 64, &a->B, err, errlen) ||
        gr_test_int(t, "Tq", w ? 1 : 3, 1, 512, &a->Tq, err, errlen) ||
        gr_test_int(t, "Tk", w ? 4 : 5, 1, 512, &a->Tk, err, errlen) ||
        gr_test_int(t, "dv", 4, 1, 256, &a->dv, err, errlen))
        return -1;
    a->scale = gr_rubric_test_param(t, "scale", 3.0);
    a->empty = gr_rubric_test_param(t, "empty", 0) != 0;
    a->pad_score = gr_rubric_test_param(t, "pad_score", 0.0);
    if (w && (a->B != 1 || a->Tq != 1 || a->Tk != 4 || a->dv != 4)) {
        snprintf(err, errlen, "test %s: the worked row needs B = 1, Tq = 1, Tk = 4, dv = 4", t->name);
        return -1;
    }
    if (a->empty && a->B < 2) {
        snprintf(err, errlen, "test %s: empty = 1 needs B >= 2, so a row with real keys "
                 "sits beside the fully masked one", t->name);
        return -1;
    }
    if (!w && a->Tk < 2 && !a->empty) {
        snprintf(err, errlen, "test %s: Tk must be at least 2 so some key can be padding, or "
                 "Tk = 1 with empty: 1 (lengths 1 and 0)", t->name);
        return -1;
    }
    return 0;
}

/* Random scores and values, and lengths that differ per batch entry, each in
   [1, Tk] with at least one shorter than Tk so the mask matters (and one of 0
   for an empty test); with pad_score, the padded scores set to it and the
   padded values to 1e30, which a correct mask never lets through. A premask
   test of large scores gets expose_padding's row. */
/* Scores of magnitude 1e4 put a row's whole weight on its largest score, so a
   padded key that leaks in (a padding score of 0, a length one too long)
   changes O only when it outscores the row's real keys, which some students'
   draws never do. Row 0 of the first padded batch entry makes it so for every
   draw: its real scores negative, its first padded key's positive. */
static void expose_padding(const attend_spec *a, float *S, const int32_t *lengths)
{
    for (int b = 0; b < a->B; b++) {
        int L = lengths[b];
        if (L < 1 || L >= a->Tk)
            continue;
        float *row = S + (long)b * a->Tq * a->Tk;
        for (int j = 0; j < L; j++)
            row[j] = -fabsf(row[j]);
        row[L] = fabsf(row[L]);
        return;
    }
}

static void attend_random(const attend_spec *a, sup_rng *r, float *S, int32_t *lengths, float *V,
                          int post)
{
    int B = a->B, Tq = a->Tq, Tk = a->Tk, dv = a->dv;
    gr_fill_normal(r, S, (long)B * Tq * Tk, a->scale);
    sup_rng_fill_normal(r, V, (long)B * Tk * dv);
    int padded = 0;
    for (int b = 0; b < B; b++) {
        lengths[b] = 1 + (int32_t)(sup_rng_u64(r) % (uint64_t)Tk);
        if (lengths[b] < Tk) padded = 1;
    }
    if (!padded && Tk > 1) lengths[0] = Tk - 1 - (int32_t)(sup_rng_u64(r) % (uint64_t)(Tk - 1));
    if (a->empty) {
        lengths[B - 1] = 0;
        if (lengths[0] == Tk) lengths[0] = Tk / 2 > 0 ? Tk / 2 : 1;
    }
    if (!post && a->scale >= 100)
        expose_padding(a, S, lengths);
    if (a->pad_score == 0.0)
        return;
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < Tq; i++)
            for (int j = lengths[b]; j < Tk; j++)
                S[((long)b * Tq + i) * Tk + j] = (float)a->pad_score;
        for (int j = lengths[b]; j < Tk; j++)
            for (int k = 0; k < dv; k++)
                V[((long)b * Tk + j) * dv + k] = 1e30f;
    }
}

static void attend_describe(gr_case *c, const attend_spec *a, int post, const int32_t *lengths)
{
    const char *fn = post ? "lab_attend_postmask" : "lab_attend_premask";
    char lens[96];
    gr_format_ints(lens, sizeof lens, lengths, a->B, 8);
    if (a->worked)
        snprintf(c->describe, sizeof c->describe,
                 "%s(B=1, Tq=1, Tk=4, dv=4): the worked row, scores [2, 1, -1, 0.5], "
                 "lengths {3}, V = identity", fn);
    else
        snprintf(c->describe, sizeof c->describe,
                 "%s(B=%d, Tq=%d, Tk=%d, dv=%d): lengths %s, scores ~ %g N(0,1)%s", fn, a->B,
                 a->Tq, a->Tk, a->dv, lens, a->scale,
                 a->pad_score != 0.0 ? ", padded scores and values 1e30" :
                 !post && a->scale >= 100 ? ", one padded row's first padding key scoring "
                                            "above its real keys" : "");
}

static int gen_attend(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    int post = kind->fn == LAB05_ATTEND_POSTMASK;
    attend_spec a;
    if (attend_spec_read(t, &a, err, errlen) != 0)
        return -1;
    int B = a.B, Tq = a.Tq, Tk = a.Tk, dv = a.dv;
    gr_case_add_f32(c, PROTO_OUT, (long)B * Tq * dv);               /* O */
    if (post) gr_case_add_f32(c, PROTO_OUT, (long)B * Tq);          /* rowsum */
    float *S = gr_case_add_f32(c, PROTO_IN, (long)B * Tq * Tk);
    int32_t *lengths = gr_case_add_i32(c, PROTO_IN, B);
    float *V = gr_case_add_f32(c, PROTO_IN, (long)B * Tk * dv);
    int nb = post ? 2 : 1;  /* index of S */
    gr_case_set_name(c, 0, "O");
    gr_case_set_shape(c, 0, B, Tq, dv);
    if (post) gr_case_set_name(c, 1, "rowsum");
    gr_case_set_name(c, nb, "S");
    gr_case_set_shape(c, nb, B, Tq, Tk);
    gr_case_set_name(c, nb + 1, "lengths");
    gr_case_set_name(c, nb + 2, "V");
    gr_case_set_shape(c, nb + 2, B, Tk, dv);

    sup_rng r;
    sup_rng_seed(&r, seed);
    if (a.worked) {
        /* The course's worked row: scores [2, 1, -1, 0.5], key 3 is padding.
           V = identity, so the output row IS the weight row:
           premask  -> [0.7054, 0.2595, 0.0351, 0]       (sum 1)
           postmask -> [0.6095, 0.2242, 0.0303, 0]       (sum 0.8640) */
        const float row[4] = { 2.0f, 1.0f, -1.0f, 0.5f };
        memcpy(S, row, sizeof row);
        lengths[0] = 3;
        for (int k = 0; k < 4; k++) V[k * 4 + k] = 1.0f;
    } else {
        attend_random(&a, &r, S, lengths, V, post);
    }
    GR_CASE_ADD_INTS(c, B, Tq, Tk, dv);
    c->call.fn = post ? LAB05_ATTEND_POSTMASK : LAB05_ATTEND_PREMASK;
    c->expected_status = LAB_OK;
    if (post)
        postmask_ref(gr_case_expect(c, 0), gr_case_expect(c, 1), S, lengths, V,
                     B, Tq, Tk, dv, POST_RIGHT);
    else
        premask_ref(gr_case_expect(c, 0), S, lengths, V, B, Tq, Tk, dv, PRE_RIGHT);
    attend_describe(c, &a, post, lengths);
    return 0;
}

/* A call the contract rejects: a size below 1, or with params bad 1 (a length
   Tk + 1) or -1 (a length -1) in the last batch entry, 2 or -2 in the first.
   Expect LAB_BAD_ARG with O (and rowsum) untouched. The inputs get at least
   four elements each, drawn, so a call with no elements still has its own. */
static int gen_attend_bad(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                          gr_case *c, char *err, size_t errlen)
{
    int post = kind->fn == LAB05_ATTEND_POSTMASK;
    int B, Tq, Tk, dv, bad;
    if (gr_test_int(t, "B", 2, -4, 64, &B, err, errlen) ||
        gr_test_int(t, "Tq", 3, -4, 512, &Tq, err, errlen) ||
        gr_test_int(t, "Tk", 5, -4, 512, &Tk, err, errlen) ||
        gr_test_int(t, "dv", 4, -4, 256, &dv, err, errlen) ||
        gr_test_int(t, "bad", 0, -2, 2, &bad, err, errlen))
        return -1;
    int small = B < 1 || Tq < 1 || Tk < 1 || dv < 1;
    if (small == (bad != 0)) {
        snprintf(err, errlen, "a %s test needs either a size below 1 or bad: 1, -1, 2 or -2 "
                 "(a length Tk + 1 or -1, last or first)", t->kind);
        return -1;
    }
    long nB = B > 0 ? B : 0, nQ = Tq > 0 ? Tq : 0, nK = Tk > 0 ? Tk : 0, nV = dv > 0 ? dv : 0;
    long nS = nB * nQ * nK > 4 ? nB * nQ * nK : 4, nVal = nB * nK * nV > 4 ? nB * nK * nV : 4;
    gr_case_add_f32(c, PROTO_OUT, nB * nQ * nV > 4 ? nB * nQ * nV : 4);     /* O */
    if (post) gr_case_add_f32(c, PROTO_OUT, nB * nQ > 4 ? nB * nQ : 4);    /* rowsum */
    float *S = gr_case_add_f32(c, PROTO_IN, nS);
    int32_t *lengths = gr_case_add_i32(c, PROTO_IN, nB > 4 ? nB : 4);
    float *V = gr_case_add_f32(c, PROTO_IN, nVal);
    int nb = post ? 2 : 1;
    gr_case_set_name(c, 0, "O");
    if (post) gr_case_set_name(c, 1, "rowsum");
    gr_case_set_name(c, nb, "S");
    gr_case_set_name(c, nb + 1, "lengths");
    gr_case_set_name(c, nb + 2, "V");
    sup_rng r;
    sup_rng_seed(&r, seed);
    gr_fill_normal(&r, S, nS, 1.0);
    sup_rng_fill_normal(&r, V, nVal);
    for (long b = 0; b < (nB > 4 ? nB : 4); b++)
        lengths[b] = (int32_t)(sup_rng_u64(&r) % (uint64_t)(nK + 1));
    if (bad)
        lengths[bad == 2 || bad == -2 ? 0 : B - 1] = bad > 0 ? Tk + 1 : -1;
    GR_CASE_ADD_INTS(c, B, Tq, Tk, dv);
    c->call.fn = kind->fn;
    gr_case_expect_bad_arg(c);
    char lens[96];
    gr_format_ints(lens, sizeof lens, lengths, (int)nB, 8);
    snprintf(c->describe, sizeof c->describe, "%s(B=%d, Tq=%d, Tk=%d, dv=%d): lengths %s: "
             "breaks the contract, expect LAB_BAD_ARG with %s untouched",
             post ? "lab_attend_postmask" : "lab_attend_premask", B, Tq, Tk, dv, lens,
             post ? "O and rowsum" : "O");
    return 0;
}

/* The experiment.
 *   sizes:  T, d, n_pads, max_pad
 *   params: bad_pad        1: the last pad is -1, which the contract rejects
 *           seed           the experiment's seed (default: drawn, the student's own)
 *           doubling_pads  1: pads 0, 1, 2, 4, ... as `make run` uses (n_pads <= 16)
 *           descending     1: the same pads largest first (no list is sorted)
 * pads[0] = 0 (nothing padded: row sums 1, drift 0), then distinct random pad
 * counts in [1, max_pad], ascending. */
static int gen_experiment(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                          gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int T, d, n_pads, max_pad;
    if (gr_test_int(t, "T", 16, 1, 256, &T, err, errlen) ||
        gr_test_int(t, "d", 32, 1, 512, &d, err, errlen) ||
        gr_test_int(t, "n_pads", 8, 1, 64, &n_pads, err, errlen) ||
        gr_test_int(t, "max_pad", 64, 0, 1024, &max_pad, err, errlen))
        return -1;
    int bad_pad = gr_rubric_test_param(t, "bad_pad", 0) != 0;
    if (gr_rubric_test_param(t, "doubling_pads", 0) != 0 && n_pads > 16) {
        snprintf(err, errlen, "test %s: doubling pads reach 2^%d with n_pads = %d; use at most 16",
                 t->name, n_pads - 2, n_pads);
        return -1;
    }
    if (n_pads - 1 > max_pad) {
        snprintf(err, errlen, "test %s: n_pads = %d distinct pad counts do not fit in "
                 "0..max_pad = %d; raise max_pad", t->name, n_pads, max_pad);
        return -1;
    }

    gr_case_add_f32(c, PROTO_OUT, n_pads);
    gr_case_add_f32(c, PROTO_OUT, n_pads);
    int32_t *pads = gr_case_add_i32(c, PROTO_IN, n_pads);
    gr_case_set_names(c, "rowsum", "drift", "pads", NULL);

    sup_rng r;
    sup_rng_seed(&r, seed);
    /* params {seed: S} fixes the experiment's seed and {doubling_pads: 1} the pads
       0, 1, 2, 4, ..., as `make run` uses them, so the course run can be reproduced. */
    uint64_t exp_seed = gr_experiment_seed(t, &r);
    int doubling = gr_rubric_test_param(t, "doubling_pads", 0) != 0;
    pads[0] = 0;
    for (int m = 1; doubling && m < n_pads; m++)
        pads[m] = m == 1 ? 1 : 2 * pads[m - 1];
    /* Otherwise distinct pad counts: pick from 1..max_pad without repeats, then sort. */
    for (int m = 1; !doubling && m < n_pads; m++) {
        int p, dup;
        do {
            p = 1 + (int)(sup_rng_u64(&r) % (uint64_t)max_pad);
            dup = 0;
            for (int k = 0; k < m; k++) dup |= pads[k] == p;
        } while (dup);
        int k = m;
        while (k > 0 && pads[k - 1] > p) { pads[k] = pads[k - 1]; k--; }
        pads[k] = p;
    }
    if (bad_pad) pads[n_pads - 1] = -1;
    gr_test_descending(t, pads, n_pads);   /* the largest first: no list is sorted */

    GR_CASE_ADD_INTS(c, n_pads, T, d, (int64_t)exp_seed);
    c->call.fn = LAB05_MASKING_EXPERIMENT;

    char list[96];
    gr_format_ints(list, sizeof list, pads, n_pads, 8);
    snprintf(c->describe, sizeof c->describe,
             "lab_masking_experiment(pads=%s, n_pads=%d, T=%d, d=%d, seed=%llu)%s",
             list, n_pads, T, d, (unsigned long long)exp_seed,
             bad_pad ? ": a negative pad must give LAB_BAD_ARG, outputs untouched" : "");
    if (bad_pad)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    experiment_ref(gr_case_expect(c, 0), gr_case_expect(c, 1), pads, n_pads, T, d, exp_seed,
                   PRE_RIGHT, POST_RIGHT, 1);
    return 0;
}

/* An experiment call the contract rejects: n_pads, T or d below 1 (sizes may go
   down to -4). Expect LAB_BAD_ARG with rowsum and drift untouched; the buffers
   get at least four entries, pads valid counts, so only the size is wrong. */
static int gen_experiment_bad(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                              gr_case *c, char *err, size_t errlen)
{
    (void)kind;
    int T, d, n_pads;
    if (gr_test_int(t, "T", 8, -4, 256, &T, err, errlen) ||
        gr_test_int(t, "d", 16, -4, 512, &d, err, errlen) ||
        gr_test_int(t, "n_pads", 3, -4, 64, &n_pads, err, errlen))
        return -1;
    if (T >= 1 && d >= 1 && n_pads >= 1) {
        snprintf(err, errlen, "test %s: an experiment_bad test needs n_pads, T or d below 1",
                 t->name);
        return -1;
    }
    int n = n_pads > 4 ? n_pads : 4;
    gr_case_add_f32(c, PROTO_OUT, n);
    gr_case_add_f32(c, PROTO_OUT, n);
    int32_t *pads = gr_case_add_i32(c, PROTO_IN, n);
    gr_case_set_names(c, "rowsum", "drift", "pads", NULL);
    sup_rng r;
    sup_rng_seed(&r, seed);
    uint64_t exp_seed = gr_experiment_seed(t, &r);
    for (int m = 0; m < n; m++)
        pads[m] = 2 * m;
    GR_CASE_ADD_INTS(c, n_pads, T, d, (int64_t)exp_seed);
    c->call.fn = LAB05_MASKING_EXPERIMENT;
    snprintf(c->describe, sizeof c->describe,
             "lab_masking_experiment(n_pads=%d, T=%d, d=%d, seed=%llu): breaks the contract, "
             "expect LAB_BAD_ARG with rowsum and drift untouched",
             n_pads, T, d, (unsigned long long)exp_seed);
    return gr_case_expect_bad_arg(c);
}

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c,
                     char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        { "premask", gen_attend, LAB05_ATTEND_PREMASK, 0 },
        { "postmask", gen_attend, LAB05_ATTEND_POSTMASK, 0 },
        { "premask_bad", gen_attend_bad, LAB05_ATTEND_PREMASK, 0 },
        { "postmask_bad", gen_attend_bad, LAB05_ATTEND_POSTMASK, 0 },
        { "experiment", gen_experiment, 0, 0 },
        { "experiment_bad", gen_experiment_bad, 0, 0 },
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 5, t, seed, c,
                                err, errlen);
}

/* ---- misconceptions ------------------------------------------------------------ */

/* Predict an attend call under (pm, qm), or the experiment under (pm, qm, scaled).
   Which function the case calls decides which mode is used; -1 when the mistake
   cannot show in this case. */
static int predict_with(const gr_case *c, void *out[PROTO_MAX_BUFS], pre_mode pm,
                        post_mode qm, int scaled)
{
    attend_args a;
    experiment_args e;
    if (attend_unpack(c, &a) == 0) {
        if (!a.some_padding || a.Tk < 2)
            return -1;      /* one key: the mistakes' outputs coincide, none can be named */
        if (a.post) {
            if (qm == POST_RIGHT)
                return -1;
            out[0] = gr_case_alloc_like(c, 0);
            out[1] = gr_case_alloc_like(c, 1);
            postmask_ref(out[0], out[1], a.S, a.lengths, a.V, a.B, a.Tq, a.Tk, a.dv, qm);
            return 0;
        }
        if (pm == PRE_RIGHT || (pm == PRE_NEG1E9 && !a.some_empty))
            return -1;
        out[0] = gr_case_alloc_like(c, 0);
        premask_ref(out[0], a.S, a.lengths, a.V, a.B, a.Tq, a.Tk, a.dv, pm);
        return 0;
    }
    if (experiment_unpack(c, &e) == 0) {
        /* lengths = {T} >= 1 and padded scores are ordinary: -1e9 and the padded
           max change nothing there. */
        if (pm == PRE_NEG1E9 || pm == PRE_PADMAX)
            return -1;
        out[0] = gr_case_alloc_like(c, 0);
        out[1] = gr_case_alloc_like(c, 1);
        experiment_ref(out[0], out[1], e.pads, e.n_pads, e.T, e.d, e.seed, pm, qm, scaled);
        return 0;
    }
    return -1;
}

GR_PREDICT(predict_postmask, predict_with, PRE_POSTMASK, POST_RIGHT, 1)
GR_PREDICT(predict_mask_zero, predict_with, PRE_ZERO, POST_RIGHT, 1)
GR_PREDICT(predict_neg_1e9, predict_with, PRE_NEG1E9, POST_RIGHT, 1)
GR_PREDICT(predict_padmax, predict_with, PRE_PADMAX, POST_RIGHT, 1)
GR_PREDICT(predict_off_by_one, predict_with, PRE_OFF_BY_ONE, POST_OFF_BY_ONE, 1)
GR_PREDICT(predict_renormalised, predict_with, PRE_RIGHT, POST_FIXED, 1)
GR_PREDICT(predict_sum_before, predict_with, PRE_RIGHT, POST_SUM_BEFORE, 1)
GR_PREDICT(predict_unscaled, predict_with, PRE_RIGHT, POST_RIGHT, 0)

static const gr_misconception misconceptions[] = {
    { "postmask", "mask applied after softmax",
      "lab_attend_premask zeroes the padded weights after softmax instead of setting the "
      "padded scores to -inf before it: the padding still took its share of the softmax, "
      "so the row sums to less than 1 and the output depends on how much padding there is.",
      { 5, "3" }, predict_postmask },
    { "mask_zero", "masked scores set to 0 instead of -inf",
      "A score of 0 is an ordinary score, not a mask: exp(0) = 1, so every padded key still "
      "gets a positive weight. Only -inf gives a weight of exactly 0 by design (a finite "
      "score more than about 103 below its row's max also rounds to 0 in float32, but that "
      "is underflow, not a mask).",
      { 5, "2" }, predict_mask_zero },
    { "neg_1e9", "-1e9 instead of -inf as the mask value",
      "-1e9 works while a row has a real key, but a row with no real key then holds only "
      "equal scores and softmax spreads it uniformly, 1/Tk each, instead of giving the "
      "all-zero row the contract asks for.",
      { 5, "4" }, predict_neg_1e9 },
    { "padmax", "row max taken over the padded keys too",
      "The max subtracted for stability must come from the real keys only: a huge padded "
      "score (the contract allows any finite value) then makes every real exp underflow "
      "to 0 and the row becomes 0/0 = NaN.",
      { 5, "4" }, predict_padmax },
    { "pad_off_by_one", "padding mask off by one",
      "Keys j >= lengths[b] are padding; masking only j > lengths[b] lets the first "
      "padded key in.",
      { 5, "2" }, predict_off_by_one },
    { "renormalised", "post-mask weights renormalised (the fix, not the bug)",
      "lab_attend_postmask must show the bug: softmax over all keys, zero the padded "
      "weights and keep what is left. Renormalising (or masking the scores) gives the "
      "pre-mask answer, row sums of 1 and no drift, so the experiment shows nothing.",
      { 5, "3" }, predict_renormalised },
    { "sum_before_zeroing", "row sum taken before the padded weights are zeroed",
      "rowsum must add the weights that remain after zeroing the padding; a full softmax "
      "row always sums to 1, which hides exactly the loss the lab measures.",
      { 5, "3" }, predict_sum_before },
    { "unscaled", "experiment scores not divided by sqrt(d)",
      "The experiment uses scaled dot products, q.k / sqrt(d); raw dot products have "
      "variance d and change how much weight the padding takes.",
      { 5, "5" }, predict_unscaled },
};

/* ---- input window -------------------------------------------------------------- */

/* The score row and the length of the batch entry that produced the element. */
static void input_window(const gr_case *c, int buf, long index, gr_strbuf *out)
{
    attend_args a;
    experiment_args e;
    if (attend_unpack(c, &a) == 0) {
        long row = (a.post && buf == 1) ? index : index / a.dv;  /* (b, i) */
        int b = (int)(row / a.Tq), i = (int)(row % a.Tq);
        if (a.post && buf == 1)
            gr_sb_printf(out, "  rowsum[%ld] is row (b = %d, i = %d)\n", index, b, i);
        gr_sb_printf(out, "  scores S[%d][%d]:", b, i);
        const float *s = a.S + row * a.Tk;
        gr_case_values(out, s, a.Tk, 'f', 4);
        gr_sb_printf(out, a.Tk > 8 ? " (Tk = %d)\n" : "\n", a.Tk);
        int L = a.lengths[b];
        if (L == 0)
            gr_sb_printf(out, "  lengths[%d] = 0: no real key, every key is padding\n", b);
        else if (L < a.Tk)
            gr_sb_printf(out, "  lengths[%d] = %d: keys %d..%d are padding\n", b, L, L, a.Tk - 1);
        else
            gr_sb_printf(out, "  lengths[%d] = %d: no padding in this row\n", b, L);
        return;
    }
    if (c->call.fn == LAB05_MASKING_EXPERIMENT && experiment_unpack(c, &e) == 0) {
        int p = e.pads[index];
        gr_sb_printf(out, "  pads[%ld] = %d: Tk = T + %d = %d keys, the last %d copies of kp "
                     "(T = %d, d = %d, seed = %llu)\n", index, p, p, e.T + p, p,
                     e.T, e.d, (unsigned long long)e.seed);
    }
}

const gr_lab_module gr_lab05_module = {
    .number = 5,
    .dir = "lab05-masking",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = (int)(sizeof misconceptions / sizeof misconceptions[0]),
    .input_window = input_window,
};
