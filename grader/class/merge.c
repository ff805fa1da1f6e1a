/* merge.c: the shards of a class joined into one batch output (see merge.h). */
#define _XOPEN_SOURCE 700
#include "class/merge.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "class/classout.h"
#include "class/run.h"
#include "class/shard.h"
#include "class/shardproof.h"
#include "engine/grade.h"
#include "report/report.h"
#include "class/key.h"
#include "base/util.h"

#define STUDENT_FILE_MAX ((size_t)64 << 20)   /* results.json with every test's output */

/* The shards as read: each one's run and students, and the class joined. */
typedef struct shards {
    const gr_merge_opts *m;
    gr_run *runs;
    gr_class *parts;
    gr_class c;                   /* every student, sorted by id */
    const char **from;            /* from[i]: the folder of c.students[i] */
    gr_course course;
    int has_course;
    char *log, *state;            /* regrades.log joined, rubrics.state (read_audit), or NULL */
    gr_shard_proof proof;         /* the secret and rubrics every results.json is proved by */
} shards;

/* ---- the runs: one class, graded one way, every slice once ------------------------ */

/* Each folder's run.txt into sh. 0, or -1 with err. */
static int read_runs(shards *sh, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    for (int i = 0; i < m->n_dirs; i++)
        if (gr_run_read(m->dirs[i], &sh->runs[i], &sh->parts[i], err, errlen) != 0)
            return -1;
    const gr_run *a = &sh->runs[0];
    for (int i = 1; i < m->n_dirs; i++) {
        const gr_run *b = &sh->runs[i];
        const char *what = gr_run_differs(a, b);
        if (b->n != a->n)
            gr_set_err(err, errlen, "%s is shard %d/%d and %s shard %d/%d: every shard of one "
                       "class is cut into the same N", m->dirs[0], a->k, a->n, m->dirs[i], b->k, b->n);
        else if (what)
            gr_set_err(err, errlen, "%s and %s were graded with different %s: grade every "
                       "shard with the same command, secret and course files", m->dirs[0],
                       m->dirs[i], what);
        if (b->n != a->n || what)
            return -1;
        for (int j = 0; j < i; j++)
            if (sh->runs[j].k == b->k) {
                gr_set_err(err, errlen, "%s and %s are both shard %d/%d: give each shard's "
                           "folder once", m->dirs[j], m->dirs[i], b->k, b->n);
                return -1;
            }
    }
    if (m->n_dirs < a->n) {
        gr_strbuf miss = {0};
        int shown = 0;
        for (int k = 1; k <= a->n && shown < 10; k++) {
            int have = 0;
            for (int i = 0; i < m->n_dirs; i++)
                have |= sh->runs[i].k == k;
            if (!have)
                gr_sb_printf(&miss, "%s%d/%d", shown++ ? ", " : "", k, a->n);
        }
        gr_set_err(err, errlen, "shard%s %s%s missing: the class was cut into %d and %d "
                   "folder%s given (attnlab batch ... --shard K/%d for each)",
                   a->n - m->n_dirs > 1 ? "s" : "", miss.s, a->n - m->n_dirs > shown ? " ..." : "",
                   a->n, m->n_dirs, m->n_dirs == 1 ? " was" : "s were", a->n);
        free(miss.s);
        return -1;
    }
    return 0;
}

static int by_id(const void *x, const void *y)
{
    return strcmp(((const gr_student *)x)->id, ((const gr_student *)y)->id);
}

/* The students of every shard into sh->c, each where the slicing rule puts
   it, the whole class and nothing else. 0, or -1 with err. */
