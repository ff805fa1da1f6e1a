/* regrades.c: a regrade recorded (see regrades.h): on the student's report,
 * as regrades.log lines, and the one-student merge of `attnlab grade --test`.
 */
#include "report/regrades.h"
#include "report/report.h"
#include "base/labmod.h"
#include "base/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/cells.h"
#include "base/util.h"

#define LOG_HEADER "when\tstudent\tlab\ttest\told\tnew\treason\tchange\n"

const char *gr_regrades_now(char buf[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

/* ---- recording ------------------------------------------------------------------------- */

void gr_regrades_add(gr_report *r, int lab, const char *test, int has_old, double old_score,
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

const gr_test_result *gr_regrades_find_test(const gr_lab_result *l, const char *name)
{
    for (int j = 0; l && j < l->n_tests; j++)
        if (strcmp(l->tests[j].name, name) == 0)
            return &l->tests[j];
    return NULL;
}

char *gr_regrades_test(gr_report *into, const gr_report *from, const char *reason)
{
    int first = into->n_regrades;
    char when[32];
    gr_regrades_now(when);
    for (int i = 0; i < from->n_labs; i++)
        for (int j = 0; j < from->labs[i].n_tests; j++) {
            const gr_test_result *t = &from->labs[i].tests[j], *o = NULL;
            for (int k = 0; k < into->n_labs && !o; k++)
                if (into->labs[k].lab == from->labs[i].lab)
                    o = gr_regrades_find_test(&into->labs[k], t->name);
            gr_regrades_add(into, from->labs[i].lab, t->name, o != NULL, o ? o->score : 0, 1,
                            t->score, when, reason, NULL);
        }
    gr_report_read_merge(into, from);
    return gr_regrades_log_lines(into->student, into, first);
}

void gr_regrades_carry(const char *path, gr_report *r)
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

/* One regrades.log line onto b, its eight columns in order (NULL: "-"). */
static void log_line(gr_strbuf *b, const char *when, const char *student, const char *lab,
                     const char *test, const char *old, const char *now, const char *reason,
                     const char *change)
{
    const char *const field[8] = {when, student, lab, test, old, now, reason, change};
    for (int i = 0; i < 8; i++)
        log_field(b, field[i], i == 7);
}

char *gr_regrades_log_lines(const char *student, const gr_report *r, int from)
{
    gr_strbuf b = {0};
    char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    for (int i = from; i < r->n_regrades; i++) {
        const gr_regrade *g = &r->regrades[i];
        log_line(&b, g->when, student,
                 g->lab >= 1 && g->lab <= GR_N_LABS ? gr_layout_dir(g->lab) : "?", g->test,
                 g->has_old ? gr_points(p1, g->old_score) : NULL,
                 g->has_new ? gr_points(p2, g->new_score) : NULL, g->reason, g->change);
    }
    return gr_sb_take(&b);
}

void gr_regrades_log_lab(gr_strbuf *b, const char *when, int lab, const char *reason,
                         const char *change)
{
    if (change)
        log_line(b, when, NULL, gr_layout_dir(lab), NULL, NULL, NULL,
                 reason && *reason ? reason : GR_NO_REASON, change);
}

char *gr_regrades_class_line(const char *when, const char *reason, const char *change)
{
    gr_strbuf b = {0};
    /* student "*": the whole class, a setting, not one grade */
    log_line(&b, when, "*", NULL, NULL, NULL, NULL, reason ? reason : GR_NO_REASON, change);
    return gr_sb_take(&b);
}

int gr_regrades_log_append(const char *dir, const char *lines, char *err, size_t errlen)
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

char *gr_regrades_log_dir(const char *json_path)
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
