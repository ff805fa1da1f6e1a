/* override.c: grades set by hand, kept in the class folder (see override.h). */
#include "class/override.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cells.h"
#include "class/regrade.h"
#include "base/layout.h"
#include "report/report.h"
#include "base/util.h"

#define FILE_NAME "overrides.txt"
#define HEADER "when\tstudent\tlab\ttest\tkind\tvalue\treason\n"
#define MAX_SIZE ((size_t)64 << 20)

/* One line's seven fields into o (strings copied). 0, or -1 saying why in why. */
static int parse_line(char *line, gr_class_override *o, const char **why)
{
    char *f[7], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(line, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
        f[n++] = t;
    char *end = NULL;
    long lab = n == 7 ? strtol(f[2], &end, 10) : 0;
    double v = n == 7 ? strtod(f[5], NULL) : 0;
    *why = n != 7 || strtok_r(NULL, "\t", &save) ? "not seven tab-separated fields"
         : !end || *end || lab < 1 || lab > GR_N_LABS ? "the lab is not a lab number"
         : strcmp(f[4], "points") && strcmp(f[4], "adjust") ? "the kind is not points or adjust"
         : !isfinite(v) ? "the value is not a number" : NULL;
    if (*why)
        return -1;
    memset(o, 0, sizeof *o);
    o->when = gr_xstrdup(f[0]);
    o->student = gr_xstrdup(f[1]);
    o->lab = (int)lab;
    o->test = strcmp(f[3], "-") ? gr_xstrdup(f[3]) : NULL;
    o->adjust = strcmp(f[4], "adjust") == 0;
    o->value = v;
    o->reason = gr_xstrdup(f[6]);
    return 0;
}

int gr_override_load(const char *dir, gr_class *c, char *err, size_t errlen)
{
    char *path = gr_xasprintf("%s/" FILE_NAME, dir), *text = NULL, why[256] = "";
    size_t len = 0;
    int rc = gr_read_regular(path, MAX_SIZE, &text, &len, why, sizeof why);
    if (rc < 0 && errno == ENOENT) {
        free(path);
        return 0;
    }
    if (rc != 0)
        gr_set_err(err, errlen, "%s: %s", path, rc > 0 ? why : strerror(errno));
    char *save = NULL;
    int ln = 0;
    for (char *l = rc ? NULL : strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        const char *bad = NULL;
        if (++ln == 1 && strncmp(l, HEADER, strlen(HEADER) - 1) == 0)
            continue;
        c->overrides = gr_xrealloc(c->overrides, (size_t)(c->n_overrides + 1) * sizeof *c->overrides);
        if (parse_line(l, &c->overrides[c->n_overrides], &bad) != 0) {
            gr_set_err(err, errlen, "%s:%d: %s", path, ln, bad);
            rc = -1;
            break;
        }
        c->n_overrides++;
    }
    free(text);
    free(path);
    return rc ? -1 : 0;
}

/* s with every tab, line end or other control character made a space (malloc'd). */
static char *one_field(const char *s)
{
    char *t = gr_xstrdup(s ? s : "");
    for (char *p = t; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    return t;
}

/* Append text to dir/name (its header first when new) in one write. 0 or -1. */
static int append(const char *dir, const char *text, char *err, size_t errlen)
{
    char *path = gr_xasprintf("%s/" FILE_NAME, dir);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    off_t size = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
    char *all = gr_xasprintf("%s%s", size == 0 ? HEADER : "", text);
    int rc = fd >= 0 && size >= 0 && write(fd, all, strlen(all)) == (ssize_t)strlen(all) ? 0 : -1;
    if (rc != 0)
        gr_set_err(err, errlen, "cannot append to %s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    free(all);
    free(path);
    return rc;
}

/* What o does, for regrades.log and a message (malloc'd). */
static char *change_of(const gr_class_override *o)
{
    char p[GR_POINTS_LEN];
    if (o->adjust)
        return gr_xasprintf("override: %s%s points", o->value < 0 ? "" : "+", gr_points(p, o->value));
    return gr_xasprintf("override: %s set to %s points", o->test ? o->test : "the lab",
                        gr_points(p, o->value));
}

/* Whether o fits the student's results r: 0, or -1 with err. */
static int check(const gr_class_override *o, const gr_report *r, const char *path, char *err,
                 size_t errlen)
{
    const gr_lab_result *l = NULL;
    for (int i = 0; i < r->n_labs; i++)
        if (r->labs[i].lab == o->lab)
            l = &r->labs[i];
    const gr_test_result *t = NULL;
    for (int i = 0; l && o->test && i < l->n_tests; i++)
        if (strcmp(l->tests[i].name, o->test) == 0)
            t = &l->tests[i];
    double max = t ? t->max_score : l ? l->max_score : 0;
    char p[GR_POINTS_LEN];
    if (!gr_report_is_of(r, o->student))
        gr_set_err(err, errlen, "%s holds the results of another student", path);
    else if (!l)
        gr_set_err(err, errlen, "%s has no %s: that lab was not graded", path, gr_layout_dir(o->lab));
    else if (o->test && !t)
        gr_set_err(err, errlen, "%s has no test %s in %s", path, o->test, gr_layout_dir(o->lab));
    else if (!o->adjust && (o->value < 0 || o->value > max))
        gr_set_err(err, errlen, "--points %g: %s is out of 0 to %s points", o->value,
                   o->test ? o->test : gr_layout_dir(o->lab), gr_points(p, max));
    else
        return 0;
    return -1;
}

/* The lines o adds to overrides.txt and regrades.log, from the lab's score
   old to now. 0, or -1 with err. */
static int record(const char *dir, const gr_class_override *o, double old, double now,
                  char *err, size_t errlen)
{
    char when[32], value[64];
    gr_regrades_now(when);
    snprintf(value, sizeof value, "%.17g", o->value);
    char *reason = one_field(o->reason), *change = change_of(o);
    char *line = gr_xasprintf("%s\t%s\t%d\t%s\t%s\t%s\t%s\n", when, o->student, o->lab,
                              o->test ? o->test : "-", o->adjust ? "adjust" : "points", value,
                              reason);
    gr_report r;                        /* regrades.log's own format (regrade.h) */
    memset(&r, 0, sizeof r);
    gr_regrades_add(&r, o->lab, o->test ? o->test : "(lab score)", 1, old, 1, now, when, reason,
                    change);
    char *log = gr_regrades_log_lines(o->student, &r, 0);
    int rc = append(dir, line, err, errlen) == 0 ? gr_regrades_log_append(dir, log, err, errlen) : -1;
    gr_result_free(&r);
    free(log);
    free(line);
    free(change);
    free(reason);
    return rc;
}

/* o added to c's overrides (strings copied). */
static void push(gr_class *c, const gr_class_override *o)
{
    c->overrides = gr_xrealloc(c->overrides, (size_t)(c->n_overrides + 1) * sizeof *c->overrides);
    gr_class_override *k = &c->overrides[c->n_overrides++];
    *k = *o;
    k->when = gr_xstrdup(o->when ? o->when : "");
    k->student = gr_xstrdup(o->student);
    k->test = o->test ? gr_xstrdup(o->test) : NULL;
    k->reason = gr_xstrdup(o->reason ? o->reason : "");
}

int gr_override_add(const char *dir, const gr_class_override *o, double *old, double *now,
                    char *err, size_t errlen)
{
    gr_class c;
    memset(&c, 0, sizeof c);
    c.n = 1;
    c.students = gr_xcalloc(1, sizeof *c.students);
    c.students[0].id = gr_xstrdup(o->student);
    char *js = gr_xasprintf("%s/students/%s/results.json", dir, o->student);
    int rc = strchr(o->student, '/') || !o->student[0] || strcmp(o->student, "..") == 0 ? -1 : 0;
    if (rc != 0)
        gr_set_err(err, errlen, "'%s' is not a student id", o->student);
    if (rc == 0 && gr_report_read_json(js, &c.students[0].report, err, errlen) != 0)
        rc = -1;
    if (rc == 0)
        rc = check(o, &c.students[0].report, js, err, errlen);
    if (rc == 0)
        rc = gr_override_load(dir, &c, err, errlen);
    if (rc == 0) {
        *old = gr_class_raw(&c, &c.students[0], o->lab);
        push(&c, o);
        *now = gr_class_raw(&c, &c.students[0], o->lab);
        const gr_lab_result *l = gr_class_lab(&c.students[0], o->lab);
        char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
        if (*now < 0 || *now > l->max_score + 1e-9) {
            gr_set_err(err, errlen, "the override would put %s at %s of its %s points",
                       gr_layout_dir(o->lab), gr_points(p1, *now), gr_points(p2, l->max_score));
            rc = -1;
        }
    }
    if (rc == 0)
        rc = record(dir, o, *old, *now, err, errlen);
    free(js);
    gr_class_free(&c);
    return rc;
}
