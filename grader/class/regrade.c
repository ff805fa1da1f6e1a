/* regrade.c: regrades recorded, and rubric changes regraded in part (see
 * regrade.h). */
#include "class/regrade.h"
#include "base/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cells.h"
#include "report/report.h"
#include "base/rubric.h"
#include "sup_yamlread.h"
#include "class/key.h"
#include "base/util.h"

#define STATE_MAGIC "attnlab rubrics.state 1"

/* ---- every setting of a rubric --------------------------------------------------------- */

/* "key value" onto lab i of s, control characters as spaces. */
static void add_setting(gr_rubric_snap *s, int i, const char *key, const char *value)
{
    char *line = gr_xasprintf("%s %s", key, value);
    for (char *c = line; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
    s->set[i] = gr_xrealloc(s->set[i], (size_t)(s->n_set[i] + 1) * sizeof *s->set[i]);
    s->set[i][s->n_set[i]++] = line;
}

/* The name a list item is keyed by: its name: (a test, a function), else its index. */
static char *item_key(yr_doc *d, const yaml_node_t *item, const char *key, int k)
{
    const yaml_node_t *name = item->type == YAML_MAPPING_NODE ? yr_value(d, item, "name") : NULL;
    if (name && name->type == YAML_SCALAR_NODE)
        return gr_xasprintf("%s.%s", key, yr_text(name));
    return gr_xasprintf("%s.%d", key, k);
}

/* Each setting under node n (at key) onto lab i of s; a list of plain values
   is one setting, "[a, b]". */
static void flatten(yr_doc *d, const yaml_node_t *n, const char *key, gr_rubric_snap *s, int i)
{
    if (!n)
        return;
    if (n->type == YAML_SCALAR_NODE) {
        add_setting(s, i, key, yr_text(n));
    } else if (n->type == YAML_MAPPING_NODE) {
        for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
            const yaml_node_t *k = yr_node(d, p->key);
            char *sub = k && k->type == YAML_SCALAR_NODE
                ? gr_xasprintf("%s%s%s", key, *key ? "." : "", yr_text(k)) : NULL;
            if (sub)
                flatten(d, yr_node(d, p->value), sub, s, i);
            free(sub);
        }
    } else {
        int plain = 1;
        for (int k = 0; k < yr_count(n); k++)
            plain &= yr_item(d, n, k) && yr_item(d, n, k)->type == YAML_SCALAR_NODE;
        gr_strbuf b = {0};
        for (int k = 0; plain && k < yr_count(n); k++)
            gr_sb_printf(&b, "%s%s", k ? ", " : "[", yr_text(yr_item(d, n, k)));
        if (plain) {
            gr_sb_append(&b, b.len ? "]" : "[]");
            add_setting(s, i, key, b.s);
        }
        for (int k = 0; !plain && k < yr_count(n); k++) {
            char *sub = item_key(d, yr_item(d, n, k), key, k);
            flatten(d, yr_item(d, n, k), sub, s, i);
            free(sub);
        }
        free(b.s);
    }
}

/* Every setting of the rubric at path (which loaded) onto lab i of s. */
static void rubric_settings(const char *path, gr_rubric_snap *s, int i)
{
    size_t len = 0;
    char *text = gr_read_file(path, &len);
    yr_doc d;
    if (text && yr_open(&d, path, text, len, NULL, 0) == 0)
        flatten(&d, yr_root(&d), "", s, i);
    if (text)
        yr_close(&d);
    free(text);
}

/* ---- the rubrics, as rubrics.state keeps them ---------------------------------------- */

