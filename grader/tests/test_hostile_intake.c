/* test_hostile_intake.c: what a student can put in a submission folder, in
 * every place a submission holds a file, against the one reader of student
 * files (intake.h) and the commands built on it.
 *
 * First the intake itself on small trees: each layout and forgiving rule,
 * an ambiguous pair, an empty folder, a folder of 30,000 files and a tree
 * 200 folders deep (bounded: the exact names are still found), and the
 * reader on a FIFO, a link to /dev/zero, a link out of the submission, a
 * linked lab folder and an oversized (sparse) file; and `attnlab rules --source`
 * (what a lab's make test asks) on each of those.
 *
 * Then a class, graded end to end by `attnlab batch --lab 1` and, for some
 * students, `attnlab grade`, `similarity`, `status` and `plot`, each in
 * a session of its own under a wall-clock
 * cap and an address-space cap (so a reader of /dev/zero fails loudly
 * instead of filling memory): a FIFO, a link to /dev/zero, a link to a
 * solution outside and an oversized file as the lab file in both layouts and
 * as the submission_metadata.json batch reads; a linked lab folder; a nested
 * upload, Lab01.c, an empty folder, an ambiguous pair and a missing lab; and
 * a roster with one student who has no folder and one folder not on it.
 * Asserted: the batch completes, every student has the score and verdict
 * their upload deserves, no grader path reaches what a student is shown, and
 * the warnings block names each kind with its ids.
 *
 * And the build cache, which reads every lab file before the build does: a
 * class graded twice through one cache keeps each file's program apart; and
 * bytes no reader may refuse (U+0080, U+FFFE, a byte that is no UTF-8) in a
 * compiler's message and in folder names: the batch, a merge and a regrade
 * finish with every student's row.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "class/batch.h"
#include "class/warnings.h"
#include "engine/intake.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

#define CAP_SECONDS 600                     /* a run that takes longer hangs */
#define GRADER_AS   ((rlim_t)4 << 30)       /* a reader of /dev/zero fails, loudly */
#define OVERSIZED   ((off_t)64 << 20)       /* sparse: costs no disk */

static char *base;                          /* this binary's folder (fk_suite_dir) */

static char *path_in(const char *dir, const char *rel)
{
    return gr_xasprintf("%s/%s", dir, rel);
}

/* mkdir -p of dir/rel's folders, then the file rel holding text. */
static void put(const char *dir, const char *rel, const char *text)
{
    char *p = path_in(dir, rel);
    for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        ck_assert_msg(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir %s: %s", p, strerror(errno));
        *s = '/';
    }
    if (text)
        ck_assert_msg(gr_write_file_atomic(p, text, strlen(text)) == 0, "cannot write %s", p);
    free(p);
}

static char *fresh(const char *name)
{
    char *d = path_in(base, name);
    ck_assert_msg(mkdir(d, 0755) == 0, "mkdir %s: %s", d, strerror(errno));
    return d;
}

/* What can stand where a student's file should be. */
typedef enum thing { FIFO, DEV_ZERO, LINK_OUT, OVERSIZE, N_THINGS } thing;
static const char *const thing_names[N_THINGS] = {"fifo", "devzero", "linkout", "oversize"};
static const char *const thing_says[N_THINGS] = {"FIFO", "symbolic link", "symbolic link", "bytes"};

static char *outside;                       /* a solution file outside every submission */

static void plant(const char *dir, const char *rel, thing t)
{
    put(dir, rel, NULL);
    char *p = path_in(dir, rel);
    int fd;
    switch (t) {
    case FIFO:
        ck_assert_int_eq(mkfifo(p, 0644), 0);
        break;
    case DEV_ZERO:
        ck_assert_int_eq(symlink("/dev/zero", p), 0);
        break;
    case LINK_OUT:
        ck_assert_int_eq(symlink(outside, p), 0);
        break;
    case OVERSIZE:
        fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ck_assert_int_ge(fd, 0);
        ck_assert_int_eq(ftruncate(fd, OVERSIZED), 0);
        close(fd);
        break;
    case N_THINGS:
        break;
    }
    free(p);
}

