/* batch.c: grading a whole class (see batch.h). */
#include "class/batch.h"
#include "class/batch_handin.h"
#include "class/batch_settings.h"
#include "class/key.h"
#include "class/override.h"
#include "class/roster.h"
#include "class/classreport.h"
#include "class/regrade.h"
#include "class/run.h"
#include "class/shard.h"
#include "base/layout.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/cells.h"
#include "engine/grade.h"
#include "engine/intake.h"
#include "base/pool.h"
#include "report/report.h"
#include "base/stop.h"
#include "base/util.h"

/* ---- the students' folders ------------------------------------------------ */

static int by_id(const void *a, const void *b)
{
    return strcmp(((const gr_student *)a)->id, ((const gr_student *)b)->id);
}

/* An id is a folder name that is also safe in a CSV cell and a terminal line. */
static int id_ok(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

/* One student per folder of dir, sorted by id; other entries are noted on
   progress and skipped. 0, or -1 with err. */
static int list_students(const gr_batch_opts *o, gr_class *c, char *err, size_t errlen)
{
    DIR *d = opendir(o->submissions);
    if (!d) {
        gr_set_err(err, errlen, "cannot read the submissions folder %s: %s", o->submissions,
                   strerror(errno));
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "submission_metadata.yml") == 0)
            continue;                   /* the export's own file (handin.h) */
        char *path = gr_xasprintf("%s/%s", o->submissions, e->d_name);
        struct stat st;
        int dir = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
        free(path);
        if (!dir || !id_ok(e->d_name)) {
            if (o->progress)
                fprintf(o->progress, "attnlab batch: skipped %s%s: each student is a folder "
                        "named by their id\n", id_ok(e->d_name) ? e->d_name : "an entry",
                        dir ? " (control characters in its name)" : " (not a folder)");
            continue;
        }
        c->students = gr_xrealloc(c->students, (size_t)(c->n + 1) * sizeof *c->students);
        gr_student *s = &c->students[c->n++];
        memset(s, 0, sizeof *s);
        s->id = gr_xstrdup(e->d_name);
        s->folder = gr_xstrdup(e->d_name);
        s->submitted = 1;
    }
    closedir(d);
    qsort(c->students, (size_t)c->n, sizeof *c->students, by_id);
    return 0;
}

/* ---- where each lab is, and when it was handed in -------------------------------- */

/* Where each lab's file is in every student's folder (intake.h), before
   anything reads one. */
static void find_labs(const gr_batch_opts *o, gr_class *c)
{
    for (int i = 0; i < c->n; i++) {
        char *dir = gr_xasprintf("%s/%s", o->submissions, c->students[i].folder);
        char why[1024];
        if (gr_intake_scan(dir, &c->students[i].intake, why, sizeof why) != 0 && o->progress)
            fprintf(o->progress, "attnlab batch: %s\n", why);
        free(dir);
    }
}

/* The submission folder of s (malloc'd); a group's other submitters have none. */
static char *student_dir(const gr_batch_opts *o, const gr_student *s)
{
    return gr_xasprintf("%s/%s", o->submissions, s->folder ? s->folder : "");
}

/* Each lab file's modification time as its hand-in time: only with
   --file-times, for folders whose file times the instructor trusts. */
static void file_times(const gr_batch_opts *o, gr_class *c)
{
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        if (!s->folder)
            continue;
        char *dir = student_dir(o, s);
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            const gr_intake_lab *il = &s->intake.labs[lab - 1];
            if (il->status != GR_INTAKE_FOUND)
                continue;
            char *src = gr_xasprintf("%s/%s", dir, il->rel);   /* through real folders */
            struct stat st;
            if (lstat(src, &st) == 0) {
                s->when[lab - 1] = st.st_mtime;
                s->have_when[lab - 1] = 1;
            }
            free(src);
        }
        free(dir);
    }
    c->times_from = gr_xstrdup("the lab files' modification times (--file-times)");
}

/* Ids and hand-in times from the instructor's side (batch_handin.h), the
   roster, and the late policy's guard rails, before anything is written.
   0, or -1 with err. */
