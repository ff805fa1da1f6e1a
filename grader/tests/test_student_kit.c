/* test_student_kit.c: the kit students get holds no answers and works.
 *
 * scripts/student-kit.sh packs the kit from this build; it is unpacked in a
 * fresh folder. There its labs build (make check), its attnlab grades the
 * untouched stubs to 0 and the solutions to the visible maximum (the sum of
 * the visible tests' points in the tree's rubrics); and nothing inside holds
 * a line of a solution or mutant that the handouts and stubs lack, a
 * mutant's file, a hidden or later-shown test's name, or libattn's source.
 * Every C file the kit ships (visible tests, run programs, labcheck.h,
 * labrun.h, support code) is also read for reference code of any lab: no
 * exp (the heart of every softmax), no log or sqrt outside the support
 * code's normal draws and the run programs' handout formulas, and no
 * dot-product accumulation (x += A[..] * B[..]). The tests' expected values
 * on random inputs are data instead (expected_labNN.h, from kitdata), and
 * those files must be what kitdata makes now.
 * Run from the top of the tree (make test-unit does).
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/cells.h"
#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "engine/mutants.h"
#include "base/rubric.h"
#include "rubricsum.h"
#include "base/util.h"

Suite *test_suite(void);

static char *base, *kit;     /* base/fresh/attnlab-kit */
static int packed;

/* Every shell command's output goes to base/log (fixture_kit.h's fk_sh). */
static char *log_path;
#define sh(...) fk_sh(log_path, __VA_ARGS__)

/* Pack the kit from this build and unpack it in base/fresh (unchecked fixture). */
static void pack_and_unpack(void)
{
    if (base)
        return;
    if ((base = fk_suite_dir("kit")) == NULL)
        return;
    log_path = gr_xasprintf("%s/log", base);
    char *attnlab = fk_attnlab();
    if (!attnlab)
        return;
    *strrchr(attnlab, '/') = '\0';
    kit = gr_xasprintf("%s/fresh/attnlab-kit", base);
    packed = sh("cd %s && sh scripts/student-kit.sh %s %s/out", fk_root(), attnlab, base) == 0 &&
             sh("mkdir %s/fresh && tar -C %s/fresh -xzf %s/out/attnlab-kit.tar.gz", base, base, base) == 0;
    free(attnlab);
}

/* Points of the visible tests of every lab in the tree's rubrics. */
static double visible_max(void)
{
    double sum = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        sum += rubric_points(fk_root(), lab, 1, NULL);
    return sum;
}

/* Grade the kit's labs with the kit's attnlab; score and max from results.json. */
static void kit_grade(double *score, double *max)
{
    ck_assert_int_eq(sh("%s/build/attnlab grade --lab all --submission %s/labs --json %s/r.json -q",
                        kit, kit, base), 0);
    char *path = gr_xasprintf("%s/r.json", base);
    char *json = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(json);
    ck_assert_int_eq(sscanf(json, "{\n  \"score\": %lf,\n  \"max_score\": %lf,", score, max), 2);
    free(json);
    free(path);
}

/* The kit's attnlab holds no path of the machine that built it (its debugging
   sections are stripped), and the kit's README names every package it loads
   at run time (read off the program by ldd and dpkg) and the system it was
   built on. */
START_TEST(kit_program_is_stripped_and_its_needs_said)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    size_t len = 0;
    char *exe = gr_xasprintf("%s/build/attnlab", kit), *bytes = gr_read_file(exe, &len);
    ck_assert_ptr_nonnull(bytes);
    ck_assert_msg(!memmem(bytes, len, fk_root(), strlen(fk_root())),
                  "%s holds the build's path %s", exe, fk_root());
    char *readme = gr_xasprintf("%s/README.md", kit), *text = gr_read_file(readme, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "`build/attnlab` was built on ") && strstr(text, "libjansson4") &&
                  strstr(text, "libseccomp2") && strstr(text, "libyaml-0-2"), "%s", text);
    free(text);
    free(readme);
    free(bytes);
    free(exe);
}
END_TEST