static int join_students(shards *sh, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    const gr_run *r = &sh->runs[0];
    gr_class *c = &sh->c;
    int total = 0;
    for (int i = 0; i < m->n_dirs; i++)
        total += sh->parts[i].n;
    c->students = gr_xcalloc((size_t)total + 1, sizeof *c->students);
    sh->from = gr_xcalloc((size_t)total + 1, sizeof *sh->from);
    gr_strbuf ids = {0};
    for (int i = 0; i < m->n_dirs; i++) {
        gr_class *p = &sh->parts[i];
        for (int j = 0; j < p->n; j++) {
            if (gr_shard_of(p->students[j].id, r->n) != sh->runs[i].k) {
                gr_set_err(err, errlen, "%s/run.txt: student %s belongs to shard %d/%d, not "
                           "%d/%d (a damaged or forged batch output)", m->dirs[i],
                           p->students[j].id, gr_shard_of(p->students[j].id, r->n), r->n,
                           sh->runs[i].k, r->n);
                free(ids.s);
                return -1;
            }
            c->students[c->n++] = p->students[j];    /* moved: the part keeps none */
        }
        p->n = 0;
    }
    qsort(c->students, (size_t)c->n, sizeof *c->students, by_id);
    for (int i = 0; i < c->n; i++) {
        for (int d = 0; d < m->n_dirs && !sh->from[i]; d++)
            if (sh->runs[d].k == gr_shard_of(c->students[i].id, r->n))
                sh->from[i] = m->dirs[d];
        gr_sb_printf(&ids, "%s\n", c->students[i].id);
    }
    char *digest = gr_key_digest(ids.s ? ids.s : "", ids.len);
    int same = c->n == r->class_n && strcmp(digest, r->class_ids) == 0;
    free(digest);
    free(ids.s);
    for (int i = 1; i < c->n && same; i++)
        same = strcmp(c->students[i - 1].id, c->students[i].id) != 0;
    if (!same) {
        gr_set_err(err, errlen, "the shards hold %d students, not the class of %d their run.txt "
                   "names (a damaged or forged batch output)", c->n, r->class_n);
        return -1;
    }
    return 0;
}

/* Where report.html's similar pairs read the students' files: --submissions,
   else the folder the shards graded when this machine has it, else nowhere. */
static void similar_from(shards *sh)
{
    const char *dir = sh->m->submissions ? sh->m->submissions : sh->runs[0].submissions;
    struct stat st;
    if (dir && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
        sh->c.submissions = dir;
    else if (sh->m->notes)
        fprintf(sh->m->notes, "attnlab merge: report.html has no similar pairs: the students' "
                "folder %s is not here (give it with --submissions DIR)\n", dir ? dir : "");
}

/* The class's own facts: the same in every shard; counts summed. 0 or -1. */
static int class_facts(shards *sh, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    gr_class *c = &sh->c, *p0 = &sh->parts[0];
    memcpy(c->labs, sh->runs[0].labs, sizeof c->labs);
    c->roster = p0->roster;
    c->times_from = p0->times_from ? gr_xstrdup(p0->times_from) : NULL;
    for (int i = 0; i < m->n_dirs; i++) {
        const gr_class *p = &sh->parts[i];
        int same_times = !p->times_from == !p0->times_from &&
                         (!p->times_from || strcmp(p->times_from, p0->times_from) == 0);
        if (p->roster != p0->roster || !same_times) {
            gr_set_err(err, errlen, "%s and %s disagree on the roster or where the hand-in "
                       "times came from", m->dirs[0], m->dirs[i]);
            return -1;
        }
        c->graded_now += p->graded_now;
        c->resumed += p->resumed;
    }
    similar_from(sh);
    if (strcmp(sh->runs[0].course, "none") == 0)
        return 0;
    /* the policy the shards were graded under: their copy, as run.txt digested it */
    char *path = gr_xasprintf("%s/course.yaml", m->dirs[0]), *text = NULL, why[256] = "";
    size_t len = 0;
    int rc = gr_read_regular(path, STUDENT_FILE_MAX, &text, &len, why, sizeof why);
    char *digest = rc == 0 ? gr_key_digest(text, len) : NULL;
    if (rc != 0 || strcmp(digest, sh->runs[0].course) != 0)
        gr_set_err(err, errlen, "%s: %s", path, rc > 0 ? why : rc < 0 ? strerror(errno)
                   : "not the course policy the shard was graded under");
    else if (gr_course_load(path, &sh->course, err, errlen) == 0)
        sh->has_course = 1;
    free(digest);
    free(text);
    free(path);
    c->course = sh->has_course ? &sh->course : NULL;
    return sh->has_course ? 0 : -1;
}

/* ---- the students' results ------------------------------------------------------- */

/* dir/students/id/name when each part of it under dir is what it should be
   (folders that are folders, a regular file of at most STUDENT_FILE_MAX, no
   link): its path (malloc'd), or NULL with why. */
static char *student_path(const char *dir, const char *id, const char *name, char *why,
                          size_t whylen)
{
    char *parts[3] = {gr_xasprintf("%s/students", dir), gr_xasprintf("%s/students/%s", dir, id),
                      gr_xasprintf("%s/students/%s/%s", dir, id, name)};
    char *ok = NULL;
    struct stat st;
    int k = 0;
    for (; k < 3; k++) {
        if (lstat(parts[k], &st) != 0) {
            gr_set_err(why, whylen, "%s: %s", parts[k], strerror(errno));
            break;
        }
        if (k < 2 ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)) {
            gr_set_err(why, whylen, "%s is %s, not %s", parts[k], gr_file_kind(st.st_mode),
                       k < 2 ? "a folder" : "a regular file");
            break;
        }
        if (k == 2 && (size_t)st.st_size > STUDENT_FILE_MAX) {
            gr_set_err(why, whylen, "%s is %lld bytes, more than the %zu MB a results file "
                       "may be", parts[k], (long long)st.st_size, STUDENT_FILE_MAX >> 20);
            break;
        }
    }
    if (k == 3) {
        ok = parts[2];
        parts[2] = NULL;
    }
    for (int i = 0; i < 3; i++)
        free(parts[i]);
    return ok;
}

