/* result.c: verdict names, freeing a report, and the text helpers the
 * report writers share (UTF-8 decoding, one test's feedback, the summary a
 * student may always see, the atomic write). */
#include "result.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cells.h"
#include "labmod.h"
#include "report/report.h"
#include "util.h"

const char *gr_verdict_name(gr_verdict v)
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

void gr_lab_result_free(gr_lab_result *lab)
{
    for (int j = 0; j < lab->n_tests && lab->tests; j++) {
        gr_test_result *t = &lab->tests[j];
        free(t->name);
        free(t->message);
        free(t->misconception);
        free(t->student_output);
        free(t->feedback);
    }
    free(lab->tests);
    free(lab->name);
    free(lab->compile_log);
    free(lab->message);
    free(lab->source);
    free(lab->source_how);
    memset(lab, 0, sizeof *lab);
}

void gr_report_free(gr_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_labs && r->labs; i++)
        gr_lab_result_free(&r->labs[i]);
    free(r->labs);
    free(r->student);
    free(r->confinement);
    free(r->sandbox);
    memset(r, 0, sizeof *r);
}

/* ---- a student's view of a report ---------------------------------------------- */

/* Keep only lr's tests shown at moment, and sum its points over them. */
static void keep_shown(gr_lab_result *lr, int moment)
{
    int kept = 0;
    lr->score = lr->max_score = 0;
    for (int j = 0; j < lr->n_tests; j++) {
        gr_test_result *t = &lr->tests[j];
        if (!gr_visibility_shown(t->visibility, moment)) {
            free(t->name);
            free(t->message);
            free(t->misconception);
            free(t->student_output);
            free(t->feedback);
            continue;
        }
        lr->score += t->score;
        lr->max_score += t->max_score;
        lr->tests[kept++] = *t;
    }
    lr->n_tests = kept;
}

void gr_report_copy_shown(const gr_report *r, int moment, gr_report *out)
{
    memset(out, 0, sizeof *out);
    out->student = r->student ? gr_xstrdup(r->student) : NULL;
    out->seconds = r->seconds;
    out->labs = gr_xcalloc((size_t)(r->n_labs ? r->n_labs : 1), sizeof *out->labs);
    for (int i = 0; i < r->n_labs; i++) {
        gr_strbuf w = {0};
        gr_lab_result_encode(&r->labs[i], &w);   /* a deep copy through the byte form */
        if (gr_lab_result_decode(w.s, w.len, &out->labs[out->n_labs]) == 0) {
            keep_shown(&out->labs[out->n_labs], moment);
            out->score += out->labs[out->n_labs].score;
            out->max_score += out->labs[out->n_labs].max_score;
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

void gr_lab_result_encode(const gr_lab_result *lr, gr_strbuf *out)
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

int gr_lab_result_decode(const char *buf, size_t len, gr_lab_result *lr)
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
        gr_lab_result_free(lr);
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
        t->seconds = get_f64(&w);
        if (t->verdict >= GR_VERDICT_COUNT || t->visibility >= GR_VISIBILITY_COUNT)
            w.bad = 1;
    }
    if (w.bad || w.left != 0) {
        gr_lab_result_free(lr);
        return -1;
    }
    return 0;
}

/* ---- UTF-8 ---------------------------------------------------------------
 * 1 byte  0xxxxxxx                             U+0000..U+007F
 * 2 bytes 110xxxxx 10xxxxxx                    U+0080..U+07FF
 * 3 bytes 1110xxxx 10xxxxxx 10xxxxxx           U+0800..U+FFFF minus surrogates
 * 4 bytes 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx  U+10000..U+10FFFF
 * Anything else (a stray continuation byte, a truncated sequence, a longer
 * encoding than needed, a surrogate, a value past U+10FFFF) is invalid. */
int gr_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char b = s[0];
    int len;
    uint32_t min, c;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xe0) == 0xc0) {
        len = 2, min = 0x80, c = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
        len = 3, min = 0x800, c = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
        len = 4, min = 0x10000, c = b & 0x07;
    } else {
        return 0;
    }
    if (n < (size_t)len)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}

/* ---- feedback ------------------------------------------------------------- */

void gr_result_lines(gr_strbuf *b, const char *indent, const char *mark, const char *text)
{
    size_t n = strlen(text);
    if (n > 0 && text[n - 1] == '\n')
        n--;
    size_t start = 0;
    while (start <= n) {
        const char *nl = memchr(text + start, '\n', n - start);
        size_t end = nl ? (size_t)(nl - text) : n;
        gr_sb_append(b, indent);
        if (mark)
            gr_sb_printf(b, end > start ? "%s " : "%s", mark);
        gr_sb_appendn(b, text + start, end - start);
        gr_sb_append(b, "\n");
        start = end + 1;
    }
}

void gr_result_quoted_lines(gr_strbuf *b, const char *indent, const char *text)
{
    gr_result_lines(b, indent, "|", text);
}

const gr_test_result *gr_lab_lead_test(const gr_lab_result *lab)
{
    for (int j = 0; j < lab->n_tests; j++)
        if (gr_visibility_shown(lab->tests[j].visibility, GR_SHOWN_AT_SUBMISSION))
            return &lab->tests[j];
    return lab->n_tests > 0 ? &lab->tests[0] : NULL;
}

