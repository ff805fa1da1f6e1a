/* run_settings.c: a class's settings as a batch's options give them, the
 * copies of their files in the class folder, and the record read back (see
 * run.h, class.h). */
#include "class/run.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/key.h"
#include "base/layout.h"
#include "base/util.h"

/* The digest of the bytes at path (malloc'd), or NULL when it cannot be read. */
static char *digest_of(const char *path)
{
    size_t len = 0;
    char *text = gr_read_file(path, &len);
    char *hex = text ? gr_key_digest(text, len) : NULL;
    free(text);
    return hex;
}

/* A file setting: as given, and its bytes' digest ("unreadable" when they
   cannot be read). */
static void file_setting(gr_class_settings *s, gr_setting k, const char *path)
{
    if (!path)
        return;
    s->given[k] = gr_xstrdup(path);
    s->value[k] = digest_of(path);
    if (!s->value[k])
        s->value[k] = gr_xstrdup("unreadable");
}

void gr_run_settings_of(const gr_batch_opts *o, gr_class_settings *s)
{
    memset(s, 0, sizeof *s);
    file_setting(s, GR_SET_ROSTER, o->roster);
    file_setting(s, GR_SET_COURSE, o->course ? o->course_file : NULL);
    file_setting(s, GR_SET_TIMES, o->times);
    if (o->file_times) {
        s->given[GR_SET_TIMES] = gr_xstrdup("--file-times");
        s->value[GR_SET_TIMES] = gr_xstrdup("file-times");
    }
    if (o->rubrics) {
        char *real = realpath(o->rubrics, NULL);
        s->given[GR_SET_RUBRICS] = gr_xstrdup(o->rubrics);
        s->value[GR_SET_RUBRICS] = real ? real : gr_xstrdup(o->rubrics);
    } else {
        s->value[GR_SET_RUBRICS] = gr_xstrdup("course");
    }
    gr_strbuf labs = {0};
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (o->labs[lab - 1])
            gr_sb_printf(&labs, "%s%d", labs.len ? "," : "", lab);
    s->value[GR_SET_LABS] = gr_sb_take(&labs);
    s->given[GR_SET_LABS] = gr_xstrdup(s->value[GR_SET_LABS]);
    s->value[GR_SET_SECRET] = gr_run_secret_check(o->secret);
    s->value[GR_SET_BUILD] = gr_key_program();
}

char *gr_run_settings_kept(const char *dir, gr_setting k, const char *given)
{
    size_t n = given ? strlen(given) : 0;
    switch (k) {
    case GR_SET_ROSTER: return gr_xasprintf("%s/roster.yaml", dir);
    case GR_SET_COURSE: return gr_xasprintf("%s/course.yaml", dir);
    case GR_SET_TIMES:  /* the times' format follows the name (handin.h) */
        return gr_xasprintf("%s/times.%s", dir, n > 4 && strcmp(given + n - 4, ".csv") == 0
                                                ? "csv" : "yaml");
    case GR_SET_RUBRICS: return gr_xasprintf("%s/rubrics", dir);
    default: return NULL;
    }
}

/* from copied to to, unless they are one file. 0, or -1 with err. */
static int copy_file(const char *from, const char *to, char *err, size_t errlen)
{
    char *a = realpath(from, NULL), *b = realpath(to, NULL);
    int same = a && b && strcmp(a, b) == 0;
    free(a);
    free(b);
    if (same)
        return 0;
    size_t len = 0;
    char *text = gr_read_file(from, &len);
    int rc = text ? gr_write_file_atomic(to, text, len) : -1;
    if (rc != 0)
        gr_set_err(err, errlen, "cannot keep a copy of %s as %s: %s", from, to, strerror(errno));
    free(text);
    return rc;
}

/* The rubrics of f's labs from f->rubrics into dir (made if missing). 0 or -1. */
static int keep_rubrics(const char *dir, const gr_run_files *f, char *err, size_t errlen)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        gr_set_err(err, errlen, "cannot make the folder %s: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int lab = 1; lab <= GR_N_LABS && rc == 0; lab++) {
        if (!f->labs[lab - 1])
            continue;
        char *from = gr_layout_rubric_from(f->root, f->rubrics, lab);
        char *to = gr_layout_rubric_from(f->root, dir, lab);
        rc = copy_file(from, to, err, errlen);
        free(from);
        free(to);
    }
    return rc;
}

/* The copies of setting k: path from made its copy in out, or, path NULL,
   any old copy removed. 0 or -1. */
static int keep_one(const char *out, gr_setting k, const char *path, const gr_run_files *f,
                    char *err, size_t errlen)
{
    char *yaml = gr_run_settings_kept(out, k, "x.yaml"), *csv = gr_run_settings_kept(out, k, "x.csv");
    char *to = path ? gr_run_settings_kept(out, k, path) : NULL;
    int rc = 0;
    if (k == GR_SET_RUBRICS && path)
        rc = keep_rubrics(to, f, err, errlen);
    else if (path)
        rc = copy_file(path, to, err, errlen);
    else if (k != GR_SET_RUBRICS)   /* a kept rubrics folder stays: rubrics.state names it */
        rc = (unlink(yaml) == 0 || errno == ENOENT) ? 0 : -1;
    if (rc == 0 && k == GR_SET_TIMES && strcmp(to ? to : "", csv) != 0)
        unlink(csv);                /* one times file at most */
    if (rc == 0 && k == GR_SET_TIMES && to && strcmp(to, yaml) != 0)
        unlink(yaml);
    free(yaml);
    free(csv);
    free(to);
    return rc;
}

int gr_run_settings_keep(const char *out, const gr_run_files *f, char *err, size_t errlen)
{
    const char *paths[] = {f->roster, f->course, f->times, f->rubrics};
    for (int k = GR_SET_ROSTER; k <= GR_SET_RUBRICS; k++)
        if (keep_one(out, (gr_setting)k, paths[k], f, err, errlen) != 0)
            return -1;
    return 0;
}

int gr_run_settings_load(const char *dir, gr_class_settings *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    static const char *const names[] = {"run.txt", "run.started"};
    for (int i = 0; i < 2; i++) {
        char *path = gr_xasprintf("%s/%s", dir, names[i]);
        int there = access(path, F_OK) == 0;
        free(path);
        if (!there)
            continue;
        gr_run r;
        gr_class c;
        memset(&c, 0, sizeof c);
        int rc = i == 0 ? gr_run_read(dir, &r, &c, err, errlen)
                        : gr_run_read_started(dir, &r, &c, err, errlen);
        gr_class_free(&c);
        if (rc != 0)
            return rc < 0 ? -1 : 1;
        *s = r.set;
        memset(&r.set, 0, sizeof r.set);
        gr_run_free(&r);
        return 0;
    }
    return 1;
}
