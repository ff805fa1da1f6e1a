/* srccheck.c: what a lab's source file may include (see srccheck.h). */
#include "confined/srccheck.h"
#include "confined/shown.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

static int in_list(char *const *list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

/* Is an #include of name allowed: the contract, labsup.h or a rubric header? */
static int header_allowed(const gr_src_rules *sr, const char *name)
{
    return strcmp(name, sr->contract) == 0 || strcmp(name, "labsup.h") == 0 ||
           in_list(sr->r->allowed_headers, sr->r->n_headers, name);
}

/* msg, then "Headers this lab allows: ...", taken. */
static char *with_allowed_headers(const gr_src_rules *sr, gr_strbuf *msg)
{
    gr_sb_printf(msg, "Headers this lab allows: %s, labsup.h", sr->contract);
    for (int i = 0; i < sr->r->n_headers; i++) {
        const char *h = sr->r->allowed_headers[i];
        if (h && strcmp(h, sr->contract) != 0 && strcmp(h, "labsup.h") != 0)
            gr_sb_printf(msg, ", %s", h);
    }
    gr_sb_append(msg, ".");
    return gr_sb_take(msg);
}

char *gr_srccheck_includes(const gr_src_rules *sr, const gr_directive_scan *ds)
{
    gr_strbuf msg = {0};
    gr_capped cap;
    gr_capped_init(&cap, &msg, GR_CAPPED_ITEMS);
    int bad = 0;
    for (int i = 0; i < ds->n_inc; i++) {
        const gr_include_line *il = &ds->inc[i];
        int computed = il->computed, refused = computed || !header_allowed(sr, il->name);
        bad += refused;
        if (!refused || !gr_capped_take(&cap))
            continue;
        if (computed)
            gr_sb_printf(&msg, "%s:%d: #include %s: the grader cannot check an #include written "
                         "with a macro; write the header's name, e.g. #include <math.h>.\n",
                         sr->source, il->line, il->name);
        else
            gr_sb_printf(&msg, "%s:%d: #include <%.80s> is not allowed in this lab; remove it.\n",
                         sr->source, il->line, il->name);
    }
    gr_capped_end(&cap, "#include lines like these");
    if (ds->line_directive) {
        gr_sb_printf(&msg, "%s:%d: #line directives are not allowed in graded code; remove it.\n",
                     sr->source, ds->line_directive);
        bad++;
    }
    return bad ? with_allowed_headers(sr, &msg) : NULL;
}

/* The file a direct include entered is the allowed header it names: the
   pristine copy for the contract and labsup.h, a system header otherwise. */
static int entered_allowed(const gr_src_rules *sr, const char *path)
{
    if (strncmp(path, "inc/", 4) == 0)
        return strcmp(path + 4, sr->contract) == 0 || strcmp(path + 4, "labsup.h") == 0;
    for (int i = 0; i < sr->r->n_headers; i++) {
        const char *h = sr->r->allowed_headers[i];
        size_t pl = strlen(path), hl = strlen(h);
        if (pl > hl && path[pl - hl - 1] == '/' && strcmp(path + pl - hl, h) == 0)
            return 1;
    }
    return 0;
}

char *gr_srccheck_preprocessed(const gr_src_rules *sr, const char *pre, size_t len, int n_inc)
{
    gr_pp_facts pf;
    gr_scan_preprocessed(pre, len, sr->source, "inc", &pf);
    gr_strbuf msg = {0};
    if (pf.refused_line)
        gr_sb_printf(&msg, "%s:%d: %s is not allowed in graded code: write the lab in plain C.\n",
                     sr->source, pf.refused_line, pf.refused);
    if (pf.foreign)
        gr_sb_printf(&msg, "%s includes %.200s, which is neither the lab's contract nor a system "
                     "header; graded code may include only the headers below.\n", sr->source,
                     pf.foreign);
    gr_capped cap;
    gr_capped_init(&cap, &msg, GR_CAPPED_ITEMS);
    for (int i = 0; i < pf.n_direct; i++)
        if (!entered_allowed(sr, pf.direct[i].path) && gr_capped_take(&cap))
            gr_sb_printf(&msg, "%s includes %.200s, which is not among the lab's headers.\n",
                         sr->source, pf.direct[i].path);
    gr_capped_end(&cap, "headers like these");
    if (pf.n_direct > n_inc)
        gr_sb_printf(&msg, "%s includes %d file(s) the grader could not find as #include "
                     "lines; write each as #include <name.h> at the start of its own line.\n",
                     sr->source, pf.n_direct - n_inc);
    int construct = pf.refused_line != 0;
    gr_scan_preprocessed_free(&pf);
    if (msg.len == 0)
        return NULL;
    return construct ? gr_sb_take(&msg) : with_allowed_headers(sr, &msg);
}
