/* result.c: verdict names, freeing and copying a report, and a lab's result
 * as bytes between a worker and its parent (see result.h). */
#include "base/result.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *gr_result_verdict_name(gr_verdict v)
{
    switch (v) {
    case GR_PASSED:          return "passed";
    case GR_WRONG_ANSWER:    return "wrong answer";
    case GR_NOT_IMPLEMENTED: return "not implemented";
    case GR_COMPILE_ERROR:   return "compile error";
    case GR_CRASHED:         return "crashed";
    case GR_TIMED_OUT:       return "timed out";
    case GR_OUT_OF_MEMORY:   return "out of memory";
    case GR_OUTPUT_LIMIT:    return "output limit";
    case GR_FORBIDDEN_CALL:  return "forbidden call";
    case GR_MISSING:         return "missing";
    case GR_AMBIGUOUS:       return "ambiguous";
    case GR_UNREADABLE:      return "unreadable file";
    case GR_VERDICT_COUNT:   break;
    }
    return "unknown verdict";
}

int gr_result_verdict_from_name(const char *s)
{
    for (int v = 0; v < GR_VERDICT_COUNT; v++)
        if (strcmp(s, gr_result_verdict_name((gr_verdict)v)) == 0)
            return v;
    return -1;
}

void gr_result_test_free(gr_test_result *t)
{
    free(t->name);
    free(t->message);
    free(t->misconception);
    free(t->student_output);
    free(t->feedback);
    free(t->digest);
    free(t->excerpt);
    free(t->relation);
}

void gr_result_lab_free(gr_lab_result *lab)
{
    for (int j = 0; j < lab->n_tests && lab->tests; j++)
        gr_result_test_free(&lab->tests[j]);
    free(lab->tests);
    free(lab->name);
    free(lab->compile_log);
    free(lab->message);
    free(lab->source);
    free(lab->source_how);
    memset(lab, 0, sizeof *lab);
}

void gr_result_regrade_free(gr_regrade *g)
{
    free(g->when);
    free(g->test);
    free(g->reason);
    free(g->change);
}

void gr_result_free(gr_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_regrades; i++)
        gr_result_regrade_free(&r->regrades[i]);
    free(r->regrades);
    for (int i = 0; i < r->n_labs && r->labs; i++)
        gr_result_lab_free(&r->labs[i]);
    free(r->labs);
    free(r->student);
    free(r->confinement);
    free(r->sandbox);
    memset(r, 0, sizeof *r);
}

/* ---- a student's view of a report ---------------------------------------------- */

/* Keep only lr's tests shown at moment, and sum its points and times over
   them: the lab's time is its build and the kept tests' own times (its wall
   time counts the other tests, whose times may depend on inputs the student
   must not learn). */
static void keep_shown(gr_lab_result *lr, int moment)
{
    int kept = 0;
    lr->score = lr->max_score = lr->test_seconds = 0;
    for (int j = 0; j < lr->n_tests; j++) {
        gr_test_result *t = &lr->tests[j];
        if (!gr_rubric_visibility_shown(t->visibility, moment)) {
            free(t->name);
            free(t->message);
            free(t->misconception);
            free(t->student_output);
            free(t->feedback);
            free(t->digest);
            free(t->excerpt);
            free(t->relation);
            continue;
        }
        lr->score += t->score;
        lr->max_score += t->max_score;
        lr->test_seconds += t->seconds;
        lr->tests[kept++] = *t;
    }
    lr->n_tests = kept;
    lr->seconds = lr->build_seconds + lr->test_seconds;
}

void gr_result_copy_shown(const gr_report *r, int moment, gr_report *out)
{
    memset(out, 0, sizeof *out);
    out->student = r->student ? gr_xstrdup(r->student) : NULL;
    out->labs = gr_xcalloc((size_t)(r->n_labs ? r->n_labs : 1), sizeof *out->labs);
    for (int i = 0; i < r->n_labs; i++) {
        gr_strbuf w = {0};
        gr_result_lab_encode(&r->labs[i], &w);   /* a deep copy through the byte form */
        if (gr_result_lab_decode(w.s, w.len, &out->labs[out->n_labs]) == 0) {
            keep_shown(&out->labs[out->n_labs], moment);
            out->score += out->labs[out->n_labs].score;
            out->max_score += out->labs[out->n_labs].max_score;
            out->seconds += out->labs[out->n_labs].seconds;   /* the kept labs' times, no more */
            out->n_labs++;
        }
        free(w.s);
    }
}

/* ---- a lab's result as bytes, between processes of one machine -------------------- */

#define WIRE_NULL 0xffffffffu