char *gr_test_message(const gr_lab_result *lab, const gr_test_result *t)
{
    if (t->message || !lab || !lab->message || t->verdict == GR_PASSED)
        return t->message ? gr_xstrdup(t->message) : NULL;
    const gr_test_result *lead = gr_lab_lead_test(lab);
    if (lead == t)
        return gr_xstrdup(lab->message);
    return gr_xasprintf("%s: what to fix is under its test %s.", lab->name ? lab->name : "this lab",
                        lead && lead->name ? lead->name : "");
}

char *gr_test_feedback(const gr_lab_result *lab, const gr_test_result *t)
{
    if (t->feedback)                /* read back from a results.json: already composed */
        return gr_xstrdup(t->feedback);
    gr_strbuf b = {0};
    gr_sb_append(&b, gr_verdict_name(t->verdict));
    gr_sb_append(&b, "\n");
    if (t->verdict == GR_PASSED)    /* nothing to fix: debug output is not repeated */
        return gr_sb_take(&b);
    char *message = gr_test_message(lab, t);
    if (message && *message) {
        gr_sb_append(&b, message);
        if (message[strlen(message) - 1] != '\n')
            gr_sb_append(&b, "\n");
    }
    free(message);
    int lead = !lab || !lab->message || gr_lab_lead_test(lab) == t;
    if (t->misconception && *t->misconception) {
        /* the id is for programs (results.json's own field); a person reads its sentence */
        const gr_misconception *mc = gr_misconception_of(lab ? lab->lab : 0, t->misconception);
        if (mc)
            gr_sb_printf(&b, "misconception: %s\n%s\nReread %s.\n", mc->name, mc->explain,
                         mc->handout);
        else
            gr_sb_printf(&b, "misconception: %s\n", t->misconception);
    }
    if (t->student_output && *t->student_output) {
        gr_sb_printf(&b, "your program printed (first %zu bytes):\n", strlen(t->student_output));
        gr_result_quoted_lines(&b, "", t->student_output);
    }
    if (t->verdict == GR_COMPILE_ERROR && lead && lab && lab->compile_log && *lab->compile_log) {
        gr_sb_append(&b, "compiler output:\n");
        gr_result_quoted_lines(&b, "", lab->compile_log);
    }
    return gr_sb_take(&b);
}

/* Add the points earned and possible on lab's tests shown at moment to *score
   and *max; count the tests left out in *unseen. */
static void shown_points(const gr_lab_result *lab, int moment, double *score, double *max,
                         int *unseen)
{
    for (int j = 0; j < lab->n_tests; j++) {
        const gr_test_result *t = &lab->tests[j];
        if (!gr_visibility_shown(t->visibility, moment)) {
            (*unseen)++;
            continue;
        }
        *score += t->score;
        *max += t->max_score;
    }
}

char *gr_report_summary(const gr_report *r, int moment)
{
    double score = 0, max = 0;
    int unseen = 0;
    for (int i = 0; i < r->n_labs; i++)
        shown_points(&r->labs[i], moment, &score, &max, &unseen);
    gr_strbuf b = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    gr_sb_printf(&b, "attnlab: %s/%s points%s\n", gr_points1(p1, score), gr_points1(p2, max),
                 unseen ? " on the tests you can see now" : "");
    for (int i = 0; i < r->n_labs; i++) {
        double ls = 0, lm = 0;
        int lu = 0;
        shown_points(&r->labs[i], moment, &ls, &lm, &lu);
        gr_sb_printf(&b, "%s: %s/%s\n", r->labs[i].name ? r->labs[i].name : "lab",
                     gr_points1(p1, ls), gr_points1(p2, lm));
        if (r->labs[i].source && r->labs[i].source_how)
            gr_sb_printf(&b, "  graded %s: %s\n", r->labs[i].source, r->labs[i].source_how);
    }
    if (unseen)   /* how many, or how many points, would say something about them */
        gr_sb_append(&b, "More tests are graded and count toward your score; they are hidden, "
                         "or shown after the due date or once grades are published.\n");
    if (r->practice_secret)
        gr_sb_append(&b, "Graded with the public practice secret: practice only, not a grade "
                         "of record.\n");
    return gr_sb_take(&b);
}

char *gr_report_grade_header(const gr_report *r, double total, double max, const char *late)
{
    double hidden = 0, hidden_max = 0;
    int n_hidden = 0;
    for (int i = 0; i < r->n_labs; i++)
        for (int j = 0; j < r->labs[i].n_tests; j++) {
            const gr_test_result *t = &r->labs[i].tests[j];
            if (gr_visibility_shown(t->visibility, GR_SHOWN_AT_SUBMISSION))
                continue;
            n_hidden++;
            hidden += t->score;
            hidden_max += t->max_score;
        }
    gr_strbuf b = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    gr_sb_printf(&b, "Final score: %s/%s\n", gr_points(p1, total), gr_points(p2, max));
    if (late)
        gr_sb_append(&b, late);
    if (n_hidden)
        gr_sb_printf(&b, "Hidden tests: %d test%s, %s of %s points earned (what they check is "
                     "not shown)\n", n_hidden, n_hidden == 1 ? "" : "s",
                     gr_points(p1, hidden), gr_points(p2, hidden_max));
    gr_sb_append(&b, "\n");
    return gr_sb_take(&b);
}

int gr_report_write(const char *path, char *text)
{
    int rc = gr_write_file_atomic(path, text, strlen(text));
    int saved = errno;
    free(text);
    errno = saved;
    return rc;
}
