/* batch_settings.c: a batch against the class's recorded settings (see
 * batch_settings.h). */
#include "class/batch_settings.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "class/regrade.h"
#include "class/run.h"
#include "base/layout.h"
#include "base/util.h"

/* The copy of setting k in the folder, for the options (kept by bs). NULL
   with err when it is missing. */
static const char *kept(gr_batch_settings *bs, gr_setting k, char *err, size_t errlen)
{
    char *path = gr_run_settings_kept(bs->o.out, k, bs->rec.given[k]);
    if (access(path, F_OK) != 0) {
        gr_set_err(err, errlen, "this class was graded with %s %s, and its copy %s is gone: "
                   "pass %s again, or --change %s --reason TEXT to drop it",
                   gr_class_setting_flag(k), bs->rec.given[k] ? bs->rec.given[k] : "", path,
                   gr_class_setting_flag(k), gr_class_setting_name(k));
        free(path);
        return NULL;
    }
    bs->kept[k] = path;
    return path;
}

/* Setting k, left off the command line, as the class recorded it. 0 or -1. */
static int take(gr_batch_settings *bs, gr_setting k, char *err, size_t errlen)
{
    const char *v = bs->rec.value[k];
    gr_batch_opts *o = &bs->o;
    if (k == GR_SET_LABS)
        return gr_layout_parse_labs(v, o->labs, err, errlen);
    if ((k == GR_SET_TIMES && strcmp(v, "file-times") == 0))
        return o->file_times = 1, 0;
    if (k == GR_SET_RUBRICS && strcmp(v, "course") == 0)
        return 0;
    const char *path = kept(bs, k, err, errlen);
    if (!path)
        return -1;
    if (k == GR_SET_ROSTER)
        o->roster = path;
    else if (k == GR_SET_TIMES) {
        o->times = path;
        o->times_name = bs->rec.given[k];
    }
    else if (k == GR_SET_RUBRICS)
        o->rubrics = path;
    else if (gr_course_load(path, &bs->course, err, errlen) != 0)
        return -1;
    else {
        bs->has_course = 1;
        o->course = &bs->course;
        o->course_file = path;
    }
    return 0;
}

/* Which settings the command line gave (the secret and build always). */
static void given_of(const gr_batch_opts *o, int given[GR_SET_COUNT])
{
    given[GR_SET_ROSTER] = o->roster != NULL;
    given[GR_SET_COURSE] = o->course != NULL;
    given[GR_SET_TIMES] = o->times != NULL || o->file_times;
    given[GR_SET_RUBRICS] = o->rubrics != NULL;
    given[GR_SET_LABS] = o->labs_given;
    given[GR_SET_SECRET] = given[GR_SET_BUILD] = 1;
}