static void put_bytes(gr_strbuf *b, const void *p, size_t n)
{
    gr_sb_appendn(b, p, n);
}

static void put_u32(gr_strbuf *b, uint32_t v) { put_bytes(b, &v, sizeof v); }
static void put_f64(gr_strbuf *b, double v) { put_bytes(b, &v, sizeof v); }

static void put_str(gr_strbuf *b, const char *s)
{
    put_u32(b, s ? (uint32_t)strlen(s) : WIRE_NULL);
    if (s)
        put_bytes(b, s, strlen(s));
}

void gr_result_lab_encode(const gr_lab_result *lr, gr_strbuf *out)
{
    put_u32(out, (uint32_t)lr->lab);
    put_str(out, lr->name);
    put_f64(out, lr->score);
    put_f64(out, lr->max_score);
    put_str(out, lr->compile_log);
    put_str(out, lr->message);
    put_f64(out, lr->build_seconds);
    put_f64(out, lr->test_seconds);
    put_f64(out, lr->seconds);
    put_str(out, lr->source);
    put_str(out, lr->source_how);
    put_u32(out, (uint32_t)lr->n_tests);
    for (int i = 0; i < lr->n_tests; i++) {
        const gr_test_result *t = &lr->tests[i];
        put_str(out, t->name);
        put_u32(out, (uint32_t)t->number);
        put_f64(out, t->score);
        put_f64(out, t->max_score);
        put_u32(out, (uint32_t)t->visibility);
        put_u32(out, (uint32_t)t->verdict);
        put_str(out, t->message);
        put_str(out, t->misconception);
        put_str(out, t->student_output);
        put_str(out, t->feedback);
        put_str(out, t->digest);
        put_str(out, t->excerpt);
        put_str(out, t->relation);
        put_f64(out, t->seconds);
    }
}

typedef struct wire {
    const char *p;
    size_t left;
    int bad;
} wire;

static void get_bytes(wire *w, void *dst, size_t n)
{
    if (w->bad || w->left < n) {
        w->bad = 1;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, w->p, n);
    w->p += n;
    w->left -= n;
}

static uint32_t get_u32(wire *w) { uint32_t v; get_bytes(w, &v, sizeof v); return v; }
static double get_f64(wire *w) { double v; get_bytes(w, &v, sizeof v); return v; }

static char *get_str(wire *w)
{
    uint32_t n = get_u32(w);
    if (w->bad || n == WIRE_NULL)
        return NULL;
    if (n > w->left) {
        w->bad = 1;
        return NULL;
    }
    char *s = gr_xmalloc((size_t)n + 1);
    get_bytes(w, s, n);
    s[n] = '\0';
    return s;
}

int gr_result_lab_decode(const char *buf, size_t len, gr_lab_result *lr)
{
    memset(lr, 0, sizeof *lr);
    wire w = {buf, len, 0};
    lr->lab = (int)get_u32(&w);
    lr->name = get_str(&w);
    lr->score = get_f64(&w);
    lr->max_score = get_f64(&w);
    lr->compile_log = get_str(&w);
    lr->message = get_str(&w);
    lr->build_seconds = get_f64(&w);
    lr->test_seconds = get_f64(&w);
    lr->seconds = get_f64(&w);
    lr->source = get_str(&w);
    lr->source_how = get_str(&w);
    uint32_t n = get_u32(&w);
    if (w.bad || n > w.left / 32) {   /* every test takes more than 32 bytes */
        gr_result_lab_free(lr);
        return -1;
    }
    lr->n_tests = (int)n;
    lr->tests = gr_xcalloc(n ? n : 1, sizeof *lr->tests);
    for (uint32_t i = 0; i < n && !w.bad; i++) {
        gr_test_result *t = &lr->tests[i];
        t->name = get_str(&w);
        t->number = (int)get_u32(&w);
        t->score = get_f64(&w);
        t->max_score = get_f64(&w);
        t->visibility = (gr_visibility)get_u32(&w);
        t->verdict = (gr_verdict)get_u32(&w);
        t->message = get_str(&w);
        t->misconception = get_str(&w);
        t->student_output = get_str(&w);
        t->feedback = get_str(&w);
        t->digest = get_str(&w);
        t->excerpt = get_str(&w);
        t->relation = get_str(&w);
        t->seconds = get_f64(&w);
        if (t->verdict >= GR_VERDICT_COUNT || t->visibility >= GR_VISIBILITY_COUNT)
            w.bad = 1;
    }
    if (w.bad || w.left != 0) {
        gr_result_lab_free(lr);
        return -1;
    }
    return 0;
}