static char *solution(int lab)
{
    char *p = gr_xasprintf("%s/solutions/%s/lab%02d.c", fk_root(), gr_lab_modules[lab - 1]->dir, lab);
    char *text = gr_read_file(p, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", p);
    free(p);
    return text;
}

/* ---- the intake on small trees ------------------------------------------------------ */

static void scan(const char *dir, gr_intake *in)
{
    char err[512];
    ck_assert_msg(gr_intake_scan(dir, in, err, sizeof err) == 0, "%s", err);
}

START_TEST(layouts_and_forgiving_rules)
{
    static const struct {
        const char *rel, *found, *how;       /* how: NULL for the exact layout */
    } cases[] = {
        {"lab01-scores/lab01.c", "lab01-scores/lab01.c", NULL},
        {"lab01.c", "lab01.c", NULL},
        {"Lab01.c", "Lab01.c", "another case, Lab01.c for lab01.c"},
        {"LAB01-Scores/lab01.c", "LAB01-Scores/lab01.c", "another case, LAB01-Scores/lab01.c"},
        {"attnlab-main/labs/lab01-scores/lab01.c", "attnlab-main/labs/lab01-scores/lab01.c",
         "inside the folder attnlab-main/labs"},
        {"a/b/c/lab01.c", "a/b/c/lab01.c", "inside the folder a/b/c"},
        {"labs/lab01-scores/lab01.c", "labs/lab01-scores/lab01.c", "inside the folder labs"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "layout%zu", i);
        char *dir = fresh(name);
        put(dir, cases[i].rel, "int x;\n");
        put(dir, ".DS_Store", "");                          /* hidden: never a wrapper's rival */
        gr_intake in;
        scan(dir, &in);
        const gr_intake_lab *l = &in.labs[0];
        ck_assert_msg(l->status == GR_INTAKE_FOUND, "%s: status %d", cases[i].rel, l->status);
        ck_assert_str_eq(l->rel, cases[i].found);
        if (cases[i].how) {
            ck_assert_msg(l->how && strstr(l->how, cases[i].how), "%s: how '%s'", cases[i].rel,
                          l->how ? l->how : "(none)");
            ck_assert_int_eq(in.n_forgiven, 1);
        } else {
            ck_assert_ptr_null(l->how);
            ck_assert_int_eq(l->rule, GR_INTAKE_EXACT);
        }
        ck_assert_int_eq(in.labs[1].status, GR_INTAKE_MISSING);
        ck_assert(!in.empty);
        char *text, why[256];
        size_t len;
        ck_assert_int_eq(gr_intake_read(dir, l->rel, GR_INTAKE_MAX_FILE, &text, &len, why,
                                        sizeof why), 0);
        ck_assert_str_eq(text, "int x;\n");
        free(text);
        gr_intake_free(&in);
        free(dir);
    }
}
END_TEST

START_TEST(ambiguity_is_never_a_guess)
{
    static const char *const pairs[][2] = {
        {"lab01.c", "lab01-scores/lab01.c"},
        {"lab01.c", "Lab01.c"},
        {"lab01-scores/lab01.c", "Lab01-Scores/lab01.c"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "ambiguous%zu", i);
        char *dir = fresh(name);
        put(dir, pairs[i][0], "int a;\n");
        put(dir, pairs[i][1], "int b;\n");
        gr_intake in;
        scan(dir, &in);
        ck_assert_int_eq(in.labs[0].status, GR_INTAKE_AMBIGUOUS);
        char *says = gr_intake_problem(&in.labs[0], 1);
        ck_assert_msg(strstr(says, pairs[i][0]) && strstr(says, pairs[i][1]), "%s", says);
        free(says);
        gr_intake_free(&in);
        free(dir);
    }
}
END_TEST

START_TEST(empty_and_missing)
{
    char *dir = fresh("empty");
    put(dir, "wrapper/inner/", NULL);                       /* folders, not one file */
    put(dir, ".hidden", "x");
    gr_intake in;
    scan(dir, &in);
    ck_assert(in.empty);
    ck_assert_int_eq(in.n_found, 0);
    char *says = gr_intake_problem(&in.labs[0], 1);
    ck_assert_msg(strstr(says, "no lab01.c") && strstr(says, "lab01-scores/lab01.c"), "%s", says);
    ck_assert_ptr_null(strstr(says, base));                 /* no grader path */
    free(says);
    gr_intake_free(&in);
    put(dir, "notes.txt", "lab 1 is coming\n");
    scan(dir, &in);
    ck_assert(!in.empty);
    ck_assert_int_eq(in.labs[0].status, GR_INTAKE_MISSING);
    gr_intake_free(&in);
    free(dir);
}
END_TEST

/* 30,000 files and a tree 200 folders deep: the scan stays bounded and the
   exact names are still found. */
START_TEST(bounded_walks)
{
    char *dir = fresh("flood");
    for (int i = 0; i < 30000; i++) {
        char *p = gr_xasprintf("%s/f%05d", dir, i);
        int fd = open(p, O_WRONLY | O_CREAT, 0644);
        ck_assert_int_ge(fd, 0);
        close(fd);
        free(p);
    }
    put(dir, "lab02.c", "int x;\n");
    gr_intake in;
    scan(dir, &in);
    ck_assert(in.truncated);
    ck_assert_int_eq(in.labs[1].status, GR_INTAKE_FOUND);
    ck_assert_str_eq(in.labs[1].rel, "lab02.c");
    ck_assert_int_eq(in.labs[0].status, GR_INTAKE_MISSING);
    gr_intake_free(&in);

    char *deep = fresh("deep");
    gr_strbuf rel = {0};
    for (int i = 0; i < 200; i++)
        gr_sb_append(&rel, "d/");
    gr_sb_append(&rel, "lab01.c");
    put(deep, rel.s, "int x;\n");
    scan(deep, &in);
    ck_assert_int_eq(in.labs[0].status, GR_INTAKE_MISSING);  /* past GR_INTAKE_MAX_DEPTH */
    ck_assert(!in.empty);                                     /* too deep to tell: not empty */
    gr_intake_free(&in);
    free(rel.s);
    free(deep);
    free(dir);
}
END_TEST

START_TEST(the_reader_names_what_it_refuses)
{
    char *dir = fresh("reader");
    for (int t = 0; t < N_THINGS; t++) {
        char rel[64];
        snprintf(rel, sizeof rel, "%s/lab01.c", thing_names[t]);
        plant(dir, rel, (thing)t);
        char *text = NULL, why[512] = "";
        size_t len;
        ck_assert_int_eq(gr_intake_read(dir, rel, GR_INTAKE_MAX_FILE, &text, &len, why,
                                        sizeof why), 1);
        ck_assert_ptr_null(text);
        ck_assert_msg(strstr(why, rel) && strstr(why, thing_says[t]), "%s: %s", rel, why);
    }
    /* a hard link: the file may be anyone's (a grader's secret, say) */
    char *mine = path_in(base, "not-the-students.c"), *hard = path_in(dir, "hard/lab01.c");
    put(base, "not-the-students.c", "int secret;\n");
    put(dir, "hard/", NULL);
    ck_assert_int_eq(link(mine, hard), 0);
    char *got = NULL, said[512] = "";
    size_t got_len;
    ck_assert_int_eq(gr_intake_read(dir, "hard/lab01.c", GR_INTAKE_MAX_FILE, &got, &got_len,
                                    said, sizeof said), 1);
    ck_assert_msg(strstr(said, "hard/lab01.c is a hard link"), "%s", said);
    free(mine);
    free(hard);
    /* a lab folder that is a link out of the submission */
    char *out_dir = fresh("elsewhere");
    put(out_dir, "lab01.c", "int x;\n");
    char *link = path_in(dir, "lab01-scores");
    ck_assert_int_eq(symlink(out_dir, link), 0);
    char *text = NULL, why[512] = "";
    size_t len;
    ck_assert_int_eq(gr_intake_read(dir, "lab01-scores/lab01.c", GR_INTAKE_MAX_FILE, &text,
                                    &len, why, sizeof why), 1);
    ck_assert_msg(strstr(why, "lab01-scores is a symbolic link, not a folder"), "%s", why);
    gr_intake in;
    scan(dir, &in);                                          /* a candidate, for the verdict */
    ck_assert_int_eq(in.labs[0].status, GR_INTAKE_FOUND);
    ck_assert_str_eq(in.labs[0].rel, "lab01-scores/lab01.c");
    gr_intake_free(&in);
    errno = 0;
    ck_assert_int_eq(gr_intake_read(dir, "nothing/lab01.c", 100, &text, &len, why, sizeof why), -1);
    ck_assert_int_eq(errno, ENOENT);
    free(link);
    free(out_dir);
    free(dir);
}
END_TEST

/* attnlab rules --source, which a lab's make test runs on the student's file,
   reads it with the build's one reader: each planted thing is refused by
   name (exit 1), under a wall-clock cap, and nothing outside is shown. */
START_TEST(rules_source_refuses_what_grade_refuses)
{
    char *dir = fresh("rules-source"), *attnlab = fk_attnlab();
    for (int t = 0; t < N_THINGS; t++) {
        char rel[64];
        snprintf(rel, sizeof rel, "%s/lab01.c", thing_names[t]);
        plant(dir, rel, (thing)t);
        char *log = gr_xasprintf("%s/%s.log", dir, thing_names[t]);
        int st = fk_sh(log, "cd %s && timeout -s KILL %d %s rules --lab 1 --source %s", dir,
                       CAP_SECONDS, attnlab, rel);
        char *text = gr_read_file(log, NULL);
        ck_assert_msg(st == 1 && text && strstr(text, "is not a regular file") &&
                      strstr(text, thing_says[t]) && !strstr(text, "root:x:0:0"),
                      "%s: exit %d: %s", rel, st, text ? text : "(no output)");
        free(text);
        free(log);
    }
    free(attnlab);
    free(dir);
}
END_TEST

/* The fleets' staging script (run_autograder, PrairieLearn's run.sh) hands
   over the upload as it is, and says when it holds no lab file at all. */
START_TEST(fleets_stage_the_upload_as_it_is)
{
    static const struct { const char *rel; int rc; } uploads[] = {
        {"attnlab-main/labs/lab01-scores/lab01.c", 0},
        {"Lab02.c", 0},
        {"notes.txt", 3},
        {"deep/er/", 3},
    };
    for (size_t i = 0; i < sizeof uploads / sizeof uploads[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "upload%zu", i);
        char *dir = fresh(name);
        put(dir, uploads[i].rel, strchr(uploads[i].rel, '.') ? "int x;\n" : NULL);
        char *cmd = gr_xasprintf("sh '%s/scripts/stage-submission.sh' '%s' '%s/labs' '%s/work' "
                                 "> '%s.out'", fk_root(), dir, fk_root(), dir, dir);
        int st = system(cmd);
        ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == uploads[i].rc, "%s: status %d",
                      uploads[i].rel, st);
        char *out_path = gr_xasprintf("%s.out", dir), *said = gr_read_file(out_path, NULL);
        char *want = gr_xasprintf("%s\n", dir);
        ck_assert_msg(said && strcmp(said, want) == 0, "%s: printed '%s'", uploads[i].rel,
                      said ? said : "");
        free(want);
        free(said);
        free(out_path);
        free(cmd);
        free(dir);
    }
}
END_TEST