/* r names id, holds the run's labs, and every score is a number from 0 to its maximum. */
static int report_fits(const gr_report *r, const char *id, const int labs[GR_N_LABS],
                       char *why, size_t whylen)
{
    int have[GR_N_LABS] = {0};
    if (!gr_report_is_of(r, id)) {
        gr_set_err(why, whylen, "it names another student");
        return 0;
    }
    for (int l = 0; l < r->n_labs; l++) {
        const gr_lab_result *lr = &r->labs[l];
        have[lr->lab - 1] = 1;
        for (int t = 0; t < lr->n_tests; t++) {
            double s = lr->tests[t].score, max = lr->tests[t].max_score;
            if (!isfinite(s) || !isfinite(max) || max < 0 || max > 1e6 || s < 0 || s > max) {
                gr_set_err(why, whylen, "test %s of lab %d scores %g of %g", lr->tests[t].name,
                           lr->lab, s, max);
                return 0;
            }
        }
    }
    for (int lab = 0; lab < GR_N_LABS; lab++)
        if (!have[lab] != !labs[lab]) {
            gr_set_err(why, whylen, "it holds other labs than the run graded");
            return 0;
        }
    return 1;
}

/* The report of student id from dir into r, checked and proved. 0, or -1 with err. */
static int read_report(const shards *sh, const char *dir, const char *id, gr_report *r,
                       char *err, size_t errlen)
{
    char why[1024] = "";
    char *path = student_path(dir, id, "results.json", why, sizeof why);
    int rc = path ? gr_report_read_json(path, r, why, sizeof why) : -1;
    if (rc == 0 && (!report_fits(r, id, sh->c.labs, why, sizeof why) ||
                    gr_shardproof_check(&sh->proof, path, r, why, sizeof why) != 0)) {
        gr_result_free(r);
        rc = -1;
    }
    if (rc != 0)
        gr_set_err(err, errlen, "the results of student %s in %s are not a grade of this run: "
                   "%s (grade that shard again)", id, dir, why);
    free(path);
    return rc;
}

