/* batch_handin.c: who each student is and when they handed in, for a batch,
 * and the late policy's guard rails (see batch_handin.h). */
#include "class/batch_handin.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* The student of c with this id, or NULL. */
static gr_student *find(gr_class *c, const char *id)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->students[i].id, id) == 0)
            return &c->students[i];
    return NULL;
}

static int by_id(const void *a, const void *b)
{
    return strcmp(((const gr_student *)a)->id, ((const gr_student *)b)->id);
}

/* A second submission of one student: an error naming both folders. */
static int twice(const gr_handin *x, const char *id, const char *a, const char *b, char *err,
                 size_t errlen)
{
    gr_set_err(err, errlen, "%s: %s is a submitter of two submissions, %s and %s; Gradescope "
               "keeps one per student, so this export was edited or merged: keep one of them",
               x->path, id, a, b);
    return -1;
}

/* The folders of submissions with no submitter (handin.h) leave the class,
   each said on progress: no student can be named for one, so its grade
   would land on no one's row. */
static void drop_unclaimed(const gr_batch_opts *o, gr_class *c, const gr_handin *x)
{
    int k = 0;
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        const gr_handin_sub *e = gr_handin_find(x, s->folder);
        if (!e || e->n_who > 0) {
            c->students[k++] = *s;
            continue;
        }
        if (o->progress)
            fprintf(o->progress, "attnlab batch: warning: %s:%d:%d: %s has no submitters (as "
                    "Gradescope writes a submission whose student left the course): not graded, "
                    "as no student can be named for it\n", x->path, e->line, e->column, e->folder);
        free(s->id);
        free(s->folder);
        gr_intake_free(&s->intake);
    }
    c->n = k;
}

int gr_batch_handin_ids(const gr_batch_opts *o, gr_class *c, const gr_handin *x, char *err, size_t errlen)
{
    drop_unclaimed(o, c, x);
    int n = c->n;
    for (int i = 0; i < n; i++) {
        gr_student *s = &c->students[i];
        const gr_handin_sub *e = gr_handin_find(x, s->folder);
        if (!e) {
            if (o->progress)
                fprintf(o->progress, "attnlab batch: %s is not in %s: named by its folder, with "
                        "no hand-in time\n", s->folder, x->path);
            continue;
        }
        free(s->id);
        s->id = gr_xstrdup(e->who[0].id);
    }
    for (int i = 0; i < n; i++)          /* two folders of one student */
        for (int j = i + 1; j < n; j++)
            if (strcmp(c->students[i].id, c->students[j].id) == 0)
                return twice(x, c->students[i].id, c->students[i].folder, c->students[j].folder,
                             err, errlen);
    for (int i = 0; i < n; i++) {        /* the other submitters of a group */
        const gr_handin_sub *e = gr_handin_find(x, c->students[i].folder);
        for (int k = 1; e && k < e->n_who; k++) {
            gr_student *old = find(c, e->who[k].id);
            if (old)
                return twice(x, e->who[k].id, e->folder, old->folder ? old->folder : old->same_as,
                             err, errlen);
            c->students = gr_xrealloc(c->students, (size_t)(c->n + 1) * sizeof *c->students);
            gr_student *s = &c->students[c->n++];
            memset(s, 0, sizeof *s);
            s->id = gr_xstrdup(e->who[k].id);
            s->same_as = gr_xstrdup(e->who[0].id);
            s->submitted = 1;
        }
    }
    qsort(c->students, (size_t)c->n, sizeof *c->students, by_id);
    return 0;
}

void gr_batch_handin_export_names(gr_class *c, const gr_handin *x)
{
    for (int i = 0; i < x->n; i++)
        for (int k = 0; k < x->subs[i].n_who; k++) {
            const gr_submitter *w = &x->subs[i].who[k];
            gr_student *s = find(c, w->id);
            if (s && !s->on_roster) {
                free(s->name);
                free(s->email);
                s->name = gr_xstrdup(w->name);
                s->email = gr_xstrdup(w->email);
            }
        }
}

/* The export's time of student s (their own folder's, or their group's). */
static const gr_handin_sub *export_of(const gr_class *c, const gr_handin *x, const gr_student *s)
{
    if (s->folder)
        return gr_handin_find(x, s->folder);
    for (int i = 0; s->same_as && i < c->n; i++)
        if (strcmp(c->students[i].id, s->same_as) == 0 && c->students[i].folder)
            return gr_handin_find(x, c->students[i].folder);
    return NULL;
}