/* ---- a class, end to end ------------------------------------------------------------ */

/* Run attnlab ARGS in a session of its own under the caps, stdout to out and
   stderr to err; its exit status. Fails when it outlives CAP_SECONDS. */
static int run_attnlab(const char *const *args, const char *out, const char *err)
{
    char *exe = fk_attnlab();
    ck_assert_ptr_nonnull(exe);
    char *argv[24] = {exe};
    for (int i = 0; args[i] && i < 22; i++)
        argv[1 + i] = gr_xstrdup(args[i]);
    pid_t pid = fk_spawn_session(argv, out, err, NULL, GRADER_AS);
    for (int i = 1; argv[i]; i++)
        free(argv[i]);
    ck_assert_int_ge(pid, 0);
    int status = 0, done = fk_wait_capped(pid, CAP_SECONDS, &status);
    ck_assert_int_ge(done, 0);
    char *log = gr_read_file(err, NULL);
    ck_assert_msg(done, "attnlab %s still ran after %d s (killed); stderr: %.2000s", args[0],
                  CAP_SECONDS, log ? log : "");
    fk_kill_session(pid);                      /* nothing of the session may stay */
    ck_assert_msg(WIFEXITED(status), "attnlab %s died with signal %d; stderr: %.2000s", args[0],
                  WTERMSIG(status), log ? log : "");
    free(log);
    free(exe);
    return WEXITSTATUS(status);
}

