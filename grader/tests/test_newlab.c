/* test_newlab.c: `attnlab new-lab`, a lab added by writing files only.
 *
 * In a copy of the tree's sources (git ls-files; never build/), new-lab
 * scaffolds a toy lab beside the course's, numbered one past its last
 * (GR_N_LABS + 1), one function: the row sums of softmax weights,
 *     int lab_row_sums(float *out, const float *W, int rows, int n)
 * The test fills in the two bodies new-lab marks (the solution's, and the
 * expected outputs in the grader's module), makes the copy once, and shows
 * `attnlab validate --lab N` passes, `attnlab grade --lab N` gives the
 * solution full marks and the pristine stub 0, and git status of the copy
 * lists only new files: the build found the lab from its files. An object
 * built for the course before new-lab (layout.o, which reads the lab count)
 * is rebuilt by that one make. In the
 * same copy new-lab refuses a lab that exists and a number out of turn, and
 * writes nothing then. The description's own errors (signatures, shapes, the
 * --from file) are checked in process.
 * Runs the built attnlab (build/attnlab beside this test's build folder). The
 * copy's one build takes most of the test's time: 47 to 90 s measured on two
 * busy cores, the whole test 51 to 97 s. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cli/commands.h"
#include "cli/newlab.h"
#include "fixtures/fixture_kit.h"
#include "base/labmod.h"

Suite *test_suite(void);

#define TOY (GR_N_LABS + 1)   /* the toy lab's number: one past the course's last */

static const char *const toy_function =
    "int lab_row_sums(float *out, const float *W, int rows, int n)";

/* The two bodies a maintainer writes: the reference solution and the module's
   expected outputs (W's rows summed in double, as a careful student would). */
static const char *const solution_body =
    "    if (rows < 0 || n < 1)\n"
    "        return LAB_BAD_ARG;\n"
    "    for (int i = 0; i < rows; i++) {\n"
    "        double sum = 0.0;\n"
    "        for (int j = 0; j < n; j++)\n"
    "            sum += (double)W[(long)i * n + j];\n"
    "        out[i] = (float)sum;\n"
    "    }\n"
    "    return LAB_OK;\n";
static const char *const expected_body =
    "    for (int i = 0; i < rows; i++) {\n"
    "        double sum = 0.0;\n"
    "        for (int j = 0; j < n; j++)\n"
    "            sum += (double)W[(long)i * n + j];\n"
    "        out[i] = (float)sum;\n"
    "    }\n";

/* The files new-lab writes for the toy lab, rowsums, as git status lists them,
   before and after its two-digit number: a folder of new files is one line. */
static const char *const toy_files[][2] = {
    {"?? data/mutants/lab", "/"}, {"?? data/rubrics/lab", ".yaml"}, {"?? data/stubs/lab", ".c"},
    {"?? grader/labs/lab", ".c"}, {"?? labs/lab", "-rowsums/"}, {"?? solutions/lab", "-rowsums/"},
};

static char *base, *tree, *log_path, *attnlab;