static int same(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

/* 1 when path is the copy in dir of setting k (given as the class's own). */
static int is_kept(const char *dir, gr_setting k, const char *given, const char *path)
{
    char *copy = gr_run_settings_kept(dir, k, given);
    char *a = copy ? realpath(copy, NULL) : NULL, *b = path ? realpath(path, NULL) : NULL;
    int yes = a && b && strcmp(a, b) == 0;
    free(copy);
    free(a);
    free(b);
    return yes;
}

/* Settings of now that are the class's own copies, as the class recorded them. */
static void keep_recorded_names(gr_class_settings *now, const gr_class_settings *rec,
                                const char *dir)
{
    for (int k = 0; k < GR_SET_COUNT; k++)
        if (same(rec->value[k], now->value[k]) ||
            (k == GR_SET_RUBRICS && is_kept(dir, k, NULL, now->given[k])))
            gr_class_setting_copy(now, rec, (gr_setting)k);
}

int gr_batch_settings_apply(gr_batch_settings *bs, const gr_batch_opts *o, char *err,
                            size_t errlen)
{
    memset(bs, 0, sizeof *bs);
    bs->o = *o;
    int rc = gr_run_settings_load(o->out, &bs->rec, err, errlen);
    if (rc < 0)
        return -1;
    bs->have_rec = rc == 0;
    int given[GR_SET_COUNT];
    given_of(o, given);
    for (int k = 0; bs->have_rec && k < GR_SET_COUNT; k++)
        if (!given[k] && !o->change[k] && bs->rec.value[k] &&
            take(bs, (gr_setting)k, err, errlen) != 0)
            return -1;
    gr_run_settings_of(&bs->o, &bs->now);
    if (bs->have_rec)                   /* the names they were first given */
        keep_recorded_names(&bs->now, &bs->rec, o->out);
    gr_strbuf why = {0};
    if (bs->have_rec &&
        gr_class_settings_differ(&bs->rec, &bs->now, given, o->change, "batch", &why) > 0) {
        gr_set_err(err, errlen, "%s", why.s);
        free(why.s);
        return -1;
    }
    return 0;
}

/* The regrades.log lines of the changes asked for (malloc'd), or NULL. */
static char *changes(const gr_batch_settings *bs)
{
    gr_strbuf lines = {0};
    char when[32];
    gr_regrades_now(when);
    for (int k = 0; bs->have_rec && k < GR_SET_COUNT; k++) {
        if (!bs->o.change[k] || same(bs->rec.value[k], bs->now.value[k]))
            continue;
        char *was = gr_class_setting_said(&bs->rec, (gr_setting)k);
        char *is = gr_class_setting_said(&bs->now, (gr_setting)k);
        char *what = gr_xasprintf("%s: %s -> %s", gr_class_setting_name((gr_setting)k), was, is);
        char *line = gr_regrades_class_line(when, bs->o.reason, what);
        gr_sb_append(&lines, line);
        free(line);
        free(what);
        free(was);
        free(is);
    }
    return lines.s;
}

int gr_batch_settings_keep(const gr_batch_settings *bs, char *err, size_t errlen)
{
    const gr_batch_opts *o = &bs->o;
    gr_run_files f = {o->root, o->roster, o->course ? o->course_file : NULL, o->times,
                      o->rubrics, {0}};
    memcpy(f.labs, o->labs, sizeof f.labs);
    if (gr_run_settings_keep(o->out, &f, err, errlen) != 0)
        return -1;
    char *lines = changes(bs);
    int rc = lines ? gr_regrades_log_append(o->out, lines, err, errlen) : 0;
    free(lines);
    return rc;
}

/* The option of o that gives setting k (roster or rubrics), or NULL. */
static const char **option_of(gr_batch_opts *o, gr_setting k)
{
    return k == GR_SET_ROSTER ? &o->roster : k == GR_SET_RUBRICS ? &o->rubrics : NULL;
}

int gr_batch_settings_use(const char *dir, const char *command, gr_batch_opts *o,
                          const int has[GR_SET_COUNT], char *kept[GR_SET_COUNT], char *err,
                          size_t errlen)
{
    gr_class_settings rec, now;
    memset(kept, 0, GR_SET_COUNT * sizeof *kept);
    int rc = gr_run_settings_load(dir, &rec, err, errlen);
    if (rc != 0)
        return rc;
    int given[GR_SET_COUNT] = {0}, change[GR_SET_COUNT] = {0};
    for (int k = 0; k < GR_SET_COUNT; k++) {
        const char **opt = option_of(o, (gr_setting)k);
        given[k] = has[k] && (!opt || *opt);
        if (has[k] && opt && !*opt && rec.value[k] && strcmp(rec.value[k], "course") != 0)
            *opt = kept[k] = gr_run_settings_kept(dir, (gr_setting)k, rec.given[k]);
    }
    gr_run_settings_of(o, &now);
    keep_recorded_names(&now, &rec, dir);
    gr_strbuf why = {0};
    if (gr_class_settings_differ(&rec, &now, given, change, command, &why) > 0) {
        gr_set_err(err, errlen, "%s", why.s);
        rc = -1;
    }
    free(why.s);
    gr_class_settings_free(&rec);
    gr_class_settings_free(&now);
    return rc;
}

void gr_batch_settings_free(gr_batch_settings *bs)
{
    gr_class_settings_free(&bs->rec);
    gr_class_settings_free(&bs->now);
    if (bs->has_course)
        gr_course_free(&bs->course);
    for (int k = 0; k < GR_SET_COUNT; k++)
        free(bs->kept[k]);
    memset(bs, 0, sizeof *bs);
}