/* The kit's documents are true in the kit: every make target and attnlab
   command its README, syllabus and handouts tell a student to type exists
   there (scripts/kit-commands.sh, run as an unprivileged user, as a student
   unpacks the kit), no course-tree passage is left in them, and none claims
   that hidden tests run on the student's machine. */
START_TEST(kit_documents_are_true_in_the_kit)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    /* the unprivileged user must reach the kit and the checker */
    ck_assert_int_eq(sh("chmod 755 %s %s/fresh && cp %s/scripts/kit-commands.sh %s/ && "
                        "chmod 644 %s/kit-commands.sh", base, base, fk_root(), base, base), 0);
    const char *as = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
    int rc = sh("%ssh %s/kit-commands.sh %s > %s/commands.txt 2>&1", as, base, kit, base);
    char *p = gr_xasprintf("%s/commands.txt", base), *out = gr_read_file(p, NULL);
    ck_assert_msg(rc == 0 && out && strstr(out, ", 0 missing"), "%s", out ? out : "");
    int n = 0;
    ck_assert_msg(sscanf(strstr(out, "kit commands: "), "kit commands: %d", &n) == 1 && n >= 50,
                  "%s", out);
    free(out);
    free(p);
    ck_assert_int_ne(sh("grep -l -e 'tree-only' -e '<!-- kit:' %s/syllabus.md %s/labs/*/README.md",
                        kit, kit), 0);
    /* nor does the kit's own attnlab: its rubrics hold no hidden test */
    ck_assert_int_eq(sh("cd %s && XDG_STATE_HOME=%s/state build/attnlab status > %s/status.txt; "
                        "grep -q \"'attnlab grade' grades the same visible tests; the course "
                        "grades hidden ones too\" %s/status.txt", kit, base, base, base), 0);
    ck_assert_int_ne(sh("grep -E -i -e 'runs? (the )?hidden tests' -e 'hidden tests as well' "
                        "-e 'visible and hidden' %s/README.md %s/syllabus.md %s/labs/*/README.md",
                        kit, kit, kit), 0);
}
END_TEST

START_TEST(kit_builds_and_grades_the_visible_tests)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    double want = visible_max(), score, max;
    ck_assert_double_gt(want, 0);

    /* untouched: every lab is still its stub, the grade is 0 */
    ck_assert_int_eq(sh("make -s -C %s check >%s/check1.txt", kit, base), 0);
    char *p = gr_xasprintf("%s/check1.txt", base);
    char *out = gr_read_file(p, NULL);
    char *none = gr_xasprintf("check: 0 of %d labs pass their visible tests", GR_N_LABS);
    ck_assert_msg(strstr(out, "lab01-scores: not started") && strstr(out, none), "%s", out);
    free(none);
    free(out);
    free(p);
    kit_grade(&score, &max);
    ck_assert_double_eq(score, 0);
    ck_assert_double_eq_tol(max, want, 1e-9);

    /* the solutions in place: lab 1's visible tests pass, the grade is the visible maximum */
    ck_assert_int_eq(sh("cd %s/solutions && for d in lab[0-9][0-9]-*; do "
                        "cp $d/${d%%%%-*}.c %s/labs/$d/; done", fk_root(), kit), 0);
    ck_assert_int_eq(sh("make -s -C %s/labs/lab01-scores test", kit), 0);
    kit_grade(&score, &max);
    ck_assert_double_eq_tol(score, want, 1e-9);
    ck_assert_double_eq_tol(max, want, 1e-9);

    /* the points lines say how much of a lab the kit tests: lab 2's visible
       points of all its rubric's, the rest in hidden tests the kit does not run */
    char v[GR_POINTS_LEN], a[GR_POINTS_LEN], h[GR_POINTS_LEN], v1[GR_POINTS_LEN];
    double vis = rubric_points(fk_root(), 2, 1, NULL), all = rubric_points(fk_root(), 2, 0, NULL);
    char *line = gr_xasprintf("Total points: %s/%s (%s of %s points visible; %s in hidden tests, "
                              "not run here)\n", gr_points1(v1, vis), v1, gr_points(v, vis),
                              gr_points(a, all), gr_points(h, all - vis));
    ck_assert_int_eq(sh("%s/build/attnlab grade --lab 2 --submission %s/labs >%s/grade2.txt",
                        kit, kit, base), 0);
    p = gr_xasprintf("%s/grade2.txt", base);
    out = gr_read_file(p, NULL);
    ck_assert_msg(out && strstr(out, line), "%s\nhas no %s", out, line);
    free(out);
    free(p);
    free(line);
}
END_TEST