/* Every student's report: their own, or a group's graded one's. 0 or -1. */
static int read_reports(shards *sh, char *err, size_t errlen)
{
    gr_class *c = &sh->c;
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        if (s->submitted && !s->same_as &&
            read_report(sh, sh->from[i], s->id, &s->report, err, errlen) != 0)
            return -1;
    }
    for (int i = 0; i < c->n; i++) {          /* as batch's group_grades, across shards */
        gr_student *s = &c->students[i];
        if (!s->same_as)
            continue;
        gr_student key = {.id = s->same_as};
        gr_student *g = bsearch(&key, c->students, (size_t)c->n, sizeof *c->students, by_id);
        char note[1024];
        if (g && g->submitted && !g->same_as &&
            read_report(sh, sh->from[g - c->students], g->id, &s->report, note,
                        sizeof note) != 0 && sh->m->notes)
            fprintf(sh->m->notes, "attnlab merge: %s shares the grade of %s: %s\n", s->id,
                    g->id, note);
    }
    return 0;
}

/* ---- the merged folder, whole or not at all ------------------------------------------ */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

/* Copy dir/students/id/name into tmp/students/id/name. 0, or -1 with err. */
static int copy_student_file(const char *dir, const char *tmp, const char *id, const char *name,
                             char *err, size_t errlen)
{
    char why[1024] = "", *text = NULL;
    size_t len = 0;
    char *from = student_path(dir, id, name, why, sizeof why);
    int rc = from ? gr_read_regular(from, STUDENT_FILE_MAX, &text, &len, why, sizeof why) : -1;
    if (rc != 0) {
        gr_set_err(err, errlen, "the %s of student %s in %s: %s", name, id, dir,
                   from && rc < 0 ? strerror(errno) : why);
        free(from);
        return -1;
    }
    char *to = gr_xasprintf("%s/students/%s/%s", tmp, id, name);
    rc = gr_write_file_atomic(to, text, len);
    if (rc != 0)
        gr_set_err(err, errlen, "cannot write %s: %s", to, strerror(errno));
    free(to);
    free(from);
    free(text);
    return rc;
}

/* Each graded student's folder into tmp/students. 0, or -1 with err. */
static int copy_students(const shards *sh, const char *tmp, char *err, size_t errlen)
{
    static const char *const files[] = {"results.json", "feedback.txt", "key"};
    char *st = gr_xasprintf("%s/students", tmp);
    int rc = mkdir(st, 0755);
    if (rc != 0)
        gr_set_err(err, errlen, "cannot make %s: %s", st, strerror(errno));
    free(st);
    for (int i = 0; i < sh->c.n && rc == 0; i++) {
        const gr_student *s = &sh->c.students[i];
        if (!s->submitted || s->same_as)
            continue;
        char *d = gr_xasprintf("%s/students/%s", tmp, s->id);
        if ((rc = mkdir(d, 0755)) != 0)
            gr_set_err(err, errlen, "cannot make %s: %s", d, strerror(errno));
        free(d);
        for (int f = 0; f < 3 && rc == 0; f++)
            rc = copy_student_file(sh->from[i], tmp, s->id, files[f], err, errlen);
    }
    return rc;
}

/* dir/name when it is a regular file of at most STUDENT_FILE_MAX: 0 with its
   text; 1 when there is none; -1 with err when it is something else. */
static int read_dir_file(const char *dir, const char *name, char **text, char *err,
                         size_t errlen)
{
    char *path = gr_xasprintf("%s/%s", dir, name), why[256] = "";
    size_t len = 0;
    int rc = gr_read_regular(path, STUDENT_FILE_MAX, text, &len, why, sizeof why);
    if (rc < 0 && errno == ENOENT)
        rc = 1;
    else if (rc != 0) {
        gr_set_err(err, errlen, "%s: %s", path, rc > 0 ? why : strerror(errno));
        rc = -1;
    }
    free(path);
    return rc;
}

static int by_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether lines[i] is a change of the class's settings (student "*") that
   an earlier line already says: each shard logs the class's change once. */
