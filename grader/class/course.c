/* course.c: course.yaml through the shared YAML reader, and the late policy
 * (see course.h). */
#include "class/course.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sup_yamlread.h"
#include "base/util.h"

#define DAY 86400

/* Digits s[0..n) as a number into *v: 0, or -1 when one is not a digit. */
static int digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        *v = *v * 10 + (s[i] - '0');
    }
    return 0;
}

int gr_parse_time(const char *s, time_t *t)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int y, mo, d, h, mi, sec = 0;
    /* YYYY-MM-DD[T ]HH:MM */
    if (strlen(s) < 16 || digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &mo) ||
        s[7] != '-' || digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != ' ') ||
        digits(s + 11, 2, &h) || s[13] != ':' || digits(s + 14, 2, &mi))
        return -1;
    const char *p = s + 16;
    if (*p == ':') {
        if (digits(p + 1, 2, &sec))
            return -1;
        p += 3;
        if (*p == '.')               /* a fraction of a second: dropped */
            for (p++; isdigit((unsigned char)*p); p++)
                ;
    }
    long off;
    int oh = 0, om = 0;
    if (*p == ' ' && (p[1] == 'Z' || p[1] == '+' || p[1] == '-'))
        p++;                         /* Ruby's to_yaml: "... 23:59:00.123456000 -05:00" */
    if (*p == 'Z' && p[1] == '\0') {
        off = 0;
    } else if ((*p == '+' || *p == '-') && !digits(p + 1, 2, &oh) &&
               ((p[3] == ':' && !digits(p + 4, 2, &om) && p[6] == '\0') ||
                (!digits(p + 3, 2, &om) && p[5] == '\0'))) {
        off = (oh * 60L + om) * 60 * (*p == '-' ? -1 : 1);
    } else {
        return -1;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60 || oh > 23 || om > 59)
        return -1;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = sec;
    *t = timegm(&tm) - off;          /* local time minus its offset is UTC */
    return 0;
}

/* Days of extension student id has for lab (0 without one). */
static double extension_days(const gr_course *c, const char *id, int lab)
{
    for (int i = 0; id && i < c->n_ext; i++)
        if (c->ext[i].lab == lab && strcmp(c->ext[i].id, id) == 0)
            return c->ext[i].days;
    return 0;
}

int gr_course_days_late(const gr_course *c, const char *id, int lab, time_t submitted)
{
    if (lab < 1 || lab > GR_N_LABS || !c->has_due[lab - 1])
        return 0;
    double late = difftime(submitted, c->due[lab - 1]) - extension_days(c, id, lab) * DAY;
    if (late <= (double)c->grace_seconds)
        return 0;
    return (int)ceil(late / DAY);
}

double gr_course_adjust(const gr_course *c, double raw, int days_late)
{
    if (days_late <= 0)
        return raw;
    if (c->max_late_days >= 0 && days_late > c->max_late_days)
        return 0;
    double keep = 1.0 - days_late * c->penalty_percent / 100.0;
    return keep > 0 ? raw * keep : 0;
}

/* ---- course.yaml ---------------------------------------------------------- */

static int rd_due(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_course *c = target;
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "due: expected a mapping of lab number to due date "
                          "(1: 2025-02-07T23:59:00-05:00), got %s", yr_kind_name(v));
    for (const yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k, *val = yr_node(d, p->value);
        long lab;
        const char *s;
        if (yr_key(d, v, p, "due", &k) != 0)
            return -1;
        if (yr_parse_long(yr_text(k), &lab) != YR_NUM_OK || lab < 1 || lab > GR_N_LABS)
            return yr_fail_at(d, k, "due: a key is a lab number from 1 to %d, got \"%s\"",
                              GR_N_LABS, yr_text(k));
        if (yr_get_string(d, val, "due date", YR_NONEMPTY, &s) != 0)
            return -1;
        if (gr_parse_time(s, &c->due[lab - 1]) != 0)
            return yr_fail_at(d, val, "due date of lab %ld: \"%s\" is not an ISO 8601 time with "
                              "its UTC offset; write it like 2025-02-07T23:59:00-05:00 (or ...Z "
                              "for UTC)", lab, s);
        c->has_due[lab - 1] = 1;
    }
    return 0;
}

static int rd_grace(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_course *c = target;
    double m;
    if (yr_get_double(d, v, "grace_minutes", &m) != 0)
        return -1;
    if (m < 0 || m > 60.0 * 24 * 365)
        return yr_fail_at(d, v, "grace_minutes: a number of minutes from 0 to a year, got %g", m);
    c->grace_seconds = (long)(m * 60);
    return 0;
}