int gr_batch_handin_times(gr_class *c, const gr_handin *x, const gr_times *t, char *err, size_t errlen)
{
    for (int i = 0; t && i < t->n; i++)
        if (!find(c, t->e[i].id)) {
            gr_set_err(err, errlen, "%s:%d:%d: %s is not in this class (no submission, not on "
                       "the roster); check the id against the gradebook's", t->path,
                       t->e[i].line, t->e[i].column, t->e[i].id);
            return -1;
        }
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        if (!s->submitted)
            continue;
        /* a group's other submitters take the group's time unless given their own */
        const gr_time_entry *te = t ? gr_times_find(t, s->id) : NULL;
        if (t && !te && s->same_as)
            te = gr_times_find(t, s->same_as);
        const gr_handin_sub *e = !t && x ? export_of(c, x, s) : NULL;
        if (!te && !(e && e->have_created))
            continue;
        for (int lab = 0; lab < GR_N_LABS; lab++) {
            s->when[lab] = te ? te->when : e->created;
            s->have_when[lab] = 1;
        }
    }
    const char *from = t ? t->path : x ? x->path : NULL;
    free(c->times_from);
    if (from)
        c->times_from = gr_xstrdup(from);
    else
        c->times_from = gr_xstrdup("nowhere, so no one is late (give --times FILE, a "
                                   "Gradescope export's submission_metadata.yml, or --file-times)");
    return 0;
}

/* Every extension of the course names a student of the class: 0, or -1 with
   err at the extension. */
static int check_extensions(const gr_course *k, gr_class *c, char *err, size_t errlen)
{
    for (int i = 0; i < k->n_ext; i++)
        if (!find(c, k->ext[i].id)) {
            gr_set_err(err, errlen, "%s:%d:%d: extensions: %s is not in this class (no "
                       "submission, not on the roster); check the id against the gradebook's",
                       k->path, k->ext[i].line, k->ext[i].column, k->ext[i].id);
            return -1;
        }
    return 0;
}

/* The student whose folder holds s's files: s, or a group's first submitter. */
static const gr_student *holder_of(const gr_class *c, const gr_student *s)
{
    for (int i = 0; s->same_as && i < c->n; i++)
        if (strcmp(c->students[i].id, s->same_as) == 0)
            return &c->students[i];
    return s;
}

/* Whether s would lose points on lab for lateness: late under a policy that
   takes points, for a lab they handed in (intake.h found a file; a lab not
   handed in scores 0 late or not). */
static int penalised(const gr_batch_opts *o, const gr_class *c, const gr_student *s, int lab)
{
    return s->days_late[lab - 1] > 0 &&
           gr_course_adjust(o->course, 1.0, s->days_late[lab - 1]) < 1.0 &&
           holder_of(c, s)->intake.labs[lab - 1].status != GR_INTAKE_MISSING;
}

int gr_batch_handin_late(const gr_batch_opts *o, gr_class *c, time_t start, char *err, size_t errlen)
{
    if (!o->course)
        return 0;
    if (check_extensions(o->course, c, err, errlen) != 0)
        return -1;
    int late = 0, submitted = 0;
    const gr_student *future = NULL;
    int future_lab = 0;
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        int any = 0;
        submitted += s->submitted;
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            if (!s->have_when[lab - 1] || !o->labs[lab - 1])
                continue;
            s->days_late[lab - 1] = gr_course_days_late(o->course, s->id, lab, s->when[lab - 1]);
            any = any || penalised(o, c, s, lab);
            if (s->when[lab - 1] > start && !future)
                future = s, future_lab = lab;
        }
        late += any;
    }
    if (o->accept_late)
        return 0;
    if (future) {
        char stamp[32];
        struct tm tm;
        time_t when = future->when[future_lab - 1];
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&when, &tm));
        gr_set_err(err, errlen, "refusing to grade: %s handed lab %d in at %s, after this batch "
                   "started; the hand-in times from %s are wrong or the clock is. Fix the times, or "
                   "run again with --accept-late to grade with them as they are",
                   future->id, future_lab, stamp, c->times_from);
        return -1;
    }
    if (late * 2 > submitted) {
        gr_set_err(err, errlen, "refusing to grade: %d of %d students would lose points for "
                   "lateness; when most of a class is late the times are usually wrong (a copied "
                   "folder gives every file the time of the copy). The times came from %s: check them "
                   "and the due dates in %s, give the times with --times FILE, or run again with "
                   "--accept-late to apply the penalties", late, submitted, c->times_from,
                   o->course->path ? o->course->path : "the course policy");
        return -1;
    }
    return 0;
}