static int who_and_when(const gr_batch_opts *o, gr_class *c, time_t start, char *err,
                        size_t errlen)
{
    gr_handin x;
    gr_times t;
    memset(&t, 0, sizeof t);
    int is_export = gr_handin_load(o->submissions, &x, err, errlen);
    int rc = is_export < 0 ? -1 : 0;
    if (rc == 0 && is_export)
        rc = gr_batch_handin_ids(o, c, &x, err, errlen);
    if (rc == 0 && o->roster)
        rc = gr_roster_load(o->roster, c, err, errlen);
    if (rc == 0 && is_export)
        gr_batch_handin_export_names(c, &x);
    if (rc == 0 && o->times)
        rc = gr_times_load(o->times, &t, err, errlen);
    if (rc == 0 && o->file_times)
        file_times(o, c);
    else if (rc == 0)
        rc = gr_batch_handin_times(c, is_export ? &x : NULL, o->times ? &t : NULL, err, errlen);
    if (rc == 0 && o->times && o->times_name) {     /* the file as given, not its copy */
        free(c->times_from);
        c->times_from = gr_xstrdup(o->times_name);
    }
    if (rc == 0)
        rc = gr_batch_handin_late(o, c, start, err, errlen);
    if (rc == 0 && o->progress)
        fprintf(o->progress, "attnlab batch: hand-in times from %s\n", c->times_from);
    if (is_export > 0)
        gr_handin_free(&x);
    gr_times_free(&t);
    return rc;
}

/* ---- grading one student, in a worker ----------------------------------------------- */

/* What the workers and the parent share. */
typedef struct batch_ctx {
    const gr_batch_opts *o;
    gr_class *c;
    int *todo;          /* indexes into c->students of those to grade */
    char **keys;        /* keys[k]: the key of todo[k] (key.h), made before it is graded */
    char **sides;       /* sides[k]: the same without the rubrics (regrade.h) */
    int *partial;       /* partial[k]: regrade only the labs whose rubric changed */
    const gr_regrade_plan *plan;
    int n_todo;
    int done;           /* finished in this run */
    double t0;
} batch_ctx;

static char *student_file(const gr_batch_opts *o, const char *id, const char *name)
{
    return gr_xasprintf("%s/students/%s/%s", o->out, id, name);
}

/* Grade student todo[i] and write their feedback.txt, then results.json
   (pool.h's work; nothing is sent back: the parent reads results.json). */
static int grade_student(void *ctx, int i, gr_strbuf *out, char *err, size_t errlen)
{
    (void)out;
    const batch_ctx *b = ctx;
    const gr_batch_opts *o = b->o;
    const gr_student *s = &b->c->students[b->todo[i]];
    const char *key = b->keys[i];
    gr_grade_opts g;
    memset(&g, 0, sizeof g);
    g.root = o->root;
    g.child_dir = o->child_dir;
    g.rubrics = o->rubrics;
    g.secret = o->secret;
    g.student = s->id;
    char *dir = student_dir(o, s);
    g.submission = dir;
    memcpy(g.labs, o->labs, sizeof g.labs);
    for (int l = 0; l < GR_N_LABS && b->partial[i]; l++)
        g.labs[l] = o->labs[l] && b->plan->changed[l];   /* only what the rubrics changed */
    g.jobs = 1;
    gr_report r;
    int rc = gr_grade(&g, &r, err, errlen);     /* finds each lab's file as intake.h says */
    free(dir);
    if (rc != 0)
        return rc;
    char *js = student_file(o, s->id, "results.json"), *log = NULL;
    if (!b->partial[i])
        gr_regrades_carry(js, &r);               /* the regrades so far stay on record */
    else if (gr_regrade_merge(b->plan, o->out, s->id, &r, &log, err, errlen) != 0) {
        free(js);
        gr_result_free(&r);
        return GR_STATUS_FAILED;
    }
    /* feedback first: a results.json that exists always has its feedback beside it */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        /* what the student may be handed: the tests they may see at submission */
        gr_report shown;
        gr_result_copy_shown(&r, GR_SHOWN_AT_SUBMISSION, &shown);
        gr_report_term(f, &shown, 0);
        gr_result_free(&shown);
        fclose(f);
    }
    char *fb = student_file(o, s->id, "feedback.txt");
    char *kf = student_file(o, s->id, "key");
    char *line = gr_key_file_text(key, b->sides[i]);
    /* the key last: a results.json without its key is graded again */
    if (!f || gr_write_file_atomic(fb, text, len) != 0 || gr_report_json(js, &r, o->secret) != 0 ||
        gr_write_file_atomic(kf, line, strlen(line)) != 0) {
        gr_set_err(err, errlen, "cannot write the results of student %s in %s/students/%s: %s",
                   s->id, o->out, s->id, strerror(errno));
        rc = GR_STATUS_FAILED;
    }
    if (rc == 0 && log && gr_regrades_log_append(o->out, log, err, errlen) != 0)
        rc = GR_STATUS_FAILED;
    free(log);
    free(text);
    free(fb);
    free(js);
    free(kf);
    free(line);
    gr_result_free(&r);
    return rc;
}