/* The lab 1 cell of id's gradebook row, or -1 when there is no row. */
static double gradebook_lab1(const char *csv, const char *id)
{
    char *row = gr_xasprintf("\n\"%s\",", id);
    const char *p = strstr(csv, row);
    double v = -1;
    if (p) {
        p += strlen(row);
        for (int skip = 0; skip < 2 && p; skip++)              /* name, email */
            p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
        if (p)
            v = strtod(p, NULL);
    }
    free(row);
    return v;
}

/* The student-visible files of id hold say and no grader path. */
static void shown(const char *out, const char *id, const char *say, const char *class_dir)
{
    static const char *const files[] = {"results.json", "feedback.txt"};
    for (size_t i = 0; i < 2; i++) {
        char *p = gr_xasprintf("%s/students/%s/%s", out, id, files[i]);
        char *text = gr_read_file(p, NULL);
        ck_assert_msg(text != NULL, "no %s", p);
        ck_assert_msg(!say || strstr(text, say), "%s: no '%s' in:\n%.3000s", p, say, text);
        ck_assert_msg(!strstr(text, class_dir) && !strstr(text, fk_root()) &&
                      !strstr(text, "/tmp/"), "%s shows a grader path:\n%.3000s", p, text);
        free(text);
        free(p);
    }
}

