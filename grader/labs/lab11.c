/* lab11.c: what the grader knows about lab 11, positions before the scores,
 * sinusoidal, learned and rotary.
 *
 * Test kinds (the rubric's `kind`), each a call of one student function:
 *   add_sinusoidal      lab_add_sinusoidal on X ~ N(0, 1)
 *   add_learned         lab_add_learned, positions drawn in [0, max_pos), never t
 *   rope                lab_rope, positions drawn in [0, max_pos)
 *   rope_decode         lab_rope_decode at step t: the cache's rows 0..t-1 keys
 *                       drawn and rotated at their positions (attn_rope)
 *   KIND_bad            the same call with the argument param bad_arg names broken
 * A rubric test with params {seed: N} draws the same inputs for every student.
 * Expected outputs come from libattn (attn_add_sinusoidal, attn_add_learned,
 * attn_rope, attn_rope_decode); the misconceptions recompute with the
 * mistake, in double as libattn does.
 */
#include "base/labmod.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attn.h"
#include "labsup.h"
#include "lab11_calls.h"

#define I(k) ((int)c->call.ints[k])

/* What a misconception gets wrong; RIGHT is the contract. */
typedef enum pos_mode {
    RIGHT,
    SINCOS_SWAPPED,     /* sin on the odd feature, cos on the even one */
    FREQ_DIM,           /* base^(-i/d): the pair index over d, not 2i over d */
    BY_INDEX,           /* the table row of index t, not of pos[b][t] */
    OTHER_LAYOUT,       /* the other pairing of the features */
    RELATIVE,           /* the new token rotated at 0, its offset to itself */
    KEY_RAW,            /* the new key cached without its rotation */
    V_ROTATED,          /* the value rotated like the key */
} pos_mode;

/* ---- the computations, with a mistake or without --------------------------------- */

static double freq(int i, int d, double base, pos_mode m)
{
    return pow(base, (m == FREQ_DIM ? -1.0 : -2.0) * (double)i / (double)d);
}

static void sinusoidal(float *X, int B, int T, int d, double base, pos_mode m)
{
    for (long r = 0; r < (long)B * T; r++)
        for (int i = 0; i < d / 2; i++) {
            double a = (double)(r % T) * freq(i, d, base, m);
            double s = m == SINCOS_SWAPPED ? cos(a) : sin(a), co = m == SINCOS_SWAPPED ? sin(a) : cos(a);
            X[r * d + 2 * i] = (float)((double)X[r * d + 2 * i] + s);
            X[r * d + 2 * i + 1] = (float)((double)X[r * d + 2 * i + 1] + co);
        }
}

static void rotate(float *x, int pos, int d, double base, int layout, pos_mode m)
{
    if (m == OTHER_LAYOUT)
        layout = !layout;
    for (int i = 0; i < d / 2; i++) {
        int a = layout == ATTN_ROPE_INTERLEAVED ? 2 * i : i;
        int b = layout == ATTN_ROPE_INTERLEAVED ? 2 * i + 1 : i + d / 2;
        double th = (double)pos * freq(i, d, base, m), xa = x[a], xb = x[b];
        x[a] = (float)(xa * cos(th) - xb * sin(th));
        x[b] = (float)(xa * sin(th) + xb * cos(th));
    }
}

/* One decoding step (attn_rope_decode) with mistake m, into o, Kc, Vc. */
static void decode(float *o, float *Kc, float *Vc, const float *qt, const float *kt,
                   const float *vt, int t, int d, double base, int layout, pos_mode m)
{
    int at = m == RELATIVE ? 0 : t;
    float *q = gr_xmalloc((size_t)d * sizeof *q);
    double *w = gr_xmalloc(((size_t)t + 1) * sizeof *w), mx = -INFINITY, sum = 0;
    memcpy(q, qt, (size_t)d * sizeof *q);
    rotate(q, at, d, base, layout, m);
    memcpy(Kc + (long)t * d, kt, (size_t)d * sizeof *Kc);
    if (m != KEY_RAW)
        rotate(Kc + (long)t * d, at, d, base, layout, m);
    memcpy(Vc + (long)t * d, vt, (size_t)d * sizeof *Vc);
    if (m == V_ROTATED)
        rotate(Vc + (long)t * d, at, d, base, layout, m);
    for (int j = 0; j <= t; j++) {
        double s = 0;
        for (int c = 0; c < d; c++)
            s += (double)q[c] * (double)Kc[(long)j * d + c];
        w[j] = s / sqrt((double)d);
        mx = fmax(mx, w[j]);
    }
    for (int j = 0; j <= t; j++)
        sum += (w[j] = exp(w[j] - mx));
    for (int c = 0; c < d; c++) {
        double acc = 0;
        for (int j = 0; j <= t; j++)
            acc += w[j] / sum * (double)Vc[(long)j * d + c];
        o[c] = (float)acc;
    }
    free(q);
    free(w);
}