/* Whether the key file of s holds key (side 0) or side key (side 1), with why. */
static int same_key(const gr_batch_opts *o, const gr_student *s, const char *key, int side,
                    char *why, size_t whylen)
{
    char *kf = student_file(o, s->id, "key");
    int same = gr_key_holds(kf, side, key, why, whylen);
    free(kf);
    return same;
}

/* Whether each lab of s's report is out of max[lab - 1], the points possible
   under the rubrics in force: a gradebook never mixes maxima. 1, or 0 with why. */
static int same_maxima(const gr_student *s, const double *max, char *why, size_t whylen)
{
    for (int i = 0; i < s->report.n_labs; i++) {
        const gr_lab_result *l = &s->report.labs[i];
        if (fabs(l->max_score - max[l->lab - 1]) > 1e-9) {
            char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
            gr_set_err(why, whylen, "its %s was graded out of %s points, and the rubrics in "
                       "force give %s", gr_layout_dir(l->lab), gr_points(p1, l->max_score),
                       gr_points(p2, max[l->lab - 1]));
            return 0;
        }
    }
    return 1;
}

/* results.json of s read back into s->report when it holds exactly the labs
   asked for and, key not NULL, was graded from what is there now (its key):
   0; -1 (no file, another run's labs, damaged, something changed) otherwise,
   err saying why when it exists. */
static int read_back(const gr_batch_opts *o, const char *key, const double *max,
                     gr_student *s, char *err, size_t errlen)
{
    char *js = student_file(o, s->id, "results.json");
    int rc = -1;
    if (access(js, F_OK) == 0 && (!key || same_key(o, s, key, 0, err, errlen)) &&
        gr_report_read_json(js, &s->report, err, errlen) == 0) {
        int labs[GR_N_LABS] = {0}, same = gr_report_is_of(&s->report, s->id);
        for (int i = 0; i < s->report.n_labs; i++)
            labs[s->report.labs[i].lab - 1] = 1;
        for (int i = 0; i < GR_N_LABS; i++)
            same &= !labs[i] == !o->labs[i];
        if (same && max)
            same = same_maxima(s, max, err, errlen);
        if (same)
            rc = 0;
        else
            gr_result_free(&s->report);
    }
    free(js);
    return rc;
}

/* Progress after each student: a bar redrawn in place, or one line. */
static void progress(batch_ctx *b, const gr_student *s)
{
    const gr_batch_opts *o = b->o;
    if (!o->progress)
        return;
    double el = gr_now_seconds() - b->t0;
    double rate = el > 0 ? b->done / el : 0;
    int left = b->n_todo - b->done;
    long eta = rate > 0 ? (long)(left / rate + 0.5) : 0;
    if (o->progress_bar) {
        int width = 30, filled = b->n_todo ? width * b->done / b->n_todo : width;
        fprintf(o->progress, "\r\033[K[%.*s%*s] %d/%d  %.2f students/s  %ld:%02ld left",
                filled, "##############################", width - filled, "", b->done,
                b->n_todo, rate, eta / 60, eta % 60);
        if (left == 0)
            fputc('\n', o->progress);
    } else {
        char p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
        fprintf(o->progress, "attnlab batch: %d/%d %s: %s/%s points (%.1f s; %.2f students/s, "
                "about %ld:%02ld left)\n", b->done, b->n_todo, s->id,
                gr_points(p1, s->report.score), gr_points(p2, s->report.max_score),
                s->report.seconds, rate, eta / 60, eta % 60);
    }
    fflush(o->progress);
}