static int rd_penalty(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_course *c = target;
    if (yr_get_double(d, v, "late_penalty_percent", &c->penalty_percent) != 0)
        return -1;
    if (c->penalty_percent < 0 || c->penalty_percent > 100)
        return yr_fail_at(d, v, "late_penalty_percent: the percent of a lab's score lost per "
                          "day late, 0 to 100, got %g", c->penalty_percent);
    /* tenths at most: a late score is then exact to millionths (cells.h) */
    if (fabs(c->penalty_percent * 10 - nearbyint(c->penalty_percent * 10)) > 1e-9)
        return yr_fail_at(d, v, "late_penalty_percent: at most one decimal (12.5, not 12.25), "
                          "got %s", yr_text(v));
    return 0;
}

static int rd_max_days(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_course *c = target;
    long n;
    if (yr_get_long(d, v, "max_late_days", &n) != 0)
        return -1;
    if (n < 0 || n > 365)
        return yr_fail_at(d, v, "max_late_days: a whole number of days from 0 to 365, got %ld", n);
    c->max_late_days = (int)n;
    return 0;
}

/* One student's extensions, {lab: days}, into c->ext. */
static int rd_student_ext(yr_doc *d, const yaml_node_t *key, const yaml_node_t *v, gr_course *c)
{
    const char *id = yr_text(key);
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "extensions: %s: expected a mapping of lab number to days "
                          "({1: 2} gives lab 1 two more days), got %s", id, yr_kind_name(v));
    for (const yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k, *val = yr_node(d, p->value);
        long lab;
        double days;
        if (yr_key(d, v, p, "extensions", &k) != 0)
            return -1;
        if (yr_parse_long(yr_text(k), &lab) != YR_NUM_OK || lab < 1 || lab > GR_N_LABS)
            return yr_fail_at(d, k, "extensions: %s: a key is a lab number from 1 to %d, got \"%s\"",
                              id, GR_N_LABS, yr_text(k));
        if (yr_get_double(d, val, "extension days", &days) != 0)
            return -1;
        if (!(days > 0 && days <= 365))
            return yr_fail_at(d, val, "extensions: %s: lab %ld: a number of days from more than 0 "
                              "to 365, got %g", id, lab, days);
        c->ext = gr_xrealloc(c->ext, (size_t)(c->n_ext + 1) * sizeof *c->ext);
        gr_extension *e = &c->ext[c->n_ext++];
        e->id = gr_xstrdup(id);
        e->lab = (int)lab;
        e->days = days;
        yr_pos at = yr_pos_of(key), lat = yr_pos_of(k);
        e->line = at.line;
        e->column = at.column;
        e->lab_line = lat.line;
        e->lab_column = lat.column;
    }
    return 0;
}

/* extensions: {id: {lab: days}, ...} */
static int rd_extensions(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_course *c = target;
    if (v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "extensions: expected a mapping of student id to {lab: days} "
                          "(s001: {1: 2}), got %s", yr_kind_name(v));
    for (const yaml_node_pair_t *p = v->data.mapping.pairs.start; p < v->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (yr_key(d, v, p, "extensions", &k) != 0 ||
            rd_student_ext(d, k, yr_node(d, p->value), c) != 0)
            return -1;
    }
    return 0;
}

static const yr_field course_fields[] = {
    {"due", 1, rd_due},
    {"extensions", 0, rd_extensions},
    {"grace_minutes", 0, rd_grace},
    {"late_penalty_percent", 0, rd_penalty},
    {"max_late_days", 0, rd_max_days},
};

/* An extension of a lab with no due date extends nothing: say so. */
static int check_extensions(const char *path, const gr_course *c, char *err, size_t errlen)
{
    for (int i = 0; i < c->n_ext; i++)
        if (!c->has_due[c->ext[i].lab - 1]) {
            gr_set_err(err, errlen, "%s:%d:%d: extensions: %s: lab %d has no due date under "
                       "due:, so there is nothing to extend; give it one or drop the extension",
                       path, c->ext[i].lab_line, c->ext[i].lab_column, c->ext[i].id, c->ext[i].lab);
            return -1;
        }
    return 0;
}

int gr_course_load(const char *path, gr_course *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->max_late_days = -1;
    out->path = gr_xstrdup(path);
    static const yr_spec spec = {
        "the course policy",
        "the course policy is empty; it needs at least due: with a date per lab", NULL,
        course_fields, YR_N_FIELDS(course_fields), NULL, NULL,
    };
    int rc = yr_load_file(path, &spec, out, err, errlen);
    if (rc == 0)
        rc = check_extensions(path, out, err, errlen);
    if (rc != 0)
        gr_course_free(out);
    return rc;
}

void gr_course_free(gr_course *c)
{
    for (int i = 0; i < c->n_ext; i++)
        free(c->ext[i].id);
    free(c->ext);
    free(c->path);
    c->ext = NULL;
    c->n_ext = 0;
    c->path = NULL;
}