/* ---- inputs ------------------------------------------------------------------------ */

/* Sizes named in the rubric, each in [lo, 1 << 20]; -1 with err. */
static int sizes(const gr_rubric_test *t, int n, const char *const *names, const int *dflt,
                 const int *lo, int *out, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++)
        if (gr_test_int(t, names[i], dflt[i], lo[i], 1 << 20, &out[i], err, errlen) != 0)
            return -1;
    return 0;
}

/* Which argument a _bad kind breaks (param bad_arg), and how it says so. */
static int bad_arg(const gr_rubric_test *t, int n, char *err, size_t errlen)
{
    int b;
    if (gr_test_int(t, "bad_arg", 1, 1, n, &b, err, errlen) != 0)
        return -1;
    return b;
}

static int too_big(const gr_rubric_test *t, long count, char *err, size_t errlen)
{
    if (count <= GR_MAX_ELEMS)
        return 0;
    snprintf(err, errlen, "test %s: sizes too large (at most %ld elements an array)", t->name,
             GR_MAX_ELEMS);
    return 1;
}

static int layout_of(const gr_rubric_test *t, char *err, size_t errlen, int *layout)
{
    return gr_test_int(t, "layout", ATTN_ROPE_HALF, -1, 2, layout, err, errlen);
}

/* ---- lab_add_sinusoidal ---------------------------------------------------------------- */

static int gen_sinusoidal(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                          gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"B", "T", "d"};
    static const int dflt[] = {2, 8, 16}, lo[] = {0, 0, 2};
    int s[3];
    if (sizes(t, 3, names, dflt, lo, s, err, errlen) != 0 || too_big(t, (long)s[0] * s[1] * s[2], err, errlen))
        return -1;
    int B = s[0], T = s[1], d = s[2], bad = 0;
    double base = gr_rubric_test_param(t, "base", 10000.0);
    if (kind->what == GR_VARIANT_BAD && (bad = bad_arg(t, 6, err, errlen)) < 0)
        return -1;
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB11_ADD_SINUSOIDAL;
    float *X = gr_case_add_f32(c, PROTO_INOUT, (long)B * T * d);
    gr_fill_normal(&r, X, (long)B * T * d, 1.0);
    gr_case_set_names(c, "X", NULL);
    gr_case_set_shape(c, 0, B, T, d);
    static const char *const broken[] = {"", "an odd d", "base 1", "B -1", "T -1", "d 0",
                                         "base 0.5"};
    if (bad == 1) d -= 1;              /* no pairs */
    if (bad == 2) base = 1.0;          /* every pair at one frequency */
    if (bad == 3) B = -1;
    if (bad == 4) T = -1;
    if (bad == 5) d = 0;
    if (bad == 6) base = 0.5;          /* frequencies above 1 */
    GR_CASE_ADD_INTS(c, B, T, d);
    gr_case_add_real(c, base);
    snprintf(c->describe, sizeof c->describe, "lab_add_sinusoidal(X, B=%d, T=%d, d=%d, base=%g)%s%s",
             B, T, d, base, bad ? ": " : "", broken[bad]);
    if (bad)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    return attn_add_sinusoidal(gr_case_expect(c, 0), B, T, d, (float)base) == 0 ? 0 : -1;
}

/* ---- lab_add_learned ---------------------------------------------------------------- */

