/* json.c: JSON through Jansson (see json.h). */
#include "engine/json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "base/util.h"

/* Numbers with 15 significant digits: every double a file holds reads back
   and prints again as the same text (DBL_DIG is 15), which a signature over
   the re-printed text needs, and float noise in a sum of points is gone. */
#define DUMP_FLAGS (JSON_REAL_PRECISION(15))

char *gr_json_utf8_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t n = strlen((const char *)p);
    gr_strbuf b = {0};
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int len = gr_utf8_decode(p + i, n - i, &cp);
        if (len == 0) {
            gr_sb_append(&b, "\xef\xbf\xbd");   /* U+FFFD, one per invalid byte */
            i++;
        } else {
            gr_sb_appendn(&b, (const char *)p + i, (size_t)len);
            i += (size_t)len;
        }
    }
    return gr_sb_take(&b);
}

static json_t *must(json_t *v)
{
    if (!v) {
        fprintf(stderr, "attnlab: out of memory making JSON\n");
        abort();
    }
    return v;
}

json_t *gr_json_text(const char *s)
{
    char *clean = gr_json_utf8_clean(s);
    json_t *v = must(json_string(clean));
    free(clean);
    return v;
}

json_t *gr_json_points(double x)
{
    if (!isfinite(x))
        return must(json_integer(0));
    x = gr_points_snap(x);                 /* 9.6, not 9.59999999999999 (cells.h) */
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    double y = strtod(buf, NULL);
    if (y == floor(y) && fabs(y) < 1e15)
        return must(json_integer((json_int_t)y));   /* 10, not 10.0 */
    return must(json_real(y));
}

void gr_json_put(json_t *obj, const char *key, json_t *v)
{
    if (json_object_set_new(obj, key, must(v)) != 0)
        must(NULL);
}

/* json_dumps's text in our own heap (freed with free, like every string here). */
static char *dump(const json_t *v, size_t flags, const char *end)
{
    char *text = json_dumps(v, flags);
    if (!text)
        must(NULL);
    char *out = gr_xasprintf("%s%s", text, end);
    free(text);
    return out;
}

char *gr_json_dump(const json_t *v)
{
    return dump(v, JSON_INDENT(2) | DUMP_FLAGS, "\n");
}

char *gr_json_canonical(const json_t *v)
{
    return dump(v, JSON_COMPACT | DUMP_FLAGS, "");
}

json_t *gr_json_load(const char *path, size_t max, char *err, size_t errlen)
{
    char *text = NULL, why[128] = "";
    size_t len = 0;
    int rc = gr_read_regular(path, max, &text, &len, why, sizeof why);
    if (rc != 0) {
        if (rc > 0)
            gr_set_err(err, errlen, "%s: %s, not a JSON file of at most %zu bytes", path, why, max);
        else
            gr_set_err(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    json_t *v = gr_json_parse(path, text, len, err, errlen);
    free(text);
    return v;
}

json_t *gr_json_parse(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *v = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!v)
        gr_set_err(err, errlen, "%s:%d:%d: %s", name, je.line, je.column, je.text);
    return v;
}
