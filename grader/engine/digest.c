/* digest.c: the digest, excerpt and relation of an uncatalogued wrong answer
 * (see digest.h). */
#include "engine/digest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compare.h"
#include "engine/relation.h"
#include "engine/seed.h"

int gr_digest_fixed_inputs(const gr_lab_module *mod, const gr_rubric_test *t, const gr_case *c,
                           const char *secret, int lab)
{
    if (gr_rubric_test_param(t, "seed", -1.0) >= 0)
        return 1;
    /* a worked example is small; a large case is a random one, whose probe
       would cost another reference computation for nothing */
    uint64_t elems = 0;
    for (int i = 0; i < c->call.n_bufs; i++)
        elems += c->call.bufs[i].count;
    if (elems > GR_PROBE_MAX_ELEMS)
        return 0;
    /* a student id no roster holds: its seed is unlike any student's */
    uint64_t other = gr_seed(secret, "\x01" "attnlab fixed-input probe", lab, t->name);
    gr_case probe;
    memset(&probe, 0, sizeof probe);     /* freed below even when make_case fails early */
    char err[256];
    unsigned char *a = NULL, *b = NULL;
    size_t alen = 0, blen = 0;
    int same = 0;
    if (mod->make_case(t, other, &probe, err, sizeof err) == 0 &&
        proto_encode_request(&c->call, &a, &alen) == 0 &&
        proto_encode_request(&probe.call, &b, &blen) == 0)
        same = alen == blen && memcmp(a, b, alen) == 0;
    free(a);
    free(b);
    gr_case_free(&probe);
    return same;
}

/* ---- the digest ---------------------------------------------------------------- */

#define CHUNK 65536

/* A SipHash chain over a stream: each full chunk is hashed with the two
   running values before it, so the digest covers every byte in order. */
typedef struct chain {
    unsigned char key[2][16];
    uint64_t h[2];
    gr_strbuf buf;
} chain;

static void chain_flush(chain *ch)
{
    for (int i = 0; i < 2; i++) {
        gr_sb_appendn(&ch->buf, (const char *)&ch->h[i], sizeof ch->h[i]);
        ch->h[i] = gr_siphash24(ch->key[i], ch->buf.s ? ch->buf.s : "", ch->buf.len);
        ch->buf.len -= sizeof ch->h[i];
    }
    ch->buf.len = 0;
    if (ch->buf.s)
        ch->buf.s[0] = '\0';
}

static void chain_put(chain *ch, const char *s)
{
    gr_sb_append(&ch->buf, s);
    if (ch->buf.len >= CHUNK)
        chain_flush(ch);
}

/* One value rounded to 4 significant digits, each special value one spelling. */
static void put_f32(chain *ch, float v)
{
    char t[32];
    if (isnan(v))
        snprintf(t, sizeof t, "nan;");
    else if (isinf(v))
        snprintf(t, sizeof t, v > 0 ? "inf;" : "-inf;");
    else if (fabsf(v) < 1e-6f)
        snprintf(t, sizeof t, "0;");
    else
        snprintf(t, sizeof t, "%.3e;", (double)v);
    chain_put(ch, t);
}

static void put_buf(chain *ch, const proto_buf *b, const void *got)
{
    char t[64];
    snprintf(t, sizeof t, "|%d:%llu:", (int)b->kind, (unsigned long long)b->count);
    chain_put(ch, t);
    if (!got) {
        chain_put(ch, "absent");
        return;
    }
    for (uint64_t k = 0; k < b->count; k++) {
        switch (b->kind) {
        case PROTO_F32: put_f32(ch, ((const float *)got)[k]); continue;
        case PROTO_I32: snprintf(t, sizeof t, "%d;", (int)((const int32_t *)got)[k]); break;
        case PROTO_U8:  snprintf(t, sizeof t, "%u;", (unsigned)((const uint8_t *)got)[k]); break;
        }
        chain_put(ch, t);
    }
}