/* The line of text that starts with prefix, up to its end (malloc'd), or NULL. */
static char *line_of(const char *text, const char *prefix)
{
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, prefix, strlen(prefix)) == 0)
            return gr_xasprintf("%.*s", (int)strcspn(p, "\n"), p);
    return NULL;
}

/* What a shell command line printed, run in the kit copy dir (malloc'd). */
static char *kit_output(const char *dir, const char *cmd)
{
    char *out = gr_xasprintf("%s/tool.txt", base);
    sh("cd %s && { XDG_STATE_HOME=%s/state-mistakes %s; } >%s 2>&1", dir, base, cmd, out);
    char *text = gr_read_file(out, NULL);
    ck_assert_ptr_nonnull(text);
    free(out);
    return text;
}

/* Catalogued mistakes handed in to a copy of the kit: the issue's two (lab 2's
   softmax without the max, lab 5's row max over the padded keys) and the two
   where make check and the visible tests once disagreed (lab 4's experiment
   without the max, lab 10's (b, h) taken on trust). No tool says the lab
   passes: make check says failing, status partly passed, grade and watch a
   number of tests failing (validate holds make check to the visible tests for
   every catalogued mutant; this holds each tool's words to them). */
START_TEST(no_kit_tool_passes_a_catalogued_mistake)
{
    static const struct { int lab; const char *mutant; } mistakes[] = {
        {2, "no_max_sub"}, {4, "no_max_sub"}, {5, "padmax"}, {10, "extract_unchecked"},
    };
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    char *copy = gr_xasprintf("%s/mistakes", base), err[512];
    ck_assert_int_eq(sh("rm -rf %s && cp -a %s %s", copy, kit, copy), 0);
    for (size_t i = 0; i < sizeof mistakes / sizeof *mistakes; i++) {
        int lab = mistakes[i].lab;
        char *manifest = gr_layout_mutant_manifest(fk_root(), lab), *src = NULL;
        char *solution = gr_layout_solution(fk_root(), lab), *to = gr_layout_student(copy, lab);
        gr_mutant_set set;
        ck_assert_msg(gr_mutants_load(manifest, &set, err, sizeof err) == 0, "%s", err);
        for (int k = 0; k < set.n; k++)
            if (strcmp(set.mutants[k].name, mistakes[i].mutant) == 0)
                ck_assert_msg(gr_mutants_write(&set, &set.mutants[k], solution, base, &src, err,
                                               sizeof err) == 0, "%s", err);
        ck_assert_msg(src && sh("cp %s %s", src, to) == 0, "lab %d: no mutant %s", lab,
                      mistakes[i].mutant);
        gr_mutants_free(&set);
        free(manifest);
        free(solution);
        free(src);
        free(to);
    }
    char *check = kit_output(copy, "make -s check");
    char *status = kit_output(copy, "build/attnlab status");
    char *grade = kit_output(copy, "build/attnlab grade --lab all --submission labs");
    for (size_t i = 0; i < sizeof mistakes / sizeof *mistakes; i++) {
        const char *dir = gr_layout_dir(mistakes[i].lab);
        char *prefix = gr_xasprintf("%s: ", dir), *line = line_of(check, prefix);
        ck_assert_msg(line && strstr(line, ": failing "), "make check:\n%s", check);
        free(line);
        free(prefix);
        prefix = gr_xasprintf("  %s ", dir);
        line = line_of(status, prefix);
        ck_assert_msg(line && strstr(line, " partly passed "), "status:\n%s", status);
        free(line);
        free(prefix);
        prefix = gr_xasprintf("%s ", dir);
        line = line_of(grade, prefix);
        ck_assert_msg(line && strstr(line, " fail"), "grade:\n%s", grade);
        free(line);
        ck_assert_msg(!strstr(grade, "passes."), "grade:\n%s", grade);
        char *cmd = gr_xasprintf("build/attnlab watch --lab %d --submission labs --once "
                                 "--timeout 1; echo \"exit $?\"", mistakes[i].lab);
        char *watch = kit_output(copy, cmd);
        ck_assert_msg(strstr(watch, "visible tests fail") && !strstr(watch, "passes") &&
                      strstr(watch, "exit 1\n"), "watch:\n%s", watch);
        free(watch);
        free(cmd);
        free(prefix);
    }
    free(check);
    free(status);
    free(grade);
    /* a call the lab's rules forbid passes the Check tests; make check asks the
       grader's build (attnlab rules --source), as grade does */
    char *to = gr_layout_student(copy, 1), *manifest = gr_layout_mutant_manifest(fk_root(), 1);
    char *solution = gr_layout_solution(fk_root(), 1), *src = NULL;
    gr_mutant_set set;
    ck_assert_msg(gr_mutants_load(manifest, &set, err, sizeof err) == 0, "%s", err);
    for (int k = 0; k < set.n; k++)
        if (strcmp(set.mutants[k].name, "read_file") == 0)
            ck_assert_msg(gr_mutants_write(&set, &set.mutants[k], solution, base, &src, err,
                                           sizeof err) == 0, "%s", err);
    ck_assert_msg(src && sh("cp %s %s", src, to) == 0, "lab 1: no mutant read_file");
    check = kit_output(copy, "make -s check");
    char *line = line_of(check, "lab01-scores: ");
    ck_assert_msg(line && strstr(line, "breaks the lab's rules") &&
                  strstr(check, "fopen is not allowed"), "make check:\n%s", check);
    free(line);
    free(check);
    gr_mutants_free(&set);
    free(src);
    free(solution);
    free(manifest);
    free(to);
    free(copy);
}
END_TEST