static int gen_learned(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                       gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"B", "T", "d", "max_pos"};
    static const int dflt[] = {2, 6, 8, 32}, lo[] = {0, 0, 1, 1};
    int s[4];
    if (sizes(t, 4, names, dflt, lo, s, err, errlen) != 0 ||
        too_big(t, (long)s[0] * s[1] * s[2] + (long)s[3] * s[2], err, errlen))
        return -1;
    int B = s[0], T = s[1], d = s[2], max_pos = s[3], bad = 0;
    if (kind->what == GR_VARIANT_BAD && (bad = bad_arg(t, 6, err, errlen)) < 0)
        return -1;
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB11_ADD_LEARNED;
    float *X = gr_case_add_f32(c, PROTO_INOUT, (long)B * T * d);
    float *P = gr_case_add_f32(c, PROTO_IN, (long)max_pos * d);
    int32_t *pos = gr_case_add_i32(c, PROTO_IN, (long)B * T);
    gr_fill_normal(&r, X, (long)B * T * d, 1.0);
    gr_fill_normal(&r, P, (long)max_pos * d, 1.0);
    for (long k = 0; k < (long)B * T; k++) {   /* a cached prefix: never the index t itself */
        pos[k] = (int32_t)(sup_rng_u64(&r) % (uint64_t)max_pos);
        if (pos[k] == (int32_t)(k % T))
            pos[k] = (pos[k] + 1) % max_pos;
    }
    if (bad == 1 && B * T > 0)
        pos[B * T - 1] = max_pos;          /* one past the table's last row */
    if (bad == 2 && B * T > 0)
        pos[0] = -1;
    gr_case_set_names(c, "X", "P", "pos", NULL);
    gr_case_set_shape(c, 0, B, T, d);
    static const char *const broken[] = {"", "a position of max_pos", "a position of -1",
                                         "B -1", "T -1", "d 0", "max_pos 0"};
    if (bad == 3) B = -1;
    if (bad == 4) T = -1;
    if (bad == 5) d = 0;
    if (bad == 6) max_pos = 0;         /* a table of no rows, even for no tokens */
    GR_CASE_ADD_INTS(c, B, T, d, max_pos);
    snprintf(c->describe, sizeof c->describe, "lab_add_learned(X, P, pos, B=%d, T=%d, d=%d, "
             "max_pos=%d)%s%s", B, T, d, max_pos, bad ? ": " : "", broken[bad]);
    if (bad)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    return attn_add_learned(gr_case_expect(c, 0), P, pos, B, T, d, max_pos) == 0 ? 0 : -1;
}

/* ---- lab_rope ---------------------------------------------------------------------------- */

static int gen_rope(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                    gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"N", "d", "max_pos"};
    static const int dflt[] = {6, 8, 64}, lo[] = {-1, 0, 1};
    int s[3], layout;
    if (sizes(t, 3, names, dflt, lo, s, err, errlen) != 0 || too_big(t, (long)s[0] * s[1], err, errlen) ||
        layout_of(t, err, errlen, &layout) != 0)
        return -1;
    int N = s[0], d = s[1], max_pos = s[2], rows = N > 0 ? N : 0;   /* N -1 sends no row */
    double base = gr_rubric_test_param(t, "base", 10000.0);
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB11_ROPE;
    float *X = gr_case_add_f32(c, PROTO_INOUT, (long)rows * d);
    int32_t *pos = gr_case_add_i32(c, PROTO_IN, rows);
    gr_fill_normal(&r, X, (long)rows * d, 1.0);
    for (int n = 0; n < rows; n++)
        pos[n] = (int32_t)(sup_rng_u64(&r) % (uint64_t)max_pos);
    gr_case_set_names(c, "X", "pos", NULL);
    gr_case_set_shape2(c, 0, rows, d);
    GR_CASE_ADD_INTS(c, N, d, layout);
    gr_case_add_real(c, base);
    snprintf(c->describe, sizeof c->describe, "lab_rope(X, pos, N=%d, d=%d, base=%g, layout=%s)",
             N, d, base, layout == ATTN_ROPE_INTERLEAVED ? "LAB_ROPE_INTERLEAVED" :
             layout == ATTN_ROPE_HALF ? "LAB_ROPE_HALF" : "neither");
    c->expected_status = LAB_OK;
    float *want = gr_case_expect(c, 0);
    if (attn_rope(want, pos, N, d, (float)base, layout) == 0)
        return 0;
    free(want);
    c->expected[0] = NULL;
    (void)kind;
    return gr_case_expect_bad_arg(c);      /* the sizes or layout the contract rejects */
}

/* ---- lab_rope_decode ------------------------------------------------------------------ */

