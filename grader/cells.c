/* cells.c: scores and spreadsheet cells, written one way everywhere (cells.h). */
#include "cells.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *gr_points(char buf[GR_POINTS_LEN], double x)
{
    if (!isfinite(x)) {
        snprintf(buf, GR_POINTS_LEN, "%s", isnan(x) ? "nan" : x > 0 ? "inf" : "-inf");
        return buf;
    }
    /* %.15g is exact for every score a rubric can make (sums and percentages of
       weights with a few decimals) and hides the binary noise of 0.1 + 0.2 */
    snprintf(buf, GR_POINTS_LEN, "%.15g", x);
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

/* True when s is a plain decimal number: an optional '-', digits, and an
   optional '.' with digits. A spreadsheet reads it as that number, so leaving
   it alone keeps a negative score numeric; "+1", "-1+2" and "1e3" are not. */
static int plain_number(const char *s)
{
    if (*s == '-')
        s++;
    if (!(*s >= '0' && *s <= '9'))
        return 0;
    while (*s >= '0' && *s <= '9')
        s++;
    if (*s == '.') {
        s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

void gr_csv_text(gr_strbuf *b, const char *s)
{
    if (!s)
        s = "";
    int formula = s[0] && strchr("=+-@\t\r", s[0]) && !plain_number(s);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        gr_sb_append(b, s);
        return;
    }
    gr_sb_append(b, formula ? "\"'" : "\"");
    for (; *s; s++)
        gr_sb_appendn(b, *s == '"' ? "\"\"" : s, *s == '"' ? 2 : 1);
    gr_sb_append(b, "\"");
}

void gr_csv_points(gr_strbuf *b, double x)
{
    char buf[GR_POINTS_LEN];
    gr_sb_append(b, gr_points(buf, x));
}