START_TEST(a_hostile_class_is_graded)
{
    char *cls = fresh("class"), *out = path_in(base, "graded");
    char *sol = solution(1);
    put(base, "outside-lab01.c", sol);
    /* every thing in every place */
    static const char *const places[] = {"lab01-scores/lab01.c", "lab01.c",
                                         "submission_metadata.json"};
    for (int t = 0; t < N_THINGS; t++)
        for (int p = 0; p < 3; p++) {
            char *sub = gr_xasprintf("%s/h%d%d", cls, t, p);
            ck_assert_int_eq(mkdir(sub, 0755), 0);
            plant(sub, places[p], (thing)t);
            if (p == 2)
                put(sub, "lab01.c", sol);                       /* the lab itself is fine */
            free(sub);
        }
    char *linked = fresh("class/linkdir");
    char *link = path_in(linked, "lab01-scores");
    char *elsewhere = fresh("elsewhere-lab");
    put(elsewhere, "lab01.c", sol);
    ck_assert_int_eq(symlink(elsewhere, link), 0);
    put(cls, "nested/attnlab-main/labs/lab01-scores/lab01.c", sol);
    put(cls, "nested/attnlab-main/README.md", "# attnlab\n");
    put(cls, "upper/Lab01.c", sol);
    put(cls, "empty/", NULL);
    put(cls, "twice/lab01.c", sol);
    put(cls, "twice/lab01-scores/lab01.c", sol);
    put(cls, "nolab/lab02.c", "int x;\n");
    put(cls, "stranger/lab01.c", sol);
    gr_strbuf roster = {0};
    gr_sb_append(&roster, "students:\n");
    static const char *const named[] = {"nested", "upper", "empty", "twice", "nolab", "linkdir",
                                        "ghost"};
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        gr_sb_printf(&roster, "  - {id: %s, name: Student %zu}\n", named[i], i);
    for (int t = 0; t < N_THINGS; t++)
        for (int p = 0; p < 3; p++)
            gr_sb_printf(&roster, "  - {id: h%d%d, name: Hostile %d %d}\n", t, p, t, p);
    put(base, "roster.yaml", roster.s);
    char *roster_path = path_in(base, "roster.yaml");

    char *o = path_in(base, "batch.out"), *e = path_in(base, "batch.err");
    const char *args[] = {"batch", cls, "--out", out, "--lab", "1", "--jobs", "2", "--roster",
                    roster_path, NULL};
    int rc = run_attnlab(args, o, e);
    char *log = gr_read_file(e, NULL), *stdout_text = gr_read_file(o, NULL);
    ck_assert_msg(rc == 0, "batch exit %d; stderr:\n%.3000s", rc, log ? log : "");

    char *csv_path = path_in(out, "gradebook.csv");
    char *csv = gr_read_file(csv_path, NULL);
    ck_assert_ptr_nonnull(csv);
    char id[16];
    for (int t = 0; t < N_THINGS; t++)
        for (int p = 0; p < 3; p++) {
            snprintf(id, sizeof id, "h%d%d", t, p);
            double want = p == 2 ? 10 : 0;                      /* metadata: the lab is fine */
            ck_assert_msg(gradebook_lab1(csv, id) == want, "%s scored %g, not %g", id,
                          gradebook_lab1(csv, id), want);
            shown(out, id, p == 2 ? NULL : "unreadable file", cls);
            if (p < 2)
                shown(out, id, thing_says[t], cls);
        }
    static const struct { const char *id; double score; const char *say; } ok[] = {
        {"nested", 10, "graded attnlab-main/labs/lab01-scores/lab01.c"},
        {"upper", 10, "graded Lab01.c"},
        {"empty", 0, "missing"},
        {"twice", 0, "ambiguous"},
        {"nolab", 0, "no lab01.c in the submission"},
        {"linkdir", 0, "lab01-scores is a symbolic link, not a folder"},
        {"stranger", 10, NULL},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        ck_assert_msg(gradebook_lab1(csv, ok[i].id) == ok[i].score, "%s scored %g", ok[i].id,
                      gradebook_lab1(csv, ok[i].id));
        shown(out, ok[i].id, ok[i].say, cls);
    }

    /* the warnings block, on the terminal and in report.md */
    char *md_path = path_in(out, "report.md");
    char *md = gr_read_file(md_path, NULL);
    ck_assert_ptr_nonnull(md);
    static const char *const warned[] = {
        "Empty submissions, not one file (1): empty",
        "Found by a forgiving rule, each report saying which file and why (2): nested "
        "(attnlab-main/labs/lab01-scores/lab01.c), upper (Lab01.c)",
        "Folders not on the roster (1): stranger",
        "On the roster, no folder (1): ghost",
        "lab01-scores missing (1): nolab",
        "Lab files not graded: ambiguous, or not a regular file (10): h00 (lab 1), h01 (lab 1), "
        "h10 (lab 1), h11 (lab 1), h20 (lab 1) and 5 more",
    };
    ck_assert_ptr_nonnull(strstr(md, "## Warnings"));
    /* files not taken are warnings, not failed tests: every file graded passed */
    ck_assert_msg(strstr(md, "Every test passed in every lab attempted."), "%.4000s", md);
    for (size_t i = 0; i < sizeof warned / sizeof warned[0]; i++) {
        ck_assert_msg(strstr(md, warned[i]), "report.md lacks '%s':\n%.4000s", warned[i], md);
        ck_assert_msg(strstr(stdout_text, warned[i]), "stdout lacks '%s'", warned[i]);
    }

    /* attnlab grade on the same uploads: the verdicts, bounded, no grader path */
    static const struct { const char *id; int rc; const char *say; } graded[] = {
        {"h01", 0, "lab01.c is a FIFO (named pipe), not a regular file"},
        {"h31", 0, "lab01.c has 67108864 bytes"},
        {"h10", 0, "lab01-scores/lab01.c is a symbolic link"},
        {"nested", 0, "graded attnlab-main/labs/lab01-scores/lab01.c: inside the folder"},
        {"twice", 0, "two files could be lab 1's"},
    };
    for (size_t i = 0; i < sizeof graded / sizeof graded[0]; i++) {
        char *sub = path_in(cls, graded[i].id), *json = path_in(base, "one.json");
        const char *gargs[] = {"grade", "--lab", "1", "--submission", sub, "--json", json, NULL};
        int grc = run_attnlab(gargs, o, e);
        char *term = gr_read_file(o, NULL), *js = gr_read_file(json, NULL);
        ck_assert_msg(grc == graded[i].rc, "grade %s: exit %d", graded[i].id, grc);
        ck_assert_msg(term && strstr(term, graded[i].say), "grade %s: no '%s' in:\n%.3000s",
                      graded[i].id, graded[i].say, term ? term : "");
        ck_assert_msg(js && !strstr(js, base) && !strstr(term, base), "grade %s shows a grader "
                      "path", graded[i].id);
        free(term);
        free(js);
        free(sub);
        free(json);
    }
    /* similarity reads the same files the same way: the class completes */
    const char *sargs[] = {"similarity", cls, "--lab", "1", NULL};
    ck_assert_int_eq(run_attnlab(sargs, o, e), 0);
    char *sim = gr_read_file(o, NULL), *sim_err = gr_read_file(e, NULL);
    /* nested, upper, stranger and the four whose metadata was planted */
    ck_assert_msg(sim && strstr(sim, "Lab 1 (lab01-scores): 7 files"), "%.3000s", sim ? sim : "");
    static const char *const skipped[] = {
        "skipped h01/lab01.c: h01/lab01.c is a FIFO (named pipe)",
        "skipped h11/lab01.c: h11/lab01.c is a symbolic link",
        "skipped h31/lab01.c: h31/lab01.c has 67108864 bytes",
        "skipped linkdir/lab01-scores/lab01.c: linkdir/lab01-scores is a symbolic link",
        "grading does not guess",
    };
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        ck_assert_msg(sim_err && strstr(sim_err, skipped[i]), "similarity: no '%s' in:\n%s",
                      skipped[i], sim_err ? sim_err : "");
    free(sim);
    free(sim_err);

    /* status (and watch, which grades as status does) on an upload of a FIFO */
    char *h00 = path_in(cls, "h00");
    const char *stargs[] = {"status", "--submission", h00, NULL};
    ck_assert_int_eq(run_attnlab(stargs, o, e), 1);
    char *st = gr_read_file(o, NULL);
    ck_assert_msg(st && strstr(st, "lab01-scores/lab01.c is a FIFO (named pipe)"), "%.3000s",
                  st ? st : "");
    free(st);
    free(h00);

    /* plot builds the student's lab 4 as grading does: a FIFO is a verdict */
    char *pl = fresh("plot-sub"), *pl_out = path_in(base, "plot-out");
    plant(pl, "lab04.c", FIFO);
    const char *plargs[] = {"plot", "entropy", "--submission", pl, "--out", pl_out, NULL};
    run_attnlab(plargs, o, e);
    char *said = gr_read_file(o, NULL);
    ck_assert_msg(said && strstr(said, "unreadable file: lab04.c is a FIFO"), "plot:\n%.3000s",
                  said ? said : "");
    free(said);
    free(pl);
    free(pl_out);

    free(md);
    free(md_path);
    free(csv);
    free(csv_path);
    free(log);
    free(stdout_text);
    free(o);
    free(e);
    free(roster_path);
    free(roster.s);
    free(link);
    free(linked);
    free(elsewhere);
    free(sol);
    free(out);
    free(cls);
}
END_TEST