static int gen_decode(const gr_case_kind *kind, const gr_rubric_test *t, uint64_t seed,
                      gr_case *c, char *err, size_t errlen)
{
    static const char *const names[] = {"t", "cap", "d"};
    static const int dflt[] = {5, 8, 8}, lo[] = {-1, 1, 1};
    int s[3], layout;
    if (sizes(t, 3, names, dflt, lo, s, err, errlen) != 0 || too_big(t, (long)s[1] * s[2], err, errlen) ||
        layout_of(t, err, errlen, &layout) != 0)
        return -1;
    int step = s[0], cap = s[1], d = s[2];
    double base = gr_rubric_test_param(t, "base", 10000.0);
    sup_rng r;
    sup_rng_seed(&r, seed);
    c->call.fn = LAB11_ROPE_DECODE;
    gr_case_add_f32(c, PROTO_OUT, d);
    float *Kc = gr_case_add_f32(c, PROTO_INOUT, (long)cap * d);
    float *Vc = gr_case_add_f32(c, PROTO_INOUT, (long)cap * d);
    float *in[3];
    for (int k = 0; k < 3; k++)
        in[k] = gr_case_add_f32(c, PROTO_IN, d);
    gr_fill_normal(&r, Kc, (long)cap * d, 1.0);
    gr_fill_normal(&r, Vc, (long)cap * d, 1.0);
    for (int k = 0; k < 3; k++)        /* qt's spread: scale (large scores need the max) */
        gr_fill_normal(&r, in[k], d, k == 0 ? gr_rubric_test_param(t, "scale", 1.0) : 1.0);
    if (gr_rubric_test_param(t, "opposite", 0) != 0)
        for (int k = 0; k < d; k++)    /* kt = -qt: every score far below 0 */
            in[1][k] = -in[0][k];
    int ok = step >= 0 && step < cap && d >= 2 && d % 2 == 0 && base > 1 &&
             (layout == ATTN_ROPE_INTERLEAVED || layout == ATTN_ROPE_HALF);
    for (int j = 0; ok && j < step; j++)     /* the earlier keys, cached rotated */
        attn_rope(Kc + (long)j * d, &j, 1, d, (float)base, layout);
    gr_case_set_names(c, "o", "Kc", "Vc", "qt", "kt", "vt", NULL);
    gr_case_set_shape2(c, 1, cap, d);
    gr_case_set_shape2(c, 2, cap, d);
    GR_CASE_ADD_INTS(c, step, cap, d, layout);
    gr_case_add_real(c, base);
    snprintf(c->describe, sizeof c->describe, "lab_rope_decode(o, Kc, Vc, qt, kt, vt, t=%d, "
             "cap=%d, d=%d, base=%g, layout=%d)", step, cap, d, base, layout);
    (void)kind;
    if (!ok)
        return gr_case_expect_bad_arg(c);
    c->expected_status = LAB_OK;
    float *o = gr_case_expect(c, 0), *K = gr_case_expect(c, 1), *V = gr_case_expect(c, 2);
    return attn_rope_decode(o, K, V, in[0], in[1], in[2], step, d, (float)base, layout) == 0 ? 0 : -1;
}

/* ---- misconceptions ------------------------------------------------------------------- */

/* c's decoding step with mistake m into out[0..2] (malloc'd). */
static void decode_case(const gr_case *c, void *out[PROTO_MAX_BUFS], pos_mode m)
{
    for (int b = 0; b < 3; b++)
        out[b] = gr_case_alloc_like(c, b);
    decode(out[0], out[1], out[2], c->call.bufs[3].data, c->call.bufs[4].data,
           c->call.bufs[5].data, I(0), I(2), c->call.reals[0], I(3), m);
}

/* Do the new token at 0 and its key cached unrotated give the very same
   outputs? (One key dominating a step, scores near 1000, can make them.)
   Then neither is named: a test names one mistake or none. */
static int relative_is_key_raw(const gr_case *c)
{
    void *a[PROTO_MAX_BUFS] = {0}, *b[PROTO_MAX_BUFS] = {0};
    decode_case(c, a, RELATIVE);
    decode_case(c, b, KEY_RAW);
    int same = 1;
    for (int k = 0; k < 3; k++) {
        same &= memcmp(a[k], b[k], (size_t)c->call.bufs[k].count * sizeof(float)) == 0;
        free(a[k]);
        free(b[k]);
    }
    return same;
}

static int predict(const gr_case *c, void *out[PROTO_MAX_BUFS], pos_mode m)
{
    if (c->expected_status != LAB_OK)
        return -1;
    switch (c->call.fn) {
    case LAB11_ADD_SINUSOIDAL:
        if (m != SINCOS_SWAPPED && m != FREQ_DIM)
            return -1;
        out[0] = gr_case_alloc_like(c, 0);
        sinusoidal(out[0], I(0), I(1), I(2), c->call.reals[0], m);
        return 0;
    case LAB11_ADD_LEARNED: {
        int B = I(0), T = I(1), d = I(2);
        if (m != BY_INDEX || T > I(3))
            return -1;
        float *X = out[0] = gr_case_alloc_like(c, 0);
        const float *P = c->call.bufs[1].data;
        for (long r = 0; r < (long)B * T; r++)
            for (int k = 0; k < d; k++)
                X[r * d + k] += P[(r % T) * d + k];
        return 0;
    }
    case LAB11_ROPE: {
        if (m != OTHER_LAYOUT && m != FREQ_DIM)
            return -1;
        float *X = out[0] = gr_case_alloc_like(c, 0);
        const int32_t *pos = c->call.bufs[1].data;
        for (int n = 0; n < I(0); n++)
            rotate(X + (long)n * I(1), pos[n], I(1), c->call.reals[0], I(2), m);
        return 0;
    }
    case LAB11_ROPE_DECODE:
        if (m == SINCOS_SWAPPED || m == BY_INDEX || (m == RELATIVE && I(0) == 0) ||
            ((m == RELATIVE || m == KEY_RAW) && relative_is_key_raw(c)))
            return -1;
        decode_case(c, out, m);
        return 0;
    default:
        return -1;
    }
}