/* Run the command line fmt... in the copy (output to the log); its exit status. */
static int in_copy(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int in_copy(const char *fmt, ...)
{
    gr_strbuf cmd = {0};
    va_list ap;
    va_start(ap, fmt);
    gr_sb_vprintf(&cmd, fmt, ap);
    va_end(ap);
    /* the copy is a tree of its own: not the settings of the make running this suite
       (make test-asan passes SANITIZE=1 down, which would build the copy elsewhere) */
    int rc = fk_sh(log_path, "cd '%s' && unset MAKEFLAGS MFLAGS MAKELEVEL SANITIZE BUILD && %s",
                   tree, cmd.s);
    free(cmd.s);
    return rc;
}

/* The log's text since it was last read, for messages and checks. */
static char *log_text(void)
{
    char *text = gr_read_file(log_path, NULL);
    FILE *f = fopen(log_path, "w");
    if (f)
        fclose(f);
    return text ? text : gr_xstrdup("");
}

/* Replace the lines between the one holding begin and the one holding end. */
static void fill_region(const char *rel, const char *begin, const char *end, const char *body)
{
    char *path = gr_xasprintf("%s/%s", tree, rel), *text = gr_read_file(path, NULL);
    ck_assert_msg(text, "cannot read %s", path);
    char *b = strstr(text, begin), *e = b ? strstr(b, end) : NULL;
    ck_assert_msg(b && e, "%s has no region '%s' ... '%s'", rel, begin, end);
    b = strchr(b, '\n') + 1;
    while (e > b && e[-1] != '\n')
        e--;
    char *filled = gr_xasprintf("%.*s%s%s", (int)(b - text), text, body, e);
    ck_assert_int_eq(gr_write_file_atomic(path, filled, strlen(filled)), 0);
    free(filled);
    free(text);
    free(path);
}

/* What git status says of the copy against the tree as copied (its commit). */
static char *copy_status(void)
{
    ck_assert_int_eq(in_copy("git status --porcelain --untracked-files=normal"), 0);
    return log_text();
}

static void copy_tree(void)
{
    base = fk_suite_dir("newlab");
    ck_assert_ptr_nonnull(base);
    tree = gr_xasprintf("%s/tree", base);
    log_path = gr_xasprintf("%s/log", base);
    attnlab = fk_attnlab();
    ck_assert_ptr_nonnull(attnlab);
    /* the sources as git knows them (tracked and new, ignored ones never),
       else every file but build/ */
    const char *root = fk_root();
    int rc = fk_sh(log_path, "mkdir -p '%s/build' && cd '%s' && { git ls-files -z -co "
                   "--exclude-standard 2>/dev/null | grep -qz . && git ls-files -z -co "
                   "--exclude-standard | tar --null -cf - -T - || tar --exclude=./build "
                   "--exclude=./.git -cf - .; } | tar -xf - -C '%s'",
                   tree, root, tree);
    ck_assert_msg(rc == 0, "cannot copy %s to %s (see %s)", root, tree, log_path);
    /* the system packages are there: this tree's make checked them; the tree as
       copied is the copy's one commit, so git status names every change after */
    ck_assert_int_eq(in_copy("touch build/.deps-ok && git init -q && "
                             "printf 'build/\\n' >>.git/info/exclude && git add -A . && "
                             "git -c user.name=t -c user.email=t@t commit -qm copy"), 0);
}

/* Run new-lab for the toy lab with name (the rest of its description as
   always) and number lab in the copy: its exit status, its output in *out. */
static int toy_new_lab(const char *name, int lab, char **out)
{
    int rc = in_copy("ATTNLAB_ROOT=. '%s' new-lab %d %s --title 'row sums of softmax weights' "
                     "--function '%s' --shape out=rows --shape W=rows,n", attnlab, lab, name,
                     toy_function);
    *out = log_text();
    return rc;
}

/* The toy lab's text fmt (%1$02d or %1$d its number), malloc'd. */
#define toy(fmt) gr_xasprintf(fmt, TOY)

START_TEST(toy_lab_is_added_by_writing_files_only)
{
    copy_tree();
    /* an object that reads the lab count, built for the course as it is */
    ck_assert_int_eq(in_copy("make -s build/grader/base/layout.o"), 0);
    free(log_text());

    char *out, *want_says = toy("attnlab new-lab: lab %1$d, lab%1$02d-rowsums (1 function, "
                                "2 points): 11 files, ");
    int rc = toy_new_lab("rowsums", TOY, &out);
    ck_assert_msg(rc == 0 && strstr(out, want_says) && strstr(out, "Next "), "%d: %s", rc, out);
    free(out);
    gr_strbuf want = {0};
    for (size_t i = 0; i < sizeof toy_files / sizeof *toy_files; i++)
        gr_sb_printf(&want, "%s%02d%s\n", toy_files[i][0], TOY, toy_files[i][1]);
    out = copy_status();
    ck_assert_str_eq(out, want.s);
    free(out);

    /* refused, writing nothing: the lab again, under another name; a number out of turn */
    char *exists = toy("labs/lab%1$02d-rowsums already exists");
    rc = toy_new_lab("other", TOY, &out);
    ck_assert_msg(rc == 2 && strstr(out, exists), "%d: %s", rc, out);
    free(out);
    char *next = gr_xasprintf("the next lab is %d", TOY + 1);
    rc = toy_new_lab("later", TOY + 2, &out);
    ck_assert_msg(rc == 2 && strstr(out, next), "%d: %s", rc, out);
    free(out);
    out = copy_status();
    ck_assert_str_eq(out, want.s);
    free(out);

    /* the two bodies, then one make: the lab found by its files */
    char *sol = toy("solutions/lab%1$02d-rowsums/lab%1$02d.c"), *mod = toy("grader/labs/lab%1$02d.c");
    fill_region(sol, "BEGIN SOLUTION lab_row_sums", "END SOLUTION lab_row_sums", solution_body);
    fill_region(mod, "BEGIN EXPECTED lab_row_sums", "END EXPECTED lab_row_sums", expected_body);
    time_t t0 = time(NULL);
    rc = in_copy("make -s all");
    out = log_text();
    ck_assert_msg(rc == 0, "the copy did not build:\n%s", out);
    printf("newlab: the copy with lab %d built in %ld s\n", TOY, (long)(time(NULL) - t0));
    free(out);

    rc = in_copy("ATTNLAB_ROOT=. build/attnlab validate --lab %d", TOY);
    out = log_text();
    char *full = toy("lab%1$02d-rowsums: solution scores full marks (2/2)");
    char *zero = toy("lab%1$02d-rowsums: stub data/stubs/lab%1$02d.c scores 0");
    ck_assert_msg(rc == 0 && strstr(out, full) && strstr(out, zero) &&
                  strstr(out, " passed, 0 failed"), "%d:\n%s", rc, out);
    free(out);
    rc = in_copy("ATTNLAB_ROOT=. build/attnlab grade --lab %d --submission solutions -q", TOY);
    out = log_text();
    ck_assert_msg(rc == 0 && strstr(out, "Total points: 2.0/2.0"), "%d:\n%s", rc, out);
    free(out);
    rc = in_copy("ATTNLAB_ROOT=. build/attnlab grade --lab %d --submission labs -q", TOY);
    out = log_text();
    ck_assert_msg(strstr(out, "Total points: 0.0/2.0") && strstr(out, "not started"), "%d:\n%s",
                  rc, out);
    free(out);

    /* and every file that was there before is as it was: only new files */
    out = copy_status();
    ck_assert_msg(strcmp(out, want.s) == 0, "new-lab or the build changed a file that was "
                  "there:\n%s", out);
    free(out);
    free(want.s);
    free(want_says);
    free(exists);
    free(next);
    free(sol);
    free(mod);
    free(full);
    free(zero);
}
END_TEST

/* ---- the description, in process ------------------------------------------------ */

START_TEST(signature_is_parsed_into_arguments)
{
    nl_lab lab = {0};
    char err[512] = "";
    ck_assert_msg(nl_add_function(&lab, toy_function, err, sizeof err) == 0, "%s", err);
    const nl_fn *f = &lab.fns[0];
    ck_assert_str_eq(f->name, "lab_row_sums");
    ck_assert_int_eq(f->n_args, 4);
    ck_assert(f->args[0].kind == 'f' && f->args[0].out && f->args[1].kind == 'f' && !f->args[1].out);
    ck_assert(f->args[2].kind == 'n' && f->args[3].kind == 'n');
    ck_assert_str_eq(f->args[1].name, "W");
    ck_assert_msg(nl_check(&lab, err, sizeof err) == -1 && strstr(err, "give the shape of the array out"),
                  "%s", err);
    ck_assert_int_eq(nl_set_shape(&lab, "out=rows", err, sizeof err), 0);
    ck_assert_int_eq(nl_set_shape(&lab, "W=rows,n", err, sizeof err), 0);
    ck_assert_msg(nl_check(&lab, err, sizeof err) == 0, "%s", err);
    ck_assert_double_eq(nl_points(&lab), 2);
    nl_free(&lab);
}
END_TEST

START_TEST(bad_descriptions_say_what_to_fix)
{
    static const struct { const char *sig, *shape, *says; } cases[] = {
        {"void lab_f(float *o, int n)", NULL, "every lab function returns int"},
        {"int f(float *o, int n)", NULL, "starts with lab_"},
        {"int lab_f(double *o, int n)", NULL, "arrays of float, int"},
        {"int lab_f(float **o, int n)", NULL, "at most one '*'"},
        {"int lab_f(const float *x, int n)", "x=n", "writes its answer into an array"},
        {"int lab_f(float *o, int n)", "o=m", "the size 'm' of o"},
        {"int lab_f(float *o, int n)", "o=0", "the size '0' of o"},
        {"int lab_f(float *o, int n)", "n=3", "n is not an array"},
        {"int lab_f(float *o, int n)", "q=n", "an array argument of lab_f"},
        {"int lab_f(float *rng, int n)", "rng=n", "rename the argument rng"},
        {"int lab_f(float *o, int o)", NULL, "two arguments are named o"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nl_lab lab = {0};
        char err[512] = "";
        int rc = nl_add_function(&lab, cases[i].sig, err, sizeof err);
        if (rc == 0 && cases[i].shape)
            rc = nl_set_shape(&lab, cases[i].shape, err, sizeof err);
        if (rc == 0)
            rc = nl_check(&lab, err, sizeof err);
        ck_assert_msg(rc == -1 && strstr(err, cases[i].says), "case %zu (%s): %s", i,
                      cases[i].sig, err);
        nl_free(&lab);
    }
}
END_TEST

/* A description file's mistakes come back as file:line:column. */
START_TEST(description_file_errors_name_the_place)
{
    static const struct { const char *text, *says; } cases[] = {
        {"functions:\n  - signature: \"int lab_f(float *o, int n)\"\n    shape: {o: [n]}\n",
         ":3:5: unknown key \"shape\""},
        {"functions:\n  - signature: \"int lab_f(float *o, int n)\"\n    shapes: {p: [n]}\n",
         ":3:14: shapes: lab_f has no argument p"},
        {"functions: []\n", ":1:12: functions: list at least one function"},
        {"title: x\n", "functions"},
        {"functions:\n  - signature: \"int lab_f(float *o, int n)\"\n    points: -1\n",
         ":3:13: points"},
        {"functions:\n  - name: lab_g\n    signature: \"int lab_f(float *o, int n)\"\n",
         ":2:11: name: lab_g, but the signature declares lab_f"},
    };
    char *dir = fk_mkdtemp("newlab-desc");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = gr_xasprintf("%s/d%zu.yaml", dir, i), err[512] = "";
        ck_assert_int_eq(gr_write_file_atomic(path, cases[i].text, strlen(cases[i].text)), 0);
        nl_lab lab = {0};
        ck_assert_int_eq(nl_load_description(path, &lab, err, sizeof err), -1);
        ck_assert_msg(strstr(err, path) && strstr(err, cases[i].says), "case %zu: %s", i, err);
        nl_free(&lab);
        free(path);
    }
    /* and a good one: the shapes and points as written */
    char *path = gr_xasprintf("%s/good.yaml", dir), err[512] = "";
    const char *good = "title: row sums\nfunctions:\n  - signature: \"int lab_row_sums(float *out, "
                       "const float *W, int rows, int n)\"\n    shapes: {out: [rows], W: [rows, n]}\n"
                       "    points: 3\n";
    ck_assert_int_eq(gr_write_file_atomic(path, good, strlen(good)), 0);
    nl_lab lab = {0};
    ck_assert_msg(nl_load_description(path, &lab, err, sizeof err) == 0 &&
                  nl_check(&lab, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(lab.title, "row sums");
    ck_assert_int_eq(lab.fns[0].args[1].n_dims, 2);
    ck_assert_double_eq(nl_points(&lab), 3);
    nl_free(&lab);
    free(path);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

/* Usage errors: exit 2, one line naming what to fix, before any file is read. */
static int cmd_newlab_nowhere(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_newlab_run(out, err, "/nonexistent/attnlab-tree", argc, argv);
}

START_TEST(usage_errors)
{
    static const struct { const char *args[6]; int n; const char *says; } cases[] = {
        {{"11"}, 1, "give the lab's number and name"},
        {{"100", "x", "--function", "int lab_f(float *o, int n)"}, 4, "from 1 to 99 (got '100')"},
        {{"11", "Row-Sums", "--function", "int lab_f(float *o, int n)"}, 4, "lowercase letters"},
        {{"11", "x"}, 2, "describe the lab's functions"},
        {{"11", "x", "--shape", "o=n"}, 4, "comes after the --function"},
        {{"11", "x", "--title", "a \"b\""}, 4, "--title takes one line"},
        {{"11", "x", "--bogus"}, 3, "'--bogus'"},
        {{"11", "x", "--function", "int lab_f(float *o, int n)", "--shape", "o=n"}, 6,
         "is not one: run it in a clone"},
    };
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        run_result r = run_command(cmd_newlab_nowhere, "new-lab", cases[i].n,
                                   cases[i].args);
        check_usage_error(&r, i, "attnlab new-lab: ", cases[i].says);
        free_result(&r);
    }
}
END_TEST

/* A template that does not expand stops new-lab with nothing of the lab written
   and no staging folder left: a fake tree with the templates (one broken) and
   a lab file of the course, so it counts as a source tree. */
static const char *fake_root;

static int cmd_newlab_fake(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_newlab_run(out, err, fake_root, argc, argv);
}

START_TEST(a_failure_writes_nothing)
{
    char *top = fk_mkdtemp("newlab-fake"), *log = gr_xasprintf("%s/log", top);
    char *dir = gr_xasprintf("%s/tree", top);
    fake_root = dir;
    int rc = fk_sh(log, "mkdir -p '%s/data/newlab' '%s/grader/labs' '%s/labs/%s' && "
                   "touch '%s/labs/%s/lab02.c' && cp '%s'/data/newlab/*.in '%s/data/newlab/' && "
                   "echo @BOGUS@ >>'%s/data/newlab/module.c.in' && "
                   "cd '%s' && find . | LC_ALL=C sort >'%s.before'",
                   dir, dir, dir, gr_lab_modules[1]->dir, dir, gr_lab_modules[1]->dir, fk_root(),
                   dir, dir, dir, dir);
    ck_assert_msg(rc == 0, "cannot make the fake tree (see %s)", log);
    run_result r = CAPTURE(cmd_newlab_fake, "new-lab", "1", "first", "--function",
                           "int lab_f(float *o, int n)", "--shape", "o=n");
    ck_assert_msg(r.rc == 1 && strstr(r.err, "data/newlab/module.c.in:") &&
                  strstr(r.err, "unknown key @BOGUS@"), "%d: %s", r.rc, r.err);
    ck_assert_str_eq(r.out, "");
    rc = fk_sh(log, "cd '%s' && find . | LC_ALL=C sort | cmp -s - '%s.before'", dir, dir);
    ck_assert_msg(rc == 0, "new-lab left files behind in %s", dir);
    free_result(&r);
    fk_rm_rf(top);
    free(top);
    free(log);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("newlab");
    TCase *tc = tcase_create("describe");
    tcase_add_test(tc, signature_is_parsed_into_arguments);
    tcase_add_test(tc, bad_descriptions_say_what_to_fix);
    tcase_add_test(tc, description_file_errors_name_the_place);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, a_failure_writes_nothing);
    suite_add_tcase(s, tc);
    /* one build of the whole copy: minutes on a loaded machine */
    TCase *toy = tcase_create("toy");
    tcase_set_timeout(toy, 1800);
    tcase_add_test(toy, toy_lab_is_added_by_writing_files_only);
    suite_add_tcase(s, toy);
    return s;
}
