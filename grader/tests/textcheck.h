/* textcheck.h: for the suites that check the text attnlab writes (the
 * reports, results.json for Gradescope and PrairieLearn).
 *
 *   json_valid(text)         1 when text is exactly one JSON value (RFC 8259)
 *                            and whitespace, else 0
 *   count_of(hay, needle)    how many times needle occurs in hay (overlaps too)
 */
#ifndef ATTNLAB_TEXTCHECK_H
#define ATTNLAB_TEXTCHECK_H

#include <stdint.h>
#include <string.h>

#include "report/report.h"

/* A strict JSON validator (RFC 8259): one value, then only whitespace; strings
   hold valid UTF-8 and no raw control characters; escapes are the legal ones;
   numbers follow the grammar (no leading zeros, no "+", no "1.", no NaN). */
typedef struct jv { const unsigned char *p; } jv;
static inline int jv_value(jv *v, int depth);

static inline void jv_ws(jv *v)
{
    while (*v->p == ' ' || *v->p == '\t' || *v->p == '\n' || *v->p == '\r')
        v->p++;
}

static inline int jv_string(jv *v)
{
    if (*v->p++ != '"')
        return 0;
    for (;;) {
        unsigned char c = *v->p;
        if (c == '"') {
            v->p++;
            return 1;
        }
        if (c < 0x20)
            return 0;                /* raw control character, or the end */
        if (c == '\\') {
            v->p++;
            if (strchr("\"\\/bfnrt", *v->p) && *v->p) {
                v->p++;
            } else if (*v->p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", v->p[i]) || !v->p[i])
                        return 0;
                v->p += 5;
            } else {
                return 0;
            }
            continue;
        }
        uint32_t cp;
        int len = gr_utf8_decode(v->p, strlen((const char *)v->p), &cp);
        if (len == 0)
            return 0;
        v->p += len;
    }
}

static inline int jv_digits(jv *v)
{
    int n = 0;
    while (*v->p >= '0' && *v->p <= '9')
        v->p++, n++;
    return n;
}

static inline int jv_number(jv *v)
{
    if (*v->p == '-')
        v->p++;
    if (*v->p == '0')
        v->p++;
    else if (jv_digits(v) == 0)
        return 0;
    if (*v->p == '.') {
        v->p++;
        if (jv_digits(v) == 0)
            return 0;
    }
    if (*v->p == 'e' || *v->p == 'E') {
        v->p++;
        if (*v->p == '+' || *v->p == '-')
            v->p++;
        if (jv_digits(v) == 0)
            return 0;
    }
    return 1;
}

static inline int jv_value(jv *v, int depth)
{
    if (depth > 64)
        return 0;
    jv_ws(v);
    unsigned char c = *v->p;
    if (c == '{' || c == '[') {
        unsigned char close = c == '{' ? '}' : ']';
        v->p++;
        jv_ws(v);
        if (*v->p == close) {
            v->p++;
            return 1;
        }
        for (;;) {
            if (c == '{') {
                jv_ws(v);
                if (!jv_string(v))
                    return 0;
                jv_ws(v);
                if (*v->p++ != ':')
                    return 0;
            }
            if (!jv_value(v, depth + 1))
                return 0;
            jv_ws(v);
            if (*v->p == ',') {
                v->p++;
                continue;
            }
            if (*v->p++ != close)
                return 0;
            return 1;
        }
    }
    if (c == '"')
        return jv_string(v);
    if (c == '-' || (c >= '0' && c <= '9'))
        return jv_number(v);
    for (const char *const *w = (const char *const[]){"true", "false", "null", NULL}; *w; w++)
        if (strncmp((const char *)v->p, *w, strlen(*w)) == 0) {
            v->p += strlen(*w);
            return 1;
        }
    return 0;
}

static inline int json_valid(const char *text)
{
    jv v = {(const unsigned char *)text};
    if (!jv_value(&v, 0))
        return 0;
    jv_ws(&v);
    return *v.p == '\0';
}

static inline int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

#endif