GR_PREDICT(predict_sincos_swapped, predict, SINCOS_SWAPPED)
GR_PREDICT(predict_freq_dim, predict, FREQ_DIM)
GR_PREDICT(predict_by_index, predict, BY_INDEX)
GR_PREDICT(predict_other_layout, predict, OTHER_LAYOUT)
GR_PREDICT(predict_relative, predict, RELATIVE)
GR_PREDICT(predict_key_raw, predict, KEY_RAW)
GR_PREDICT(predict_v_rotated, predict, V_ROTATED)

static const gr_misconception misconceptions[] = {
    {"sincos_swapped", "sin and cos swapped in the sinusoidal encoding",
     "the even feature of each pair gets the cosine and the odd one the sine; the paper "
     "(and this contract) put sin(angle) at 2i and cos(angle) at 2i+1.", {11, "3"},
     predict_sincos_swapped},
    {"freq_dim", "the frequency base off by the dimension",
     "pair i turns at base^(-i/d), the pair index over the whole dimension; the rule is "
     "base^(-2i/d) (2i is the pair's first feature), so the slowest pair turns far too fast.",
     {11, "2"}, predict_freq_dim},
    {"by_index", "the table row of the index, not of the position",
     "X[b][t] gains P[t], the row of the token's index in this call, instead of P[pos[b][t]]; "
     "with a cache or packed sequences a token's position is not its index.", {11, "4"},
     predict_by_index},
    {"rope_layout", "the wrong pairing of the features",
     "the rotation pairs the features as the other layout does: (2i, 2i+1) where rotate_half "
     "pairs (i, i + d/2), or the reverse; weights trained for one layout need that one.",
     {11, "5"}, predict_other_layout},
    {"rope_relative", "rotated by the relative position, not the absolute one",
     "the new token is rotated at position 0 (its offset to itself) instead of t, while the "
     "cached keys sit at their absolute positions: every score then measures the wrong gap.",
     {11, "6"}, predict_relative},
    {"cache_unrotated", "the new key cached without its rotation",
     "the key of position t goes into the cache as it came, unrotated; the query is rotated, "
     "so its score with this key (and with it at every later step) carries no position.",
     {11, "6"}, predict_key_raw},
    {"rope_v", "the value rotated too",
     "RoPE rotates queries and keys so their dot product sees m - n; values are never "
     "rotated: rotating v changes the output, which no score needed.", {11, "6"},
     predict_v_rotated},
};

static int make_case(const gr_rubric_test *t, uint64_t seed, gr_case *c, char *err, size_t errlen)
{
    static const gr_case_kind kinds[] = {
        {"add_sinusoidal", gen_sinusoidal, LAB11_ADD_SINUSOIDAL, GR_VARIANT_RANDOM},
        {"add_sinusoidal_bad", gen_sinusoidal, LAB11_ADD_SINUSOIDAL, GR_VARIANT_BAD},
        {"add_learned", gen_learned, LAB11_ADD_LEARNED, GR_VARIANT_RANDOM},
        {"add_learned_bad", gen_learned, LAB11_ADD_LEARNED, GR_VARIANT_BAD},
        {"rope", gen_rope, LAB11_ROPE, GR_VARIANT_RANDOM},
        {"rope_decode", gen_decode, LAB11_ROPE_DECODE, GR_VARIANT_RANDOM},
    };
    return gr_make_case_by_kind(kinds, GR_N_KINDS(kinds), 11, t, seed, c, err, errlen);
}

const gr_lab_module gr_lab11_module = {
    .number = 11,
    .dir = "lab11-positions",
    .make_case = make_case,
    .misconceptions = misconceptions,
    .n_misconceptions = GR_N_KINDS(misconceptions),
    .input_window = NULL,
};
