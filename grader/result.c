/* result.c: verdict names, freeing a report, and the text helpers the three
 * report writers share (UTF-8 decoding, one test's feedback). */
#include "result.h"

#include <stdlib.h>
#include <string.h>

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
    case GR_VERDICT_COUNT:   break;
    }
    return "unknown verdict";
}

void gr_report_free(gr_report *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_labs && r->labs; i++) {
        gr_lab_result *lab = &r->labs[i];
        for (int j = 0; j < lab->n_tests && lab->tests; j++) {
            gr_test_result *t = &lab->tests[j];
            free(t->name);
            free(t->message);
            free(t->misconception);
            free(t->student_output);
        }
        free(lab->tests);
        free(lab->name);
        free(lab->compile_log);
    }
    free(r->labs);
    free(r->student);
    free(r->confinement);
    free(r->sandbox);
    memset(r, 0, sizeof *r);
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

void gr_result_quoted_lines(gr_strbuf *b, const char *indent, const char *text)
{
    size_t n = strlen(text);
    if (n > 0 && text[n - 1] == '\n')
        n--;
    size_t start = 0;
    while (start <= n) {
        const char *nl = memchr(text + start, '\n', n - start);
        size_t end = nl ? (size_t)(nl - text) : n;
        gr_sb_append(b, indent);
        gr_sb_append(b, end > start ? "| " : "|");
        gr_sb_appendn(b, text + start, end - start);
        gr_sb_append(b, "\n");
        start = end + 1;
    }
}

char *gr_test_feedback(const gr_lab_result *lab, const gr_test_result *t)
{
    gr_strbuf b = {0};
    gr_sb_append(&b, gr_verdict_name(t->verdict));
    gr_sb_append(&b, "\n");
    if (t->verdict == GR_PASSED)    /* nothing to fix: debug output is not repeated */
        return gr_sb_take(&b);
    if (t->message && *t->message) {
        gr_sb_append(&b, t->message);
        if (t->message[strlen(t->message) - 1] != '\n')
            gr_sb_append(&b, "\n");
    }
    if (t->misconception && *t->misconception)
        gr_sb_printf(&b, "misconception: %s\n", t->misconception);
    if (t->student_output && *t->student_output) {
        gr_sb_printf(&b, "your program printed (first %zu bytes):\n", strlen(t->student_output));
        gr_result_quoted_lines(&b, "", t->student_output);
    }
    if (t->verdict == GR_COMPILE_ERROR && lab && lab->compile_log && *lab->compile_log) {
        gr_sb_append(&b, "compiler output:\n");
        gr_result_quoted_lines(&b, "", lab->compile_log);
    }
    return gr_sb_take(&b);
}