int gr_regrade_snap_make(const gr_batch_opts *o, gr_rubric_snap *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!o->labs[lab - 1])
            continue;
        char *path = gr_layout_rubric_from(o->root, o->rubrics, lab);
        gr_rubric r;
        if (gr_rubric_load(path, &r, err, errlen) != 0) {
            free(path);
            gr_regrade_snap_free(s);
            return -1;
        }
        gr_strbuf m = {0};
        gr_key_lab_files(&m, o, lab);         /* what every key of the lab covers */
        s->digest[lab - 1] = gr_key_digest(m.s, m.len);
        free(m.s);
        s->have[lab - 1] = 1;
        s->n_tests[lab - 1] = r.n_tests;
        s->tests[lab - 1] = gr_xcalloc((size_t)r.n_tests + 1, sizeof(gr_rubric_snap_test));
        for (int t = 0; t < r.n_tests; t++) {
            gr_rubric_snap_test *st = &s->tests[lab - 1][t];
            st->name = gr_xstrdup(r.tests[t].name);
            st->points = r.tests[t].points;
            st->abs_tol = r.tests[t].abs_tol;
            st->rel_tol = r.tests[t].rel_tol;
        }
        gr_rubric_free(&r);
        rubric_settings(path, s, lab - 1);
        free(path);
    }
    return 0;
}

/* The next line of the state file at *p (moved past it) into s's lab i as
   a setting, "set key value". 0 or -1. */
static int read_setting(char **p, gr_rubric_snap *s, int i)
{
    *p = strchr(*p, '\n');
    if (!*p || strncmp(++*p, "set ", 4) != 0 || !strchr(*p + 4, ' '))
        return -1;
    size_t n = strcspn(*p + 4, "\n");
    char *line = gr_xasprintf("%.*s", (int)n, *p + 4);
    s->set[i] = gr_xrealloc(s->set[i], (size_t)(s->n_set[i] + 1) * sizeof *s->set[i]);
    s->set[i][s->n_set[i]++] = line;
    return 0;
}

/* One "lab N DIGEST T [S]" block of the state file at *p into s: T tests,
   then S settings (none in a state file of before). 0 or -1. */
static int read_lab(char **p, gr_rubric_snap *s)
{
    int lab = 0, n = 0, n_set = 0;
    char digest[33];
    int got = sscanf(*p, "lab %d %32[0-9a-f] %d %d", &lab, digest, &n, &n_set);
    if (got < 3 || lab < 1 || lab > GR_N_LABS || n < 0 || n > 10000 || n_set < 0 ||
        n_set > 100000 || s->have[lab - 1])
        return -1;
    s->have[lab - 1] = 1;
    s->digest[lab - 1] = gr_xstrdup(digest);
    s->tests[lab - 1] = gr_xcalloc((size_t)n + 1, sizeof(gr_rubric_snap_test));
    for (int t = 0; t < n; t++) {
        *p = strchr(*p, '\n');
        if (!*p)
            return -1;
        (*p)++;
        gr_rubric_snap_test *st = &s->tests[lab - 1][t];
        char name[256];
        if (sscanf(*p, "test %lf %lf %lf %255s", &st->points, &st->abs_tol, &st->rel_tol,
                   name) != 4)
            return -1;
        st->name = gr_xstrdup(name);
        s->n_tests[lab - 1]++;
    }
    for (int k = 0; k < n_set; k++)
        if (read_setting(p, s, lab - 1) != 0)
            return -1;
    return 0;
}

int gr_regrade_snap_read(const char *dir, gr_rubric_snap *s)
{
    memset(s, 0, sizeof *s);
    char *path = gr_xasprintf("%s/rubrics.state", dir), *text = NULL, why[64];
    size_t len = 0;
    int rc = gr_read_regular(path, 4u << 20, &text, &len, why, sizeof why) == 0 &&
             strlen(text) == len && strncmp(text, STATE_MAGIC "\n", strlen(STATE_MAGIC) + 1) == 0
             ? 0 : -1;
    for (char *p = rc == 0 ? strchr(text, '\n') + 1 : NULL; p && *p && rc == 0;) {
        rc = read_lab(&p, s);
        p = rc == 0 ? strchr(p, '\n') : NULL;
        if (p)
            p++;
    }
    if (rc != 0)
        gr_regrade_snap_free(s);
    free(text);
    free(path);
    return rc;
}