/* The build cache (buildcache.h) is a new reader of the students' files: in a
   class graded twice with one cache, a file one byte from the solution never
   gets the solution's program, the same bytes from two students are one entry,
   a FIFO and a link are read as the build reads them (refused, never kept),
   and the second run, from the cache, gives every student the same score. */
START_TEST(the_build_cache_keeps_each_file_apart)
{
    char *cls = fresh("cached-class"), *cache = path_in(base, "build-cache");
    char *sol = solution(1), *near = gr_xstrdup(sol);
    char *at = strstr(near, "1.0 / sqrt(");
    ck_assert_ptr_nonnull(at);
    memcpy(at, "1.0 + sqrt(", 11);                       /* the same length, one byte apart */
    put(cls, "solver/lab01.c", sol);
    put(cls, "again/lab01.c", sol);
    put(cls, "near/lab01.c", near);
    char *fifo_dir = fresh("cached-class/fifo");
    plant(fifo_dir, "lab01.c", FIFO);
    char *link_dir = fresh("cached-class/linkout");
    plant(link_dir, "lab01.c", LINK_OUT);
    setenv("ATTNLAB_BUILD_CACHE", cache, 1);
    static const struct { const char *id; double score; } want[] = {
        {"solver", 10}, {"again", 10}, {"near", -2}, {"fifo", 0}, {"linkout", 0},
    };
    for (int run = 0; run < 2; run++) {
        char *out = path_in(base, run ? "cached-2" : "cached-1");
        char *o = path_in(base, "cached.out"), *e = path_in(base, "cached.err");
        const char *args[] = {"batch", cls, "--out", out, "--lab", "1", "--jobs", "2", NULL};
        int rc = run_attnlab(args, o, e);
        ck_assert_msg(rc == 0, "batch (run %d) exit %d", run + 1, rc);
        char *csv = gr_read_file(path_in(out, "gradebook.csv"), NULL);
        ck_assert_ptr_nonnull(csv);
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
            double got = gradebook_lab1(csv, want[i].id);
            if (want[i].score < 0)                       /* some tests pass, not all */
                ck_assert_msg(got > 0 && got < 10, "run %d: %s scored %g", run + 1, want[i].id, got);
            else
                ck_assert_msg(got == want[i].score, "run %d: %s scored %g, not %g", run + 1,
                              want[i].id, got, want[i].score);
        }
        free(csv);
        free(out);
        free(o);
        free(e);
    }
    struct stat st;
    ck_assert_int_eq(stat(cache, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);           /* the grader's own */
    int entries = 0;
    DIR *d = opendir(cache);
    for (struct dirent *de; d && (de = readdir(d)) != NULL;)
        entries += de->d_name[0] != '.';
    closedir(d);
    ck_assert_int_eq(entries, 2);                        /* the solution and the near one */
    unsetenv("ATTNLAB_BUILD_CACHE");
    free(cls);
    free(cache);
    free(sol);
    free(near);
    free(fifo_dir);
    free(link_dir);
}
END_TEST

