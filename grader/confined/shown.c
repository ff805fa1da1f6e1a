/* shown.c: bounded excerpts and lists for a student's report (see shown.h). */
#include "confined/shown.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LOG_LINES 20                  /* a trimmed log: at most this many lines */
#define LOG_BYTES 2048                /* ... and this many bytes */

/* ---- a tool's output ------------------------------------------------------------ */

static void replace_all(gr_strbuf *out, const char *s, const char *from, const char *to)
{
    size_t fl = strlen(from);
    for (;;) {
        const char *hit = fl ? strstr(s, from) : NULL;
        if (!hit) {
            gr_sb_append(out, s);
            return;
        }
        gr_sb_appendn(out, s, (size_t)(hit - s));
        gr_sb_append(out, to);
        s = hit + fl;
    }
}

/* A line of GCC's source quote: "   12 | text", "      |  ^~~" or "  +++ |+fix". */
static int quote_line(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    while (k < n && (isdigit((unsigned char)s[k]) || s[k] == '+'))
        k++;
    return k > 0 && k + 1 < n && s[k] == ' ' && s[k + 1] == '|';
}

/* A diagnostic's location "FILE:LINE:" at the start of s[0..n) (no space in
   FILE: "In file included from ..." is not one): 1 with the file's length in
   *fl, else 0. */
static int located(const char *s, size_t n, size_t *fl)
{
    for (size_t k = 0; k + 1 < n && s[k] != ' '; k++)
        if (s[k] == ':' && isdigit((unsigned char)s[k + 1])) {
            *fl = k;
            return k > 0;
        }
    return 0;
}

/* log without the source quotes of diagnostics located outside source, and
   without the diagnostics located outside the submission: in neither source,
   a pristine header (named without a folder once paths are rewritten) nor a
   system header under /usr/ (their text may quote the file they are about). */
static char *own_quotes_only(const char *log, const char *source)
{
    gr_strbuf out = {0};
    int keep = 1;                     /* the last diagnostic was in the student's file */
    size_t sl = strlen(source);
    for (const char *s = log; *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s), fl;
        int show = 1;
        if (quote_line(s, n)) {
            show = keep;
        } else if (located(s, n, &fl)) {
            keep = fl == sl && memcmp(s, source, sl) == 0;
            show = keep || !memchr(s, '/', fl) || (fl > 5 && memcmp(s, "/usr/", 5) == 0);
            if (!show)
                gr_sb_append(&out, "(a message about a file outside the submission, left out)\n");
        }
        if (show)
            gr_sb_appendn(&out, s, n + (nl != NULL));
        s += n + (nl != NULL);
    }
    return gr_sb_take(&out);
}

char *gr_shown_log(const char *log, const char *priv, const char *child_dir, const char *source)
{
    if (!log || !*log)
        return NULL;
    char *pinc = gr_xasprintf("%s/inc/", priv);
    char *pdir = gr_xasprintf("%s/", priv);
    char *sdir = gr_xasprintf("%s/", child_dir ? child_dir : "");
    gr_strbuf a = {0}, b = {0}, c = {0};
    replace_all(&a, log, pinc, "");
    replace_all(&b, a.s ? a.s : "", pdir, "");
    replace_all(&c, b.s ? b.s : "", sdir, "");
    char *text = own_quotes_only(c.s ? c.s : "", source);
    free(a.s);
    free(b.s);
    free(c.s);
    free(pinc);
    free(pdir);
    free(sdir);

    /* whole lines only, up to LOG_LINES of them and LOG_BYTES in all */
    gr_strbuf out = {0};
    const char *s = text;
    int shown = 0, total = 0;
    for (const char *t = text; *t; t++)
        total += *t == '\n' || t[1] == '\0';
    while (*s && shown < LOG_LINES) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
        if (out.len + n > LOG_BYTES && shown > 0)
            break;
        if (out.len + n > LOG_BYTES)
            n = LOG_BYTES - out.len;          /* one enormous first line: cut it */
        gr_sb_appendn(&out, s, n);
        if (out.s[out.len - 1] != '\n')
            gr_sb_append(&out, "\n");
        shown++;
        s += nl ? (size_t)(nl - s) + 1 : strlen(s);
    }
    if (total > shown)
        gr_sb_printf(&out, "... (%d more line%s)\n", total - shown, total - shown == 1 ? "" : "s");
    free(text);
    return gr_sb_take(&out);
}

/* ---- capped lists ------------------------------------------------------------------ */

void gr_capped_init(gr_capped *c, gr_strbuf *b, int cap)
{
    c->b = b;
    c->cap = cap;
    c->taken = c->more = 0;
}

int gr_capped_take(gr_capped *c)
{
    if (c->taken < c->cap) {
        c->taken++;
        return 1;
    }
    c->more++;
    return 0;
}

void gr_capped_end(gr_capped *c, const char *what)
{
    if (c->more > 0)
        gr_sb_printf(c->b, "... and %d more %s.\n", c->more, what);
}

/* ---- a set of strings -------------------------------------------------------------- */

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;          /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

static void place(char **slot, size_t cap, char *s)
{
    size_t i = (size_t)hash(s) & (cap - 1);
    while (slot[i])
        i = (i + 1) & (cap - 1);
    slot[i] = s;
}

int gr_strset_add(gr_strset *set, const char *s)
{
    if (2 * (set->n + 1) > set->cap) {          /* at most half full */
        size_t cap = set->cap ? 2 * set->cap : 64;
        char **slot = gr_xcalloc(cap, sizeof *slot);
        for (size_t i = 0; i < set->cap; i++)
            if (set->slot[i])
                place(slot, cap, set->slot[i]);
        free(set->slot);
        set->slot = slot;
        set->cap = cap;
    }
    for (size_t i = (size_t)hash(s) & (set->cap - 1); set->slot[i]; i = (i + 1) & (set->cap - 1))
        if (strcmp(set->slot[i], s) == 0)
            return 0;
    place(set->slot, set->cap, gr_xstrdup(s));
    set->n++;
    return 1;
}

void gr_strset_free(gr_strset *set)
{
    for (size_t i = 0; i < set->cap; i++)
        free(set->slot[i]);
    free(set->slot);
    memset(set, 0, sizeof *set);
}