int gr_regrade_snap_write(const char *dir, const gr_rubric_snap *s)
{
    gr_strbuf b = {0};
    gr_sb_append(&b, STATE_MAGIC "\n");
    for (int i = 0; i < GR_N_LABS; i++) {
        if (!s->have[i])
            continue;
        gr_sb_printf(&b, "lab %d %s %d %d\n", i + 1, s->digest[i], s->n_tests[i], s->n_set[i]);
        for (int t = 0; t < s->n_tests[i]; t++)
            gr_sb_printf(&b, "test %.17g %.17g %.17g %s\n", s->tests[i][t].points,
                         s->tests[i][t].abs_tol, s->tests[i][t].rel_tol, s->tests[i][t].name);
        for (int k = 0; k < s->n_set[i]; k++)
            gr_sb_printf(&b, "set %s\n", s->set[i][k]);
    }
    char *path = gr_xasprintf("%s/rubrics.state", dir);
    int rc = gr_write_file_atomic(path, b.s, b.len);
    free(path);
    free(b.s);
    return rc;
}

void gr_regrade_snap_free(gr_rubric_snap *s)
{
    for (int i = 0; i < GR_N_LABS; i++) {
        for (int t = 0; t < s->n_tests[i]; t++)
            free(s->tests[i][t].name);
        free(s->tests[i]);
        for (int k = 0; k < s->n_set[i]; k++)
            free(s->set[i][k]);
        free(s->set[i]);
        free(s->digest[i]);
    }
    memset(s, 0, sizeof *s);
}

/* ---- what changed ------------------------------------------------------------------ */

static const gr_rubric_snap_test *snap_test(const gr_rubric_snap *s, int lab, const char *name)
{
    for (int t = 0; t < s->n_tests[lab - 1]; t++)
        if (strcmp(s->tests[lab - 1][t].name, name) == 0)
            return &s->tests[lab - 1][t];
    return NULL;
}

/* What changed in test name's entry (malloc'd), or NULL: the same. */
static char *test_change(const gr_rubric_snap *old, const gr_rubric_snap *now, int lab,
                         const char *name)
{
    const gr_rubric_snap_test *a = snap_test(old, lab, name), *b = snap_test(now, lab, name);
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    if (!a || !b)
        return gr_xstrdup(a ? "removed" : "added");
    if (a->points != b->points)
        return gr_xasprintf("points %s -> %s", gr_points(p1, a->points), gr_points(p2, b->points));
    if (a->abs_tol != b->abs_tol || a->rel_tol != b->rel_tol)
        return gr_xasprintf("tolerance abs %g rel %g -> abs %g rel %g", a->abs_tol, a->rel_tol,
                            b->abs_tol, b->rel_tol);
    return NULL;
}

/* "NAME: change" onto b, "; " between. */
static void add_change(gr_strbuf *b, const char *name, char *change)
{
    if (!change)
        return;
    gr_sb_printf(b, "%s%s %s", b->len ? "; " : "", name, change);
    free(change);
}

/* The value of key in lab i of s ("key value" lines), or NULL. */
static const char *setting(const gr_rubric_snap *s, int i, const char *key)
{
    size_t n = strlen(key);
    for (int k = 0; k < s->n_set[i]; k++)
        if (strncmp(s->set[i][k], key, n) == 0 && s->set[i][k][n] == ' ')
            return s->set[i][k] + n + 1;
    return NULL;
}

/* The list entry a key is in ("tests.NAME" of "tests.NAME.points"), as its
   length, or 0 for a key of no list entry. */
static size_t entry_len(const char *key)
{
    if (strncmp(key, "tests.", 6) != 0 && strncmp(key, "functions.", 10) != 0)
        return 0;
    const char *dot = strchr(strchr(key, '.') + 1, '.');
    return dot ? (size_t)(dot - key) : 0;
}

/* Whether lab i of s has any key in the entry key[0..n). */
static int has_entry(const gr_rubric_snap *s, int i, const char *key, size_t n)
{
    for (int k = 0; k < s->n_set[i]; k++)
        if (strncmp(s->set[i][k], key, n) == 0 && s->set[i][k][n] == '.')
            return 1;
    return 0;
}

/* Lab i's settings onto out as "key old -> new": with gone 0, a is the new
   side and each key b lacks or holds otherwise is said; with gone 1, a is the
   old side and each key b lacks ("(none)") is. An entry the other side lacks
   whole is said once: "tests.NAME added" (or removed). */
