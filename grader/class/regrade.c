/* regrade.c: regrades recorded, and rubric changes regraded in part (see
 * regrade.h). */
#include "class/regrade.h"
#include "layout.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cells.h"
#include "report/report.h"
#include "rubric.h"
#include "class/key.h"
#include "util.h"

#define STATE_MAGIC "attnlab rubrics.state 1"
#define LOG_HEADER "when\tstudent\tlab\ttest\told\tnew\treason\tchange\n"

const char *gr_regrade_now(char buf[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
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
        int rc = gr_rubric_load(path, &r, err, errlen);
        free(path);
        if (rc != 0) {
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
    }
    return 0;
}

/* One "lab N DIGEST T" block of the state file at *p into s. 0 or -1. */
static int read_lab(char **p, gr_rubric_snap *s)
{
    int lab = 0, n = 0;
    char digest[33];
    if (sscanf(*p, "lab %d %32[0-9a-f] %d", &lab, digest, &n) != 3 || lab < 1 ||
        lab > GR_N_LABS || n < 0 || n > 10000 || s->have[lab - 1])
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
        gr_sb_printf(&b, "lab %d %s %d\n", i + 1, s->digest[i], s->n_tests[i]);
        for (int t = 0; t < s->n_tests[i]; t++)
            gr_sb_printf(&b, "test %.17g %.17g %.17g %s\n", s->tests[i][t].points,
                         s->tests[i][t].abs_tol, s->tests[i][t].rel_tol, s->tests[i][t].name);
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

char *gr_regrade_lab_change(const gr_rubric_snap *old, const gr_rubric_snap *now, int lab)
{
    int i = lab - 1;
    if (!old->have[i] || !now->have[i] || strcmp(old->digest[i], now->digest[i]) == 0)
        return NULL;
    gr_strbuf b = {0};
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

int gr_regrade_plan_make(gr_regrade_plan *p, const gr_batch_opts *o, FILE *progress, char *err,
                         size_t errlen)
{
    memset(p, 0, sizeof *p);
    const char *dir = o->out;
    const int *labs = o->labs;
    p->reason = o->reason;
    gr_regrade_now(p->when);
    if (gr_regrade_snap_make(o, &p->now, err, errlen) != 0)
        return -1;
    if (gr_regrade_snap_read(dir, &p->old) != 0)
        return 0;                       /* no earlier run known: nothing in part */
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *what = labs[lab - 1] ? gr_regrade_lab_change(&p->old, &p->now, lab) : NULL;
        if (!what)
            continue;
        p->changed[lab - 1] = p->any = 1;
        if (progress)
            fprintf(progress, "attnlab batch: %s's rubric or contract header changed since %s "
                    "was graded (%s); only that lab is regraded for students whose files are "
                    "as they were, each change recorded in regrades.log\n",
                    gr_layout_dir(lab), dir, what);
        free(what);
    }
    return p->any ? gr_regrade_log_append(dir, "", err, errlen) : 0;   /* the header, once */
}

void gr_regrade_plan_free(gr_regrade_plan *p)
{
    gr_regrade_snap_free(&p->old);
    gr_regrade_snap_free(&p->now);
}

/* ---- recording ------------------------------------------------------------------------- */

void gr_regrade_add(gr_report *r, int lab, const char *test, int has_old, double old_score,
                    int has_new, double new_score, const char *when, const char *reason,
                    const char *change)
{
    r->regrades = gr_xrealloc(r->regrades, (size_t)(r->n_regrades + 1) * sizeof *r->regrades);
    gr_regrade *g = &r->regrades[r->n_regrades++];
    memset(g, 0, sizeof *g);
    g->when = gr_xstrdup(when);
    g->lab = lab;
    g->test = gr_xstrdup(test);
    g->has_old = has_old;
    g->old_score = old_score;
    g->has_new = has_new;
    g->new_score = new_score;
    g->reason = gr_xstrdup(reason && *reason ? reason : GR_NO_REASON);
    g->change = change ? gr_xstrdup(change) : NULL;
}

static const gr_test_result *lab_test(const gr_lab_result *l, const char *name)
{
    for (int j = 0; l && j < l->n_tests; j++)
        if (strcmp(l->tests[j].name, name) == 0)
            return &l->tests[j];
    return NULL;
}

/* A regrade on into for each test of lab whose score differs between was
   (NULL: the lab was not graded) and now, or that only one of them has. */
static void record_lab(const gr_regrade_plan *p, gr_report *into, const gr_lab_result *was,
                       const gr_lab_result *now)
{
    char *lab_change = gr_regrade_lab_change(&p->old, &p->now, now->lab);
    for (int j = 0; j < now->n_tests; j++) {
        const gr_test_result *t = &now->tests[j], *o = lab_test(was, t->name);
        if (o && o->score == t->score)
            continue;
        char *own = test_change(&p->old, &p->now, now->lab, t->name);
        gr_regrade_add(into, now->lab, t->name, o != NULL, o ? o->score : 0, 1, t->score,
                       p->when, p->reason, own ? own : lab_change);
        free(own);
    }
    for (int j = 0; was && j < was->n_tests; j++)
        if (!lab_test(now, was->tests[j].name))
            gr_regrade_add(into, now->lab, was->tests[j].name, 1, was->tests[j].score, 0, 0,
                           p->when, p->reason, "removed");
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
        *log = gr_regrade_log_lines(id, &old, from);
    gr_result_free(r);
    *r = old;
    return 0;
}

char *gr_regrade_test(gr_report *into, const gr_report *from, const char *reason)
{
    int first = into->n_regrades;
    char when[32];
    gr_regrade_now(when);
    for (int i = 0; i < from->n_labs; i++)
        for (int j = 0; j < from->labs[i].n_tests; j++) {
            const gr_test_result *t = &from->labs[i].tests[j], *o = NULL;
            for (int k = 0; k < into->n_labs && !o; k++)
                if (into->labs[k].lab == from->labs[i].lab)
                    o = lab_test(&into->labs[k], t->name);
            gr_regrade_add(into, from->labs[i].lab, t->name, o != NULL, o ? o->score : 0, 1,
                           t->score, when, reason, NULL);
        }
    gr_report_read_merge(into, from);
    return gr_regrade_log_lines(into->student, into, first);
}

void gr_regrade_carry(const char *path, gr_report *r)
{
    gr_report old;
    char err[256];
    if (access(path, F_OK) != 0 || gr_report_read_json(path, &old, err, sizeof err) != 0)
        return;
    if (old.n_regrades) {
        old.regrades = gr_xrealloc(old.regrades, (size_t)(old.n_regrades + r->n_regrades) *
                                   sizeof *old.regrades);
        memcpy(old.regrades + old.n_regrades, r->regrades,
               (size_t)r->n_regrades * sizeof *r->regrades);
        free(r->regrades);
        r->regrades = old.regrades;
        r->n_regrades += old.n_regrades;
        old.regrades = NULL;
        old.n_regrades = 0;
    }
    gr_result_free(&old);
}

/* ---- regrades.log ---------------------------------------------------------------------- */

/* s as one log field: control characters (a tab, a line end) as spaces, at
   most 1000 bytes, "-" for nothing, a formula lead neutralised (gr_tsv_text:
   an id or reason like =HYPERLINK(...) stays text in a spreadsheet). */
static void log_field(gr_strbuf *b, const char *s, int last)
{
    if (!s || !*s) {
        gr_sb_append(b, last ? "-\n" : "-\t");
        return;
    }
    size_t n = strlen(s) > 1000 ? 1000 : strlen(s);
    char *clean = gr_xasprintf("%.*s", (int)n, s);
    for (char *c = clean; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = ' ';
    gr_tsv_text(b, clean);
    free(clean);
    gr_sb_append(b, last ? "\n" : "\t");
}

char *gr_regrade_log_lines(const char *student, const gr_report *r, int from)
{
    gr_strbuf b = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    for (int i = from; i < r->n_regrades; i++) {
        const gr_regrade *g = &r->regrades[i];
        log_field(&b, g->when, 0);
        log_field(&b, student, 0);
        log_field(&b, g->lab >= 1 && g->lab <= GR_N_LABS ? gr_layout_dir(g->lab) : "?", 0);
        log_field(&b, g->test, 0);
        log_field(&b, g->has_old ? gr_points(p1, g->old_score) : NULL, 0);
        log_field(&b, g->has_new ? gr_points(p2, g->new_score) : NULL, 0);
        log_field(&b, g->reason, 0);
        log_field(&b, g->change, 1);
    }
    return gr_sb_take(&b);
}

char *gr_regrade_class_line(const char *when, const char *reason, const char *change)
{
    gr_strbuf b = {0};
    log_field(&b, when, 0);
    log_field(&b, "*", 0);              /* the whole class: a setting, not one grade */
    for (int i = 0; i < 4; i++)         /* lab, test, old, new */
        log_field(&b, NULL, 0);
    log_field(&b, reason ? reason : GR_NO_REASON, 0);
    log_field(&b, change, 1);
    return gr_sb_take(&b);
}

int gr_regrade_log_append(const char *dir, const char *lines, char *err, size_t errlen)
{
    char *path = gr_xasprintf("%s/regrades.log", dir);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    struct stat st;
    const char *why = NULL;
    if (fd < 0 || fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    if (!why) {
        /* one write: workers append at once, and O_APPEND keeps each student's lines whole */
        char *text = gr_xasprintf("%s%s", st.st_size == 0 ? LOG_HEADER : "", lines);
        size_t len = strlen(text);
        if (write(fd, text, len) != (ssize_t)len)
            why = strerror(errno);
        free(text);
    }
    if (why)
        gr_set_err(err, errlen, "cannot append to %s: %s", path, why);
    if (fd >= 0)
        close(fd);
    free(path);
    return why ? -1 : 0;
}

char *gr_regrade_log_dir(const char *json_path)
{
    char *d = gr_xstrdup(json_path);
    char *slash = strrchr(d, '/');
    if (!slash) {
        free(d);
        return gr_xstrdup(".");
    }
    *slash = '\0';                          /* DIR/students/ID */
    char *up = strrchr(d, '/');
    if (up && up > d) {
        *up = '\0';                         /* DIR/students */
        char *top = strrchr(d, '/');
        const char *name = top ? top + 1 : d;
        if (strcmp(name, "students") == 0) {
            char *out = top ? gr_xasprintf("%.*s", (int)(top - d), d) : gr_xstrdup(".");
            free(d);
            return out;
        }
        *up = '/';
    }
    return d;
}