static int said_before(char *const *lines, int i)
{
    const char *what = strchr(lines[i], '\t');
    if (!what || strncmp(what, "\t*\t", 3) != 0)
        return 0;
    for (int j = 0; j < i; j++) {
        const char *other = strchr(lines[j], '\t');
        if (other && strcmp(other, what) == 0)
            return 1;
    }
    return 0;
}

/* The shards' audit of regrades (regrade.h), read before anything is
   written: their regrades.log as one, the header once and every line in time
   order (each starts with its UTC time), a change of the class's settings
   once, and shard 1's rubrics.state (one
   run's rubrics). 0, or -1 with err (a log that is not a regular file ...). */
static int read_audit(shards *sh, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    char **lines = NULL, *header = NULL;
    int n = 0, rc = 0, first = 0;
    for (int i = 0; i < m->n_dirs && rc >= 0; i++) {
        char *t = NULL, *save = NULL;
        if ((rc = read_dir_file(m->dirs[i], "regrades.log", &t, err, errlen)) != 0)
            continue;
        for (char *l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            if (l != t) {
                lines = gr_xrealloc(lines, (size_t)(n + 1) * sizeof *lines);
                lines[n++] = gr_xasprintf("%s\n", l);
            } else if (!header) {
                header = gr_xasprintf("%s\n", l);
            }
        }
        free(t);
    }
    if (rc >= 0 && header) {
        if (n > 0)
            qsort(lines, (size_t)n, sizeof *lines, by_line);
        gr_strbuf b = {0};
        gr_sb_append(&b, header);
        for (int i = 0; i < n; i++)
            if (!said_before(lines, i))
                gr_sb_append(&b, lines[i]);
        sh->log = gr_sb_take(&b);
    }
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    free(header);
    while (sh->runs[first].k != 1)
        first++;
    if (rc >= 0)
        rc = read_dir_file(m->dirs[first], "rubrics.state", &sh->state, err, errlen);
    return rc < 0 ? -1 : 0;
}

/* text (or nothing when NULL) as tmp/name. 0, or -1 with err. */
static int write_text(const char *tmp, const char *name, const char *text, char *err,
                      size_t errlen)
{
    char *path = gr_xasprintf("%s/%s", tmp, name);
    int rc = text ? gr_write_file_atomic(path, text, strlen(text)) : 0;
    if (rc != 0)
        gr_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return rc;
}

/* The copies of the class's settings' files (run.h): the rubrics merge was
   given, the others from the first shard (as run.txt's facts are). 0 or -1. */
static int keep_settings(const shards *sh, const char *tmp, char *err, size_t errlen)
{
    const gr_class_settings *set = &sh->runs[0].set;
    char *from[GR_SET_RUBRICS + 1] = {NULL};
    for (int k = GR_SET_ROSTER; k <= GR_SET_RUBRICS; k++)
        if (k != GR_SET_RUBRICS && set->value[k] && strcmp(set->value[k], "file-times") != 0)
            from[k] = gr_run_settings_kept(sh->m->dirs[0], (gr_setting)k, set->given[k]);
    gr_run_files f = {sh->m->root, from[GR_SET_ROSTER], from[GR_SET_COURSE], from[GR_SET_TIMES],
                      sh->m->rubrics, {0}};
    memcpy(f.labs, sh->runs[0].labs, sizeof f.labs);
    int rc = gr_run_settings_keep(tmp, &f, err, errlen);
    for (int k = GR_SET_ROSTER; k <= GR_SET_RUBRICS; k++)
        free(from[k]);
    return rc;
}

/* The merged output in tmp: students, class files, run.txt. 0 or -1 (png: the PNG was drawn). */
static int write_tmp(const shards *sh, const char *tmp, int *png, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    if (copy_students(sh, tmp, err, errlen) != 0 ||
        write_text(tmp, "regrades.log", sh->log, err, errlen) != 0 ||
        write_text(tmp, "rubrics.state", sh->state, err, errlen) != 0)
        return -1;
    int w = gr_classout_write(&sh->c, m->root, tmp, m->bom, m->notes, err, errlen);
    if (w < 0)
        return -1;
    *png = w == 0;
    gr_run whole = sh->runs[0];
    whole.k = whole.n = 1;
    return keep_settings(sh, tmp, err, errlen) != 0 ? -1
         : gr_run_write(tmp, &whole, &sh->c, err, errlen);
}