static void settings_diff(gr_strbuf *out, const gr_rubric_snap *a, const gr_rubric_snap *b, int i,
                          int gone)
{
    for (int k = 0; k < a->n_set[i]; k++) {
        const char *line = a->set[i][k], *sp = strchr(line, ' ');
        char *key = gr_xasprintf("%.*s", (int)(sp - line), line);
        const char *other = setting(b, i, key);
        size_t e = entry_len(key);
        if (e && !has_entry(b, i, key, e)) {
            if (k == 0 || strncmp(a->set[i][k - 1], key, e + 1) != 0)   /* the entry once */
                gr_sb_printf(out, "%s%.*s %s", out->len ? "; " : "", (int)e, key,
                             gone ? "removed" : "added");
        } else if (!other || (!gone && strcmp(other, sp + 1) != 0)) {
            gr_sb_printf(out, "%s%s %s -> %s", out->len ? "; " : "", key,
                         gone ? sp + 1 : other ? other : "(none)", gone ? "(none)" : sp + 1);
        }
        free(key);
    }
}

char *gr_regrade_lab_change(const gr_rubric_snap *old, const gr_rubric_snap *now, int lab)
{
    int i = lab - 1;
    if (!old->have[i] || !now->have[i] || strcmp(old->digest[i], now->digest[i]) == 0)
        return NULL;
    gr_strbuf b = {0};
    if (old->n_set[i] && now->n_set[i]) {     /* every setting, from both sides */
        settings_diff(&b, now, old, i, 0);
        settings_diff(&b, old, now, i, 1);
        if (!b.len)
            gr_sb_append(&b, "no setting: the rubric's comments or the contract header");
        return gr_sb_take(&b);
    }
    for (int t = 0; t < now->n_tests[i]; t++)
        add_change(&b, now->tests[i][t].name, test_change(old, now, lab, now->tests[i][t].name));
    for (int t = 0; t < old->n_tests[i]; t++)
        if (!snap_test(now, lab, old->tests[i][t].name))
            add_change(&b, old->tests[i][t].name, gr_xstrdup("removed"));
    if (!b.len)
        gr_sb_append(&b, "no test's points or tolerance: the rubric's other settings or the "
                     "contract header");
    return gr_sb_take(&b);
}

/* ---- a batch run's plan ---------------------------------------------------------------- */

/* p's rubrics now and at the last batch into o->out (its rubrics.state), and
   which labs changed, with nothing said or written. 0, or -1 with err. */
static int plan_compare(gr_regrade_plan *p, const gr_batch_opts *o, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < GR_N_LABS; i++)
        p->reason[i] = o->lab_reason[i] ? o->lab_reason[i] : o->reason;
    gr_regrades_now(p->when);
    if (gr_regrade_snap_make(o, &p->now, err, errlen) != 0)
        return -1;
    if (gr_regrade_snap_read(o->out, &p->old) != 0)
        return 0;                       /* no earlier run known: nothing in part */
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *what = o->labs[lab - 1] ? gr_regrade_lab_change(&p->old, &p->now, lab) : NULL;
        p->changed[lab - 1] = what != NULL;
        p->any |= what != NULL;
        free(what);
    }
    return 0;
}

int gr_regrade_changed(const gr_batch_opts *o, int changed[GR_N_LABS], char *err, size_t errlen)
{
    gr_regrade_plan p;
    int rc = plan_compare(&p, o, err, errlen), n = 0;
    for (int i = 0; i < GR_N_LABS; i++)
        n += changed[i] = rc == 0 && p.changed[i];
    gr_regrade_plan_free(&p);
    return rc == 0 ? n : -1;
}