void gr_digest_output(const gr_case *c, int32_t status, void *const got[PROTO_MAX_BUFS],
                      const char *secret, int lab, const char *test, char *hex)
{
    chain ch;
    memset(&ch, 0, sizeof ch);
    static const char *const labels[4] = {"\x02digest k0", "\x02digest k1", "\x02digest k2",
                                          "\x02digest k3"};
    for (int i = 0; i < 4; i++) {
        uint64_t v = gr_seed(secret, labels[i], lab, test);
        memcpy(&ch.key[i / 2][(i % 2) * 8], &v, 8);
    }
    char t[32];
    snprintf(t, sizeof t, "status %d", (int)status);
    chain_put(&ch, t);
    for (int i = 0; i < c->call.n_bufs; i++)
        if (c->call.bufs[i].role != PROTO_IN)
            put_buf(&ch, &c->call.bufs[i], got[i]);
    chain_flush(&ch);
    free(ch.buf.s);
    snprintf(hex, GR_DIGEST_HEX + 1, "%016llx%016llx", (unsigned long long)ch.h[0],
             (unsigned long long)ch.h[1]);
}

/* ---- the excerpt and the relation ------------------------------------------------ */

/* The shape the relation finders read buffer i of c with. */
static gr_rel_shape shape_of(const gr_case *c, int i)
{
    const int *sh = c->shape[i];
    long n = (long)c->call.bufs[i].count;
    gr_rel_shape s = {sh[0] > 0 ? sh[0] : 1, sh[1], sh[2]};
    if (s.rows <= 0 || s.cols <= 0 || s.mats * s.rows * s.cols != n)
        s = (gr_rel_shape){1, 1, n};
    return s;
}

/* Cut a malloc'd text to GR_EXCERPT_MAX bytes. */
static char *bounded(char *s)
{
    if (s && strlen(s) > GR_EXCERPT_MAX)
        strcpy(s + GR_EXCERPT_MAX - 3, "...");
    return s;
}

char *gr_digest_excerpt(const gr_case *c, int32_t status, void *const got[PROTO_MAX_BUFS],
                        double abs_tol, double rel_tol, char **relation)
{
    *relation = NULL;
    gr_strbuf b = {0};
    if (status != c->expected_status) {
        gr_sb_printf(&b, "returned %d, expected %d", (int)status, (int)c->expected_status);
        return bounded(gr_sb_take(&b));
    }
    gr_mismatch m;
    if (gr_compare(c, c->expected, got, abs_tol, rel_tol, &m) == 0 || m.buf < 0) {
        gr_sb_append(&b, "no element differs");
        return bounded(gr_sb_take(&b));
    }
    const proto_buf *pb = &c->call.bufs[m.buf];
    gr_compare_index_name(&b, c, m.buf, m.index);
    gr_sb_append(&b, ": expected ");
    if (c->expected[m.buf])
        gr_compare_value(&b, pb, c->expected[m.buf], m.index, 4);
    else
        gr_sb_append(&b, "nothing");
    gr_sb_append(&b, ", got ");
    if (got[m.buf])
        gr_compare_value(&b, pb, got[m.buf], m.index, 4);
    else
        gr_sb_append(&b, "nothing");
    gr_sb_printf(&b, " (%ld of %ld values wrong)", m.n_wrong, m.n_total);
    char rel[GR_EXCERPT_MAX + 1];
    if (pb->kind == PROTO_F32 && c->expected[m.buf] && got[m.buf] &&
        gr_relation_name(c->expected[m.buf], got[m.buf], shape_of(c, m.buf),
                         (gr_rel_tol){abs_tol, rel_tol}, rel, sizeof rel)) {
        const char *name = c->buf_name[m.buf];
        *relation = name ? gr_xasprintf("%s: %s", name, rel) : gr_xstrdup(rel);
        bounded(*relation);
    }
    return bounded(gr_sb_take(&b));
}

void gr_digest_keep(const gr_lab_module *mod, const gr_rubric_test *t, const gr_case *c,
                    const char *secret, int lab, int32_t status,
                    void *const got[PROTO_MAX_BUFS], gr_test_result *tr)
{
    if (tr->verdict != GR_WRONG_ANSWER || tr->misconception ||
        !gr_digest_fixed_inputs(mod, t, c, secret, lab))
        return;
    char hex[GR_DIGEST_HEX + 1];
    gr_digest_output(c, status, got, secret, lab, t->name, hex);
    tr->digest = gr_xstrdup(hex);
    tr->excerpt = gr_digest_excerpt(c, status, got, t->abs_tol, t->rel_tol, &tr->relation);
}