/* OUT may be written: it does not exist, or is an empty folder (which the
   rename replaces). 0 or -1 with err. */
static int out_free(const char *out, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(out, &st) != 0)
        return 0;
    int entries = 0;
    DIR *d = S_ISDIR(st.st_mode) ? opendir(out) : NULL;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        entries += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d) {
        closedir(d);
        if (entries == 0)
            return 0;
    }
    gr_set_err(err, errlen, "--out %s exists and is not an empty folder: give a new one (the "
               "merge writes it whole, then renames it into place)", out);
    return -1;
}

/* Write the class of sh into m->out by way of a new folder beside it. 0 or GR_STATUS_FAILED. */
static int write_out(const shards *sh, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    char *tmp = gr_xasprintf("%s.merge-XXXXXX", m->out);
    if (!mkdtemp(tmp)) {
        gr_set_err(err, errlen, "cannot make a folder beside %s: %s", m->out, strerror(errno));
        free(tmp);
        return GR_STATUS_FAILED;
    }
    chmod(tmp, 0755);
    int png = 0, rc = write_tmp(sh, tmp, &png, err, errlen);
    if (rc == 0) {
        if (rename(tmp, m->out) != 0) {
            gr_set_err(err, errlen, "cannot rename %s to %s: %s", tmp, m->out, strerror(errno));
            rc = -1;
        }
    }
    if (rc != 0)
        nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
    else if (m->text)
        gr_classout_print(m->text, &sh->c, m->out, png);
    free(tmp);
    return rc == 0 ? 0 : GR_STATUS_FAILED;
}

/* The rubrics the shards were graded with (--rubrics, else the course's:
   never a shard's copy, which whoever returns the shard can write), proved
   against run.txt, and each lab's points possible from them. 0 or -1. */
static int load_proof(shards *sh, char *err, size_t errlen)
{
    const gr_merge_opts *m = sh->m;
    int rc = gr_shardproof_load(&sh->proof, &sh->runs[0], m->root, m->rubrics, m->secret, err,
                                errlen);
    for (int lab = 1; rc == 0 && lab <= GR_N_LABS; lab++)
        for (int t = 0; sh->proof.have[lab - 1] && t < sh->proof.rubric[lab - 1].n_tests; t++)
            sh->c.lab_max[lab - 1] += sh->proof.rubric[lab - 1].tests[t].points;
    return rc;
}

int gr_merge(const gr_merge_opts *m, char *err, size_t errlen)
{
    shards sh;
    memset(&sh, 0, sizeof sh);
    sh.m = m;
    sh.runs = gr_xcalloc((size_t)m->n_dirs, sizeof *sh.runs);
    sh.parts = gr_xcalloc((size_t)m->n_dirs, sizeof *sh.parts);
    int rc = out_free(m->out, err, errlen) == 0 && read_runs(&sh, err, errlen) == 0 &&
             join_students(&sh, err, errlen) == 0 && class_facts(&sh, err, errlen) == 0 &&
             load_proof(&sh, err, errlen) == 0 && read_reports(&sh, err, errlen) == 0 && read_audit(&sh, err, errlen) == 0
             ? 0 : GR_STATUS_BAD_INPUT;
    if (rc == 0)
        rc = write_out(&sh, err, errlen);
    sh.c.course = NULL;
    gr_class_free(&sh.c);
    gr_shardproof_free(&sh.proof);
    for (int i = 0; i < m->n_dirs; i++) {
        gr_run_free(&sh.runs[i]);
        gr_class_free(&sh.parts[i]);
    }
    if (sh.has_course)
        gr_course_free(&sh.course);
    free(sh.runs);
    free(sh.parts);
    free(sh.from);
    free(sh.log);
    free(sh.state);
    return rc;
}
