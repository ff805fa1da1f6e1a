/* cells.c: scores and spreadsheet cells, written one way everywhere (cells.h). */
#include "base/cells.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double gr_points_snap(double x)
{
    if (!isfinite(x) || fabs(x) >= 1e9)
        return x;
    return nearbyint(x * 1e6) / 1e6 + 0.0;   /* + 0.0: never -0 */
}

const char *gr_points(char buf[GR_POINTS_LEN], double x)
{
    if (!isfinite(x)) {
        snprintf(buf, GR_POINTS_LEN, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return buf;
    }
    /* snapped to millionths, the double nearest the decimal a rubric's sum is,
       which %.15g prints exactly: 9.6, not 9.59999999999999 */
    snprintf(buf, GR_POINTS_LEN, "%.15g", gr_points_snap(x));
    if (strchr(buf, 'e')) {               /* tiny or huge: plain decimals instead */
        snprintf(buf, GR_POINTS_LEN, "%.6f", x);
        char *end = buf + strlen(buf) - 1;
        while (*end == '0')
            *end-- = '\0';
        if (*end == '.')
            *end = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return buf;
}

const char *gr_points1(char buf[GR_POINTS_LEN], double x)
{
    gr_points(buf, x);
    if (!strpbrk(buf, ".n"))             /* a whole number (not nan or inf) */
        strcat(buf, ".0");
    return buf;
}

/* ---- CSV ------------------------------------------------------------------------ */

#define CSV_LEADS "=+-@\t\r"      /* a cell that starts with one is a formula */
#define CSV_SPLITS ",;\t\r\n"     /* where some reader could start a new cell */
#define CSV_PAD " \""              /* skipped there: a reader may trim or unquote them */

/* True when s[0..n) is a plain decimal number: an optional '-', digits, and
   an optional '.' with digits. A spreadsheet reads it as that number, so
   leaving it alone keeps a negative number numeric; "+1", "-1+2" and "1e3"
   are not. */
static int plain_number(const char *s, size_t n)
{
    const char *end = s + n;
    s += s < end && *s == '-';
    size_t digits = 0;
    while (s < end && *s >= '0' && *s <= '9')
        s++, digits++;
    if (digits && s < end && *s == '.') {
        digits = 0;
        for (s++; s < end && *s >= '0' && *s <= '9'; s++)
            digits++;
    }
    return digits > 0 && s == end;
}

/* True when the piece of a cell at p (up to the next split) gets an
   apostrophe: it starts like a formula, or with an apostrophe of its own. */
static int needs_mark(const char *p)
{
    if (*p == '\'')
        return 1;
    return *p && strchr(CSV_LEADS, *p) && !plain_number(p, strcspn(p, CSV_SPLITS));
}

/* s into b with an apostrophe before each formula lead where a cell could
   start; each double quote doubled when quoted. */
static void neutralised(gr_strbuf *b, const char *s, int quoted)
{
    for (int start = 1; *s; s++) {
        if (start && !strchr(CSV_PAD, *s)) {
            if (needs_mark(s))
                gr_sb_append(b, "'");
            start = 0;
        }
        gr_sb_appendn(b, quoted && *s == '"' ? "\"\"" : s, quoted && *s == '"' ? 2 : 1);
        start |= strchr(CSV_SPLITS, *s) != NULL;
    }
}

void gr_csv_text(gr_strbuf *b, const char *s)
{
    if (!s || !*s)
        return;
    gr_sb_append(b, "\"");
    neutralised(b, s, 1);
    gr_sb_append(b, "\"");
}

void gr_tsv_text(gr_strbuf *b, const char *s)
{
    neutralised(b, s, 0);
}

char *gr_csv_untext(char *s)
{
    char *w = s;
    int start = 1;
    for (const char *r = s; *r; r++) {
        if (start && !strchr(CSV_PAD, *r)) {    /* where gr_csv_text looked */
            start = 0;
            if (*r == '\'' && *++r == '\0')
                break;
        }
        *w++ = *r;
        start |= strchr(CSV_SPLITS, *r) != NULL;
    }
    *w = '\0';
    return s;
}

void gr_csv_points(gr_strbuf *b, double x)
{
    char buf[GR_POINTS_LEN];
    gr_sb_append(b, gr_points(buf, x));
}

/* ---- Markdown ------------------------------------------------------------------- */

void gr_md_text(gr_strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            gr_sb_append(b, " ");
        else if (*p == '<' || *p == '>' || *p == '&')
            gr_sb_append(b, *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : "&amp;");
        else {
            if (strchr("\\`*_[]()!|#~$", *p))
                gr_sb_append(b, "\\");
            gr_sb_appendn(b, (const char *)p, 1);
        }
    }
}

void gr_md_code(gr_strbuf *b, const char *s)
{
    gr_sb_append(b, "`");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++)
        gr_sb_appendn(b, *p < 0x20 || *p == 0x7f ? " " : *p == '`' ? "'" : (const char *)p, 1);
    gr_sb_append(b, "`");
}