/* A worker finished student todo[i]: read their results.json back. */
static int student_done(void *ctx, int i, const char *bytes, size_t len, char *err, size_t errlen)
{
    (void)bytes;
    (void)len;
    batch_ctx *b = ctx;
    gr_student *s = &b->c->students[b->todo[i]];
    (void)err;
    (void)errlen;
    char why[1024] = "";
    if (read_back(b->o, NULL, NULL, s, why, sizeof why) != 0) {   /* just graded: no key check */
        /* one student's results never stop the class: not graded, and said */
        s->not_graded = gr_xstrdup(*why ? why : "no results.json");
        if (b->o->progress)
            fprintf(b->o->progress, "attnlab batch: student %s not graded: %s\n", s->id,
                    s->not_graded);
    }
    b->done++;
    progress(b, s);
    return 0;
}

static void student_name(void *ctx, int i, char *buf, size_t len)
{
    const batch_ctx *b = ctx;
    snprintf(buf, len, "student %s", b->c->students[b->todo[i]].id);
}

/* ---- the class ------------------------------------------------------------------------ */

/* Whether s is graded by this run: the whole class, or its shard's slice. */
static int in_slice(const gr_batch_opts *o, const gr_student *s)
{
    return gr_shard_has(o->shard_k, o->shard_n, s->id);
}

/* A group submission's other submitters get the grade of its first
   (batch_handin.h): their report is the one graded, read back. */
static void group_grades(const gr_batch_opts *o, gr_class *c)
{
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        if (!s->same_as || !in_slice(o, s) || !gr_shard_has(o->shard_k, o->shard_n, s->same_as))
            continue;               /* another shard's: attnlab merge joins them (merge.h) */
        char *js = student_file(o, s->same_as, "results.json"), err[512];
        if (gr_report_read_json(js, &s->report, err, sizeof err) != 0 && o->progress)
            fprintf(o->progress, "attnlab batch: %s shares the grade of %s, which does not "
                    "read back: %s\n", s->id, s->same_as, err);
        free(js);
    }
}

/* mkdir that is fine when the folder exists. 0, or -1 with err. */
static int make_dir(const char *path, char *err, size_t errlen)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return 0;
    gr_set_err(err, errlen, "cannot make the folder %s: %s", path, strerror(errno));
    return -1;
}

/* The output folders, each student's included. 0, or -1 with err. */
static int make_dirs(const gr_batch_opts *o, const gr_class *c, char *err, size_t errlen)
{
    char *st = gr_xasprintf("%s/students", o->out);
    int rc = make_dir(o->out, err, errlen);
    if (rc == 0)
        rc = make_dir(st, err, errlen);
    for (int i = 0; i < c->n && rc == 0; i++) {
        if (!c->students[i].submitted || c->students[i].same_as || !in_slice(o, &c->students[i]))
            continue;
        char *p = gr_xasprintf("%s/%s", st, c->students[i].id);
        rc = make_dir(p, err, errlen);
        free(p);
    }
    free(st);
    return rc;
}

/* Each student's feedback.txt opens with what the gradebook has (final score,
   late penalties, hidden tests; gr_classreport_feedback_header), written once every
   lateness is known, over the header an earlier run wrote. 0, or -1 with err. */
static int feedback_headers(const gr_batch_opts *o, const gr_class *c, char *err, size_t errlen)
{
    static const char mark[] = "Final score: ";
    int rc = 0;
    for (int i = 0; i < c->n && rc == 0; i++) {
        const gr_student *s = &c->students[i];
        if (!s->submitted || s->same_as || !in_slice(o, s))   /* a group's others: no folder */
            continue;
        char *fb = student_file(o, s->id, "feedback.txt");
        size_t len = 0;
        char *text = gr_read_file(fb, &len);
        int ok = text != NULL;
        if (ok) {
            const char *body = text, *end = strstr(text, "\n\n");
            if (strncmp(text, mark, sizeof mark - 1) == 0)
                body = end ? end + 2 : text + len;
            char *head = gr_classreport_feedback_header(c, s);
            char *all = gr_xasprintf("%s%s", head, body);
            if (strcmp(all, text) != 0 && gr_write_file_atomic(fb, all, strlen(all)) != 0)
                ok = 0;
            free(head);
            free(all);
        }
        if (!ok) {
            gr_set_err(err, errlen, "cannot write the feedback of student %s (%s): %s", s->id,
                       fb, strerror(errno));
            rc = -1;
        }
        free(text);
        free(fb);
    }
    return rc;
}

