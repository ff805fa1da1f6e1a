/* class.c: the model of a class (see class.h). */
#include "class/class.h"

#include <stdlib.h>
#include <string.h>

#include "base/cells.h"

static const struct {
    const char *name, *flag;
} settings[GR_SET_COUNT] = {
    {"roster", "--roster"}, {"course", "--course"}, {"times", "--times"},
    {"rubrics", "--rubrics"}, {"labs", "--lab"}, {"secret", "ATTNLAB_SECRET"},
    {"build", "attnlab build"},
};

const char *gr_class_setting_name(gr_setting k) { return settings[k].name; }
const char *gr_class_setting_flag(gr_setting k) { return settings[k].flag; }

int gr_class_setting_of(const char *name)
{
    for (int k = 0; k < GR_SET_COUNT; k++)
        if (strcmp(settings[k].name, name) == 0)
            return k;
    return -1;
}

char *gr_class_setting_said(const gr_class_settings *s, gr_setting k)
{
    const char *g = s->given[k], *v = s->value[k];
    if (!v)
        return gr_xasprintf("no %s", settings[k].flag);
    if (k == GR_SET_SECRET || k == GR_SET_BUILD)
        return gr_xasprintf("the %s of digest %.12s", k == GR_SET_SECRET ? "ATTNLAB_SECRET"
                            : "attnlab build", v);
    if (k == GR_SET_TIMES && strcmp(v, "file-times") == 0)
        return gr_xstrdup("--file-times");
    if (k == GR_SET_RUBRICS && strcmp(v, "course") == 0)
        return gr_xstrdup("the course's rubrics (no --rubrics)");
    if (k == GR_SET_RUBRICS || k == GR_SET_LABS)
        return gr_xasprintf("%s %s", settings[k].flag, g ? g : v);
    return gr_xasprintf("%s %s (digest %.12s)", settings[k].flag, g ? g : "?", v);
}

/* How to go on from a difference in setting k: with --change on batch, or
   through batch from another command. */
static void how_to_go_on(gr_strbuf *why, gr_setting k, const char *command)
{
    int batch = strcmp(command, "batch") == 0;
    if (k == GR_SET_SECRET || k == GR_SET_BUILD)
        gr_sb_printf(why, "grade with the class's %s", k == GR_SET_SECRET ? "secret"
                     : "build of attnlab");
    else
        gr_sb_printf(why, "leave %s out to use the class's", settings[k].flag);
    if (batch)
        gr_sb_printf(why, ", or pass --change %s --reason TEXT to grade with this one",
                     settings[k].name);
    else
        gr_sb_printf(why, ", or change the class's with attnlab batch ... --change %s "
                     "--reason TEXT", settings[k].name);
}

int gr_class_settings_differ(const gr_class_settings *rec, const gr_class_settings *now,
                             const int given[GR_SET_COUNT], const int change[GR_SET_COUNT],
                             const char *command, gr_strbuf *why)
{
    int n = 0;
    for (int k = 0; k < GR_SET_COUNT; k++) {
        const char *a = rec->value[k], *b = now->value[k];
        if (!given[k] || change[k] || (a && b ? strcmp(a, b) == 0 : a == b))
            continue;
        char *was = gr_class_setting_said(rec, (gr_setting)k);
        char *is = gr_class_setting_said(now, (gr_setting)k);
        gr_sb_printf(why, "%sthis class was graded with %s; this %s has %s: ", n ? "\n" : "",
                     was, command, is);
        how_to_go_on(why, (gr_setting)k, command);
        free(was);
        free(is);
        n++;
    }
    return n;
}

void gr_class_setting_copy(gr_class_settings *to, const gr_class_settings *from, gr_setting k)
{
    free(to->given[k]);
    free(to->value[k]);
    to->given[k] = from && from->given[k] ? gr_xstrdup(from->given[k]) : NULL;
    to->value[k] = from && from->value[k] ? gr_xstrdup(from->value[k]) : NULL;
}

void gr_class_settings_free(gr_class_settings *s)
{
    for (int k = 0; k < GR_SET_COUNT; k++) {
        free(s->given[k]);
        free(s->value[k]);
    }
    memset(s, 0, sizeof *s);
}

const gr_lab_result *gr_class_lab(const gr_student *s, int lab)
{
    for (int i = 0; i < s->report.n_labs; i++)
        if (s->report.labs[i].lab == lab)
            return &s->report.labs[i];
    return NULL;
}

/* Whether override o is of student s's lab (and of test, when test is not NULL). */
static int of(const gr_class_override *o, const gr_student *s, int lab)
{
    return o->lab == lab && strcmp(o->student, s->id) == 0;
}

double gr_class_raw(const gr_class *c, const gr_student *s, int lab)
{
    const gr_lab_result *l = gr_class_lab(s, lab);
    double raw = l ? l->score : 0;
    for (int t = 0; l && t < l->n_tests; t++) {
        const gr_class_override *last = NULL;
        for (int k = 0; k < c->n_overrides; k++)
            if (of(&c->overrides[k], s, lab) && !c->overrides[k].adjust &&
                c->overrides[k].test && strcmp(c->overrides[k].test, l->tests[t].name) == 0)
                last = &c->overrides[k];
        if (last)
            raw += last->value - l->tests[t].score;
    }
    int from = 0;
    for (int k = 0; k < c->n_overrides; k++)
        if (of(&c->overrides[k], s, lab) && !c->overrides[k].adjust && !c->overrides[k].test) {
            raw = c->overrides[k].value;
            from = k + 1;
        }
    for (int k = from; k < c->n_overrides; k++)
        if (of(&c->overrides[k], s, lab) && c->overrides[k].adjust)
            raw += c->overrides[k].value;
    return raw;
}

double gr_class_adjusted(const gr_class *c, const gr_student *s, int lab)
{
    double raw = gr_class_raw(c, s, lab);
    return c->course ? gr_course_adjust(c->course, raw, s->days_late[lab - 1]) : raw;
}

void gr_class_free(gr_class *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->students[i].id);
        free(c->students[i].folder);
        free(c->students[i].same_as);
        free(c->students[i].name);
        free(c->students[i].email);
        free(c->students[i].sis_user_id);
        free(c->students[i].sis_login_id);
        free(c->students[i].section);
        free(c->students[i].not_graded);
        gr_intake_free(&c->students[i].intake);
        gr_result_free(&c->students[i].report);
    }
    free(c->students);
    free(c->times_from);
    for (int k = 0; k < c->n_overrides; k++) {
        free(c->overrides[k].when);
        free(c->overrides[k].student);
        free(c->overrides[k].test);
        free(c->overrides[k].reason);
    }
    free(c->overrides);
    if (c->own_course) {
        gr_course_free(c->own_course);
        free(c->own_course);
    }
    memset(c, 0, sizeof *c);
}

void gr_class_csv_student(gr_strbuf *b, const gr_student *s)
{
    gr_csv_text(b, s->id);
    gr_sb_append(b, ",");
    gr_csv_text(b, s->name);
    gr_sb_append(b, ",");
    gr_csv_text(b, s->email);
}