/* text with its comments, string and character literals blanked (newlines
   kept), so a check reads only what compiles (malloc'd). */
static char *code_of(const char *text)
{
    char *c = gr_xstrdup(text);
    for (char *p = c; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
                if (*p != '\n')
                    *p = ' ';
            if (*p)
                p[0] = p[1] = ' ';
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
        } else if (*p == '"' || *p == '\'') {
            char q = *p;
            for (p++; *p && *p != q && *p != '\n'; p++) {
                if (*p == '\\' && p[1])
                    *p++ = ' ';
                *p = ' ';
            }
        }
        if (!*p)
            break;
    }
    return c;
}

/* Whether the code at p calls name: the identifier itself, then "(". */
static int calls(const char *code, const char *p, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(p, name, n) != 0 || (p > code && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
        return 0;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    return *p == '(';
}

/* A statement "x += ... A[..] ... * ... B[..]" with two different arrays
   multiplied: a dot product, the core of labs 1, 3, 5, 6, 7 and 10. */
static int dot_product(const char *stmt)
{
    char first[64] = "";
    int star = 0;
    for (const char *p = stmt; *p; p++) {
        if (*p == '*' && *first)
            star = 1;
        if (*p != '[' || p == stmt)
            continue;
        const char *q = p;
        while (q > stmt && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
            q--;
        if (q == p)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(p - q), q);
        if (!*first)
            snprintf(first, sizeof first, "%s", name);
        else if (star && strcmp(first, name) != 0)
            return 1;
        while (*p && *p != ']')      /* skip the index: its products are offsets */
            p++;
        if (!*p)
            break;
    }
    return 0;
}

/* Reference code in one shipped C file (rel: its path in the kit): each
   finding a line appended to out. */
static void reference_code(const char *rel, const char *text, gr_strbuf *out)
{
    static const char *const exps[] = {"exp", "expf", "expl", "exp2", "exp2f", "expm1",
                                       "expm1f", NULL};
    static const char *const others[] = {"log", "logf", "logl", "log2", "log2f", "log10",
                                         "log1p", "log1pf", "sqrt", "sqrtf", "sqrtl", "pow",
                                         "powf", "tanh", "tanhf", "cbrt", NULL};
    /* the normal draws need log and sqrt; a run program prints the handout's
       predictions (ln T, 1 / sqrt(T)), no lab's function; the predictions
       integrate normal densities (exp of -z^2/2), no softmax */
    int densities = strcmp(rel, "lib/sup_predict.c") == 0;
    int formulas = densities || strcmp(rel, "lib/sup_rng.c") == 0 ||
                   strstr(rel, "/run_lab") != NULL;
    char *code = code_of(text);
    int line = 1;
    for (const char *p = code; *p; p++) {
        if (*p == '\n')
            line++;
        for (int i = 0; exps[i] && !densities; i++)
            if (calls(code, p, exps[i]))
                gr_sb_printf(out, "%s:%d: calls %s\n", rel, line, exps[i]);
        for (int i = 0; others[i] && !formulas; i++)
            if (calls(code, p, others[i]))
                gr_sb_printf(out, "%s:%d: calls %s\n", rel, line, others[i]);
        if (p[0] == '+' && p[1] == '=') {
            const char *end = strchr(p, ';');
            char *stmt = gr_xasprintf("%.*s", (int)(end ? end - p : (long)strlen(p)), p);
            if (dot_product(stmt))
                gr_sb_printf(out, "%s:%d: a dot product (+= A[..] * B[..])\n", rel, line);
            free(stmt);
        }
    }
    free(code);
}

START_TEST(reference_code_is_found)
{
    /* the checks see the code this kit once shipped, and pass what it ships now */
    static const struct { const char *code; int found; } cases[] = {
        {"for (int j = 0; j < n; j++) sum += w[j] = exp(s[j] - m);", 1},
        {"w[j] = dot / sqrt((double)d);", 1},
        {"for (int c = 0; c < d; c++) dot += Q[(b * Tq + i) * d + c] * K[(b * Tk + j) * d + c];", 1},
        {"double w0 = 1.0 / (1.0 + expf(-gap));", 1},
        {"ms += (double)S[n] * (double)S[n];", 0},
        {"/* exp(s - m) */ sum += W[i * Tk + j];", 0},
        {"printf(\"exp(x) and A[i] * B[i]\");", 0},
        {"double expected = 1; x = my_exp(2);", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gr_strbuf out = {0};
        reference_code("labs/x/test_x.c", cases[i].code, &out);
        ck_assert_msg(!out.s == !cases[i].found, "case %zu (%s): %s", i, cases[i].code,
                      out.s ? out.s : "nothing found");
        free(out.s);
    }
}
END_TEST

START_TEST(kit_tests_hold_no_reference_code)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    char *list = gr_xasprintf("%s/c_files", base);
    ck_assert_int_eq(sh("cd %s && find . -type f ! -path './bin/*' \\( -name '*.c' -o -name '*.h' "
                        "\\) | sed 's|^\\./||' | sort >%s", kit, list), 0);
    char *files = gr_read_file(list, NULL);
    ck_assert_ptr_nonnull(files);
    gr_strbuf found = {0};
    int n = 0, tests = 0;
    for (char *rel = strtok(files, "\n"); rel; rel = strtok(NULL, "\n"), n++) {
        char *path = gr_xasprintf("%s/%s", kit, rel);
        char *text = gr_read_file(path, NULL);
        ck_assert_ptr_nonnull(text);
        reference_code(rel, text, &found);
        tests += strstr(rel, "/test_lab") != NULL;
        free(text);
        free(path);
    }
    ck_assert_int_eq(tests, GR_N_LABS);
    ck_assert_int_gt(n, 40);
    ck_assert_msg(found.s == NULL, "reference code in the kit:\n%s", found.s);
    free(files);
    free(list);
    /* the expected values are the ones kitdata makes from the tests' inputs now */
    char *kitdata = fk_attnlab();
    *strrchr(kitdata, '/') = '\0';
    ck_assert_msg(sh("%s/kitdata --check %s", kitdata, fk_root()) == 0,
                  "labs/*/expected_labNN.h are stale: run make kit-data (see %s/log)", base);
    free(kitdata);
}
END_TEST

START_TEST(kit_holds_no_answers)
{
    ck_assert_msg(packed, "the kit was not made: see %s/log", base);
    const char *root = fk_root();
    /* no folder or file of the answers */
    ck_assert_int_eq(sh("cd %s && test -z \"$(find . -path '*solutions*' -o -path '*mutants*' "
                        "-o -name 'attn*.c' -o -name 'attn*.h' -o -path './grader*')\"", kit), 0);
    ck_assert_int_eq(sh("test -z \"$(find %s -name manifest.yaml)\"", kit), 0);
    /* no line of a solution that the handouts, contract headers and stubs do not
       hold (loop headers, allocations and draws aside: every lab has those), and
       no mutant's planted mistake (the "to" text of its
       edits), as a whole line anywhere in the kit, the program's strings included
       (lines of 20 characters or more: braces and "return LAB_OK;" are everyone's) */
    ck_assert_int_eq(sh("cd %s && { find labs -type f \\( -name README.md -o -name 'lab[0-9][0-9].h' "
                        "\\) -exec cat {} +; cat data/stubs/lab*.c; } | sed 's/^[ \\t]*//' >%s/course && "
                        "for d in labs/lab[0-9][0-9]-*; do n=$(basename $d); "
                        "sed 's/^[ \\t]*//' solutions/$n/${n%%%%-*}.c | awk 'length >= 20' | "
                        "grep -Ev '^for \\(|malloc\\(|free\\(|sup_rng_' | "
                        "grep -vxF -f %s/course; done >%s/answers && "
                        "sed -n 's/^ *to: \"\\(.*MISTAKE.*\\)\"$/\\1/p' data/mutants/*/manifest.yaml | "
                        "grep -v '\\\\' >>%s/answers", root, base, base, base, base), 0);
    ck_assert_int_eq(sh("test $(grep -c MISTAKE %s/answers) -gt 10 && test $(wc -l <%s/answers) -gt 100",
                        base, base), 0);                  /* the check checks something */
    ck_assert_int_eq(sh("{ find %s -type f ! -path '*/bin/*' -exec cat {} +; "
                        "find %s/bin -type f -exec strings {} +; } | sed 's/^[ \\t]*//' >%s/kit_lines",
                        kit, kit, base), 0);
    ck_assert_int_eq(sh("grep -qxF -f %s/answers %s/kit_lines", base, base), 1);
    /* no hidden, after_due_date or after_published test, by name, anywhere (the
       program included) */
    gr_strbuf names = {0};
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *path = gr_xasprintf("%s/data/rubrics/lab%02d.yaml", root, lab);
        gr_rubric r;
        char err[512];
        ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
        for (int i = 0; i < r.n_tests; i++)
            if (r.tests[i].visibility != GR_VISIBLE)
                gr_sb_printf(&names, "%s\n", r.tests[i].name);
        gr_rubric_free(&r);
        free(path);
    }
    char *list = gr_sb_take(&names), *path = gr_xasprintf("%s/hidden_names", base);
    ck_assert_int_eq(gr_write_file_atomic(path, list, strlen(list)), 0);
    ck_assert_int_eq(sh("grep -rqwF -f %s %s", path, kit), 1);
    free(list);
    free(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("student_kit");
    TCase *tc = tcase_create("student_kit");
    tcase_add_unchecked_fixture(tc, pack_and_unpack, NULL);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, kit_holds_no_answers);
    tcase_add_test(tc, kit_program_is_stripped_and_its_needs_said);
    tcase_add_test(tc, kit_documents_are_true_in_the_kit);
    tcase_add_test(tc, kit_tests_hold_no_reference_code);
    tcase_add_test(tc, kit_builds_and_grades_the_visible_tests);
    tcase_add_test(tc, no_kit_tool_passes_a_catalogued_mistake);
    suite_add_tcase(s, tc);
    tc = tcase_create("checks");
    tcase_add_test(tc, reference_code_is_found);
    suite_add_tcase(s, tc);
    return s;
}