/* The record of this run (run.h), its settings as bs settled them. */
static void identify(const gr_batch_settings *bs, const gr_class *c, gr_run *r)
{
    gr_run_identify(&bs->o, c, r);
    for (int k = 0; k < GR_SET_COUNT; k++)
        gr_class_setting_copy(&r->set, &bs->now, (gr_setting)k);
}

/* As the class is about to be written: the settings' files kept, the changes
   logged, run.txt replaced by run.started until the end (run.h). */
static int run_start(const gr_batch_settings *bs, const gr_class *c, char *err, size_t errlen)
{
    gr_run r;
    identify(bs, c, &r);
    int rc = gr_run_clear(bs->o.out, err, errlen);
    if (rc == 0)
        rc = gr_batch_settings_keep(bs, err, errlen);
    if (rc == 0)
        rc = gr_run_start(bs->o.out, &r, err, errlen);
    gr_run_free(&r);
    return rc;
}

/* run.txt last: what this output holds and what it was graded from. */
static int run_record(const gr_batch_settings *bs, const gr_class *c, char *err, size_t errlen)
{
    gr_run r;
    identify(bs, c, &r);
    int rc = gr_run_write(bs->o.out, &r, c, err, errlen);
    gr_run_free(&r);
    return rc;
}

/* Each graded lab's points possible: its rubric's points added up (snap, the
   rubrics in force), never one student's results. */
static void points_possible(gr_class *c, const gr_rubric_snap *snap)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        for (int t = 0; c->labs[lab - 1] && t < snap->n_tests[lab - 1]; t++)
            c->lab_max[lab - 1] += snap->tests[lab - 1][t].points;
}

/* Whether only s's labs whose rubric changed need grading: their results
   read back, and the key without rubrics (side) still holds. */
static int only_rubrics_changed(const batch_ctx *b, gr_student *s, const char *side)
{
    char why[256];
    if (!b->plan->any || b->o->restart || !same_key(b->o, s, side, 1, why, sizeof why) ||
        read_back(b->o, NULL, NULL, s, why, sizeof why) != 0)
        return 0;
    gr_result_free(&s->report);     /* the worker reads it again, and the parent after */
    return 1;
}

/* Who is graded, and how: each student of this slice whose results no
   longer hold (their key), in full, or only in the labs whose rubric
   changed (regrade.h). */
static void what_to_grade(batch_ctx *b)
{
    const gr_batch_opts *o = b->o;
    gr_class *c = b->c;
    char *program = gr_key_program();      /* once for the run */
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        if (!s->submitted || s->same_as || !in_slice(o, s))
            continue;
        char why[1024] = "";
        /* the key before any grading reads the files it covers: a file that
           changes meanwhile leaves a key that no longer holds next run */
        char *dir = student_dir(o, s);
        char *key = gr_key_make(o, program, s->id, dir, &s->intake, 0);
        char *side = gr_key_make(o, program, s->id, dir, &s->intake, 1);
        free(dir);
        if (!o->restart && read_back(o, key, c->lab_max, s, why, sizeof why) == 0) {
            s->resumed = 1;
            c->resumed++;
            free(key);
            free(side);
            continue;
        }
        b->partial[b->n_todo] = only_rubrics_changed(b, s, side);
        if (*why && o->progress && !b->partial[b->n_todo])
            fprintf(o->progress, "attnlab batch: regrading %s: %s\n", s->id, why);
        b->keys[b->n_todo] = key;
        b->sides[b->n_todo] = side;
        b->todo[b->n_todo++] = i;
    }
    free(program);
}