int gr_regrade_plan_make(gr_regrade_plan *p, const gr_batch_opts *o, FILE *progress, char *err,
                         size_t errlen)
{
    if (plan_compare(p, o, err, errlen) != 0)
        return -1;
    for (int lab = 1; lab <= GR_N_LABS && progress; lab++) {
        char *what = p->changed[lab - 1] ? gr_regrade_lab_change(&p->old, &p->now, lab) : NULL;
        if (what)
            fprintf(progress, "attnlab batch: %s's rubric or contract header changed since %s "
                    "was graded (%s); only that lab is regraded for students whose files are "
                    "as they were, each change recorded in regrades.log\n",
                    gr_layout_dir(lab), o->out, what);
        free(what);
    }
    if (!p->any)
        return 0;
    /* the change itself, a line per lab with no student (a shard's batch: the
       first shard's only, so a merge has it once, as one batch has) */
    gr_strbuf b = {0};
    for (int lab = 1; lab <= GR_N_LABS && o->shard_k <= 1; lab++) {
        char *what = p->changed[lab - 1] ? gr_regrade_lab_change(&p->old, &p->now, lab) : NULL;
        gr_regrades_log_lab(&b, p->when, lab, p->reason[lab - 1], what);
        free(what);
    }
    int rc = gr_regrades_log_append(o->out, b.s ? b.s : "", err, errlen);
    free(b.s);
    return rc;
}

void gr_regrade_plan_free(gr_regrade_plan *p)
{
    gr_regrade_snap_free(&p->old);
    gr_regrade_snap_free(&p->now);
}

/* ---- recording ------------------------------------------------------------------------- */

/* A regrade on into for each test of lab whose score differs between was
   (NULL: the lab was not graded) and now, or that only one of them has. */
static void record_lab(const gr_regrade_plan *p, gr_report *into, const gr_lab_result *was,
                       const gr_lab_result *now)
{
    char *lab_change = gr_regrade_lab_change(&p->old, &p->now, now->lab);
    for (int j = 0; j < now->n_tests; j++) {
        const gr_test_result *t = &now->tests[j], *o = gr_regrades_find_test(was, t->name);
        if (o && o->score == t->score)
            continue;
        char *own = test_change(&p->old, &p->now, now->lab, t->name);
        gr_regrades_add(into, now->lab, t->name, o != NULL, o ? o->score : 0, 1, t->score,
                        p->when, p->reason[now->lab - 1], own ? own : lab_change);
        free(own);
    }
    for (int j = 0; was && j < was->n_tests; j++)
        if (!gr_regrades_find_test(now, was->tests[j].name))
            gr_regrades_add(into, now->lab, was->tests[j].name, 1, was->tests[j].score, 0, 0,
                            p->when, p->reason[now->lab - 1], "removed");
    free(lab_change);
}

int gr_regrade_merge(const gr_regrade_plan *p, const char *dir, const char *id, gr_report *r,
                     char **log, char *err, size_t errlen)
{
    *log = NULL;
    char *path = gr_xasprintf("%s/students/%s/results.json", dir, id);
    gr_report old;
    int rc = gr_report_read_json(path, &old, err, errlen);
    free(path);
    if (rc != 0)
        return -1;
    int from = old.n_regrades;
    for (int i = 0; i < r->n_labs; i++) {
        gr_lab_result *now = &r->labs[i];
        int k = 0;
        while (k < old.n_labs && old.labs[k].lab != now->lab)
            k++;
        record_lab(p, &old, k < old.n_labs ? &old.labs[k] : NULL, now);
        if (k == old.n_labs) {
            old.labs = gr_xrealloc(old.labs, (size_t)(old.n_labs + 1) * sizeof *old.labs);
            old.n_labs++;
        } else {
            gr_result_lab_free(&old.labs[k]);
        }
        old.labs[k] = *now;                   /* moved: r no longer owns it */
        memset(now, 0, sizeof *now);
    }
    gr_report none;
    memset(&none, 0, sizeof none);
    gr_report_read_merge(&old, &none);   /* merging nothing makes totals and numbers again */
    old.seconds = r->seconds;
    /* the walls up now, as the labs just graded were built and run inside them */
    char *walls[2] = {old.confinement, old.sandbox};
    old.confinement = r->confinement;
    old.sandbox = r->sandbox;
    r->confinement = walls[0];
    r->sandbox = walls[1];
    if (log && old.n_regrades > from)
        *log = gr_regrades_log_lines(id, &old, from);
    gr_result_free(r);
    *r = old;
    return 0;
}