/* A lab file that does not compile, with a C1 control (U+0080) and U+FFFE in
   the line the compiler quotes, and folder names holding U+0080 and a byte
   that is no UTF-8 at all: each student gets a row, and the batch, a merge of
   its output and a regrade of one test finish (the results.json writer and
   every reader agree on one grammar: json.h). */
START_TEST(one_students_bytes_never_stop_the_class)
{
    char *cls = fresh("bytes-class"), *sol = solution(1);
    char *broken = gr_xasprintf("%s\nint broken = \"\xc2\x80\xef\xbf\xbe\" +;\n", sol);
    put(cls, "honest/lab01.c", sol);
    put(cls, "euro/lab01.c", broken);
    put(cls, "c1\xc2\x80id/lab01.c", sol);
    put(cls, "bad\xffid/lab01.c", sol);
    char *out = path_in(base, "bytes-graded"), *merged = path_in(base, "bytes-merged");
    char *o = path_in(base, "bytes.out"), *e = path_in(base, "bytes.err");
    const char *batch[] = {"batch", cls, "--out", out, "--lab", "1", "--jobs", "2", NULL};
    ck_assert_int_eq(run_attnlab(batch, o, e), 0);
    char *csv = gr_read_file(path_in(out, "gradebook.csv"), NULL);
    ck_assert_ptr_nonnull(csv);
    static const struct { const char *id; double score; } want[] = {
        {"honest", 10}, {"euro", 0}, {"c1\xc2\x80id", 10}, {"bad\xffid", 10}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(gradebook_lab1(csv, want[i].id) == want[i].score, "%s scored %g",
                      want[i].id, gradebook_lab1(csv, want[i].id));
    const char *merge[] = {"merge", out, "--out", merged, "-q", NULL};
    int rc = run_attnlab(merge, o, e);
    char *log = gr_read_file(e, NULL);
    ck_assert_msg(rc == 0, "merge exit %d: %s", rc, log ? log : "");
    free(log);
    char *again = gr_read_file(path_in(merged, "gradebook.csv"), NULL);
    ck_assert_msg(again && strcmp(again, csv) == 0, "the merged gradebook differs");
    char *js = gr_xasprintf("%s/students/bad\xffid/results.json", out);
    char *sub = gr_xasprintf("%s/bad\xffid", cls);
    const char *regrade[] = {"grade", "--submission", sub, "--lab", "1", "--student",
                             "bad\xffid", "--test", "dot_worked_example", "--json", js, NULL};
    rc = run_attnlab(regrade, o, e);
    log = gr_read_file(e, NULL);
    ck_assert_msg(rc == 0, "grade --test exit %d: %s", rc, log ? log : "");
    free(log);
    free(again);
    free(csv);
    free(js);
    free(sub);
    free(o);
    free(e);
    free(out);
    free(merged);
    free(broken);
    free(sol);
    free(cls);
}
END_TEST

/* A student whose results do not read back is named in the warnings, its
   row empty, and the class goes on (batch.c's student_done). */
START_TEST(a_student_not_graded_is_named)
{
    gr_student st[2];
    memset(st, 0, sizeof st);
    char ok[] = "ok", lost[] = "lost", why[] = "students/lost/results.json:1:1: end of file";
    st[0].id = ok;
    st[0].submitted = 1;
    st[1].id = lost;
    st[1].submitted = 1;
    st[1].not_graded = why;
    gr_class c;
    memset(&c, 0, sizeof c);
    c.students = st;
    c.n = 2;
    c.labs[0] = 1;
    gr_strbuf b = {0};
    gr_warnings_block(&b, &c, 1);
    ck_assert_msg(b.s && strstr(b.s, "- Not graded: their results do not read back, their rows "
                                     "empty (1): lost (students/lost/results.json:1:1: end of "
                                     "file)"), "%s", b.s ? b.s : "(none)");
    free(b.s);
}
END_TEST

Suite *test_suite(void)
{
    base = fk_suite_dir("hostile-intake");
    outside = path_in(base, "outside-lab01.c");     /* the class case writes it */
    Suite *s = suite_create("hostile_intake");
    TCase *tc = tcase_create("intake");
    tcase_set_timeout(tc, CAP_SECONDS);               /* 30,000 files to make */
    tcase_add_test(tc, layouts_and_forgiving_rules);
    tcase_add_test(tc, ambiguity_is_never_a_guess);
    tcase_add_test(tc, empty_and_missing);
    tcase_add_test(tc, bounded_walks);
    tcase_add_test(tc, the_reader_names_what_it_refuses);
    tcase_add_test(tc, rules_source_refuses_what_grade_refuses);
    tcase_add_test(tc, fleets_stage_the_upload_as_it_is);
    suite_add_tcase(s, tc);
    TCase *cl = tcase_create("class");
    tcase_set_timeout(cl, CAP_SECONDS * 2);
    tcase_add_test(cl, a_hostile_class_is_graded);
    tcase_add_test(cl, the_build_cache_keeps_each_file_apart);
    tcase_add_test(cl, one_students_bytes_never_stop_the_class);
    tcase_add_test(tc, a_student_not_graded_is_named);
    suite_add_tcase(s, cl);
    return s;
}