/* gr_batch_run under the options in force (batch_settings.h). */
static int run(const gr_batch_settings *bs, gr_class *c, char *err, size_t errlen)
{
    const gr_batch_opts *o = &bs->o;
    double t0 = gr_now_seconds();
    memcpy(c->labs, o->labs, sizeof c->labs);
    c->course = o->course;
    time_t start = time(NULL);
    if (list_students(o, c, err, errlen) != 0)
        return GR_STATUS_BAD_INPUT;
    find_labs(o, c);
    if (who_and_when(o, c, start, err, errlen) != 0)
        return GR_STATUS_BAD_INPUT;
    c->roster = o->roster != NULL;
    c->submissions = o->submissions;
    if (make_dirs(o, c, err, errlen) != 0 || run_start(bs, c, err, errlen) != 0)
        return GR_STATUS_FAILED;

    gr_regrade_plan plan;
    if (gr_regrade_plan_make(&plan, o, o->progress, err, errlen) != 0) {
        gr_regrade_plan_free(&plan);
        return GR_STATUS_BAD_INPUT;
    }
    points_possible(c, &plan.now);
    size_t n = (size_t)c->n + 1;
    batch_ctx b = {o, c, gr_xcalloc(n, sizeof(int)), gr_xcalloc(n, sizeof(char *)),
                   gr_xcalloc(n, sizeof(char *)), gr_xcalloc(n, sizeof(int)), &plan, 0, 0, 0};
    what_to_grade(&b);
    if (o->progress)
        fprintf(o->progress, "attnlab batch: %d students; %d graded before, %d to grade in %d "
                "worker%s\n", c->n, c->resumed, b.n_todo, o->jobs, o->jobs == 1 ? "" : "s");
    b.t0 = gr_now_seconds();
    gr_pool_task t = {grade_student, student_done, student_name, &b};
    int rc = gr_pool_map(&t, b.n_todo, o->jobs, err, errlen);
    if (rc != 0 && o->progress && o->progress_bar)
        fputc('\n', o->progress);
    c->graded_now = b.done;
    for (int k = 0; k < b.n_todo; k++) {
        free(b.keys[k]);
        free(b.sides[k]);
    }
    free(b.keys);
    free(b.sides);
    free(b.partial);
    free(b.todo);
    /* what the results now follow from, for the next run to compare */
    if (rc == 0 && gr_regrade_snap_write(o->out, &plan.now) != 0) {
        gr_set_err(err, errlen, "cannot write %s/rubrics.state: %s", o->out, strerror(errno));
        rc = GR_STATUS_FAILED;
    }
    gr_regrade_plan_free(&plan);
    if (rc == GR_STATUS_STOPPED)
        gr_set_err(err, errlen, "stopped by signal %d after grading %d students; the %d graded "
                   "keep their results, and running the same command again grades the rest",
                   gr_stop_requested(), c->resumed + c->graded_now, c->resumed + c->graded_now);
    if (rc == 0)
        group_grades(o, c);
    if (rc == 0 && gr_override_load(o->out, c, err, errlen) != 0)   /* grades set by hand */
        rc = GR_STATUS_BAD_INPUT;
    if (rc == 0 && feedback_headers(o, c, err, errlen) != 0)
        rc = GR_STATUS_FAILED;
    if (rc == 0 && run_record(bs, c, err, errlen) != 0)
        rc = GR_STATUS_FAILED;
    c->seconds = gr_now_seconds() - t0;
    return rc;
}

int gr_batch_run(const gr_batch_opts *o, gr_class *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    gr_batch_settings bs;
    if (gr_batch_settings_apply(&bs, o, err, errlen) != 0) {
        gr_batch_settings_free(&bs);
        return GR_STATUS_BAD_INPUT;
    }
    if (o->before_grading && o->before_grading(&bs.o) != 0) {
        gr_set_err(err, errlen, "nothing was graded or written (the reason is above)");
        gr_batch_settings_free(&bs);
        return GR_STATUS_BAD_INPUT;
    }
    int rc = run(&bs, c, err, errlen);
    if (bs.has_course) {            /* the class's own policy: the class keeps it */
        c->own_course = gr_xmalloc(sizeof *c->own_course);
        *c->own_course = bs.course;
        c->course = c->own_course;
        bs.has_course = 0;
    }
    gr_batch_settings_free(&bs);
    return rc;
}
