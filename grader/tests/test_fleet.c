/* test_fleet.c: the grading fleets' entry points, run as the fleets run them.
 *
 * Gradescope: scripts/gradescope/bundle.sh makes autograder.zip (lab 1, a
 * known secret); it is unpacked into T/gs/source, given the attnlab built for
 * these tests, and T/gs/run_autograder grades T/gs/submission with
 * ATTNLAB_AUTOGRADER_ROOT=T/gs standing for /autograder. PrairieLearn:
 * scripts/prairielearn/run.sh grades T/pl/student with ATTNLAB_GRADE_ROOT=T/pl
 * standing for /grade, from an image folder laid out as the Dockerfile's last
 * stage does: its COPY lines are read and carried out, from a make install
 * (the first stage) and the tree, and nothing of the answer key's source,
 * solutions or mutants may be among what they copy.
 * Each is run against a solution, an untouched stub and a broken upload, in
 * both layouts (lab folders, flat files); results.json must be valid, score
 * what the rubric says, name the student and show no hidden test in the
 * summary a student always sees. The bundle's secret handling is checked too,
 * and a Gradescope export of the same upload regraded with attnlab batch gives
 * the fleet's student id and score.
 * Run from the top of the tree (make test-unit does).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "textcheck.h"
#include "base/util.h"

Suite *test_suite(void);

/* A syntax error: the broken upload. */
static const char broken_source[] = "#include \"lab01.h\"\nint lab_dot_scores(float *S) {\n";

/* Everything lives under one folder made in Check's parent process (unchecked
   fixture) and removed when it exits. */
static char *base;
static int laid_out;        /* 1 when the bundle and the image were laid out */

/* Every shell command's output goes to base/log (fixture_kit.h's fk_sh). */
static char *log_path;
#define sh(...) fk_sh(log_path, __VA_ARGS__)

/* Carry out the COPY lines of the Dockerfile's last stage into T/image:
   "--from=build /stage/..." from a make install into T/stage (the first
   stage's PREFIX=/opt/attnlab DESTDIR=/stage), the others from the tree.
   Each source is also checked: only the installed program, child objects and
   course data, and the two entry scripts. 1 when all went. */
static int copy_image(const char *root, const char *attnlab)
{
    char *path = gr_xasprintf("%s/scripts/prairielearn/Dockerfile", root);
    char *text = gr_read_file(path, NULL);
    free(path);
    if (!text)
        return 0;
    const char *asan = strstr(attnlab, "/asan/") ? "SANITIZE=1" : "";
    int ok = sh("cd %s && make -s install PREFIX=/opt/attnlab DESTDIR=%s/stage %s >/dev/null",
                root, base, asan) == 0;
    char *last = text, *p;
    while ((p = strstr(last + 1, "\nFROM ")) != NULL)
        last = p;
    int copies = 0;
    for (char *line = strtok(last, "\n"); ok && line; line = strtok(NULL, "\n")) {
        char from[256] = "", src[512], dst[512];
        if (sscanf(line, "COPY --from=%255s %511s %511s", from, src, dst) == 3) {
            static const char *const allowed[] = {"/stage/opt/attnlab/bin/attnlab",
                "/stage/opt/attnlab/lib/attnlab", "/stage/opt/attnlab/share/attnlab"};
            int known = 0;
            for (int i = 0; i < 3; i++)
                known |= strcmp(src, allowed[i]) == 0;
            ck_assert_msg(strcmp(from, "build") == 0 && known, "the image copies %s from %s: "
                          "only the installed program, child objects and course data", src, from);
            ok = sh("mkdir -p %s/image$(dirname %s) && cp -R %s%s %s/image%s", base, dst, base, src,
                    base, dst) == 0;
            copies++;
        } else if (sscanf(line, "COPY %511s %511s", src, dst) == 2) {
            ck_assert_msg(strcmp(src, "scripts/prairielearn/run.sh") == 0 ||
                          strcmp(src, "scripts/stage-submission.sh") == 0,
                          "the image copies %s from the tree: only the entry scripts", src);
            ok = sh("mkdir -p %s/image$(dirname %s) && cp %s/%s %s/image%s", base, dst, root, src,
                    base, dst) == 0;
            copies++;
        }
    }
    free(text);
    return ok && copies == 5;
}

/* Lay out T/gs (the unpacked bundle) and T/image (PrairieLearn's image): the
   bundle gets this build's attnlab and child objects under build/. */
static void lay_out(void)
{
    if (base)
        return;
    if ((base = fk_suite_dir("fleet")) == NULL)
        return;
    log_path = gr_xasprintf("%s/log", base);
    char *attnlab = fk_attnlab();
    if (!attnlab)
        return;
    char *bin = gr_xstrdup(attnlab);
    *strrchr(bin, '/') = '\0';      /* the build folder: attnlab, grader/child/ */
    const char *root = fk_root();
    laid_out =
        sh("cd %s && ATTNLAB_SECRET=fleet-test-secret sh scripts/gradescope/bundle.sh %s/out 1",
           root, base) == 0 &&
        sh("mkdir -p %s/gs/source %s/gs/submission && cd %s/gs/source && unzip -q %s/out/autograder.zip",
           base, base, base, base) == 0 &&
        sh("cp %s/gs/source/run_autograder %s/gs/", base, base) == 0 &&
        sh("mkdir -p %s/gs/source/build/grader && cp %s %s/gs/source/build/ && "
           "cp -R %s/grader/child %s/gs/source/build/grader/", base, attnlab, base, bin, base) == 0 &&
        copy_image(root, attnlab);
    free(bin);
    free(attnlab);
}

/* The file base/rel, read (malloc'd), or NULL. */
static char *read_rel(const char *rel)
{
    char *p = gr_xasprintf("%s/%s", base, rel);
    char *text = gr_read_file(p, NULL);
    free(p);
    return text;
}

/* Put an upload in place of the last one: folder (under base) emptied, then
   lab01.c from src written at rel ("lab01.c" flat, "lab01-scores/lab01.c"
   in the labs layout); src NULL writes text instead. */
static void upload(const char *folder, const char *rel, const char *src, const char *text)
{
    ck_assert_int_eq(sh("rm -rf %s/%s && mkdir -p %s/%s", base, folder, base, folder), 0);
    char *dst = gr_xasprintf("%s/%s/%s", base, folder, rel);
    char *dir = gr_xstrdup(dst);
    *strrchr(dir, '/') = '\0';
    ck_assert_int_eq(sh("mkdir -p %s", dir), 0);
    if (src)
        ck_assert_int_eq(sh("cp %s/%s %s", fk_root(), src, dst), 0);
    else
        ck_assert_int_eq(gr_write_file_atomic(dst, text, strlen(text)), 0);
    free(dir);
    free(dst);
}

/* Run Gradescope's entry point; its results.json (malloc'd, valid JSON). */
static char *gradescope(const char *metadata)
{
    ck_assert_msg(laid_out, "the bundle could not be laid out: see %s/log", base);
    char *meta = gr_xasprintf("%s/gs/submission_metadata.json", base);
    ck_assert_int_eq(gr_write_file_atomic(meta, metadata, strlen(metadata)), 0);
    free(meta);
    sh("rm -f %s/gs/results/results.json", base);
    ck_assert_int_eq(sh("ATTNLAB_AUTOGRADER_ROOT=%s/gs %s/gs/run_autograder", base, base), 0);
    char *json = read_rel("gs/results/results.json");
    ck_assert_msg(json && json_valid(json), "no valid results.json: see %s/log", base);
    return json;
}

/* Run PrairieLearn's entry point with env (assignments); its results.json. */
static char *prairielearn(const char *env)
{
    ck_assert_msg(laid_out, "the image could not be laid out: see %s/log", base);
    sh("rm -f %s/pl/results/results.json", base);
    ck_assert_int_eq(sh("%s ATTNLAB_LABS=1 ATTNLAB_GRADE_ROOT=%s/pl "
                        "sh %s/image/opt/attnlab/share/attnlab/scripts/prairielearn/run.sh",
                        env, base, base), 0);
    char *json = read_rel("pl/results/results.json");
    ck_assert_msg(json && json_valid(json), "no valid results.json: see %s/log", base);
    return json;
}

/* The value of the top-level "output" string in json (malloc'd): the summary. */
static char *output_field(const char *json)
{
    const char *p = strstr(json, "\n  \"output\": \"");
    ck_assert_ptr_nonnull(p);
    p += strlen("\n  \"output\": \"");
    const char *end = strstr(p, "\",\n");
    ck_assert_ptr_nonnull(end);
    return gr_xasprintf("%.*s", (int)(end - p), p);
}

/* Lab 1's rubric: 10 points, 4 of them visible; no hidden test's name may
   appear in what a student always sees. */
static void assert_summary_visible_only(const char *summary, const char *earned)
{
    char *want = gr_xasprintf("attnlab: %s/4.0 points on the tests you can see now", earned);
    ck_assert_msg(strstr(summary, want), "%s not in %s", want, summary);
    ck_assert_ptr_null(strstr(summary, "/10.0"));
    ck_assert_ptr_null(strstr(summary, "hidden_"));
    ck_assert_ptr_null(strstr(summary, "scaled_random"));   /* a hidden test of lab 1 */
    free(want);
}

START_TEST(gradescope_solution_in_lab_folders)
{
    upload("gs/submission", "lab01-scores/lab01.c", "solutions/lab01-scores/lab01.c", NULL);
    char *json = gradescope("{\"id\": 1, \"users\": [{\"email\": \"ada@example.edu\", \"id\": 77, "
                            "\"name\": \"Ada\"}], \"assignment\": {\"title\": \"Lab 1\"}}");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"score\": 10,\n  \"max_score\": 10,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"ada@example.edu\",\n    \"practice_secret\": false,"));
    ck_assert_int_eq(count_of(json, "\"status\": \"failed\""), 0);
    ck_assert_ptr_nonnull(strstr(json, "\"visibility\": \"hidden\""));   /* Gradescope hides them */
    /* the grade as feedback.txt opens with it, shown once grades are published */
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"Your grade\",\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"visibility\": \"after_published\",\n"
                                       "      \"output\": \"Final score: 10/10\\nHidden tests: "));
    ck_assert_ptr_nonnull(strstr(json, "6 of 6 points earned (what they check is not shown)"));
    char *summary = output_field(json);
    assert_summary_visible_only(summary, "4.0");
    free(summary);
    free(json);
}
END_TEST

/* A zip of the student's repository: graded where it is, the report saying
   which file and why, and no grader folder in what the student sees. */
START_TEST(gradescope_zip_of_the_repository)
{
    upload("gs/submission", "attnlab-main/labs/lab01-scores/lab01.c",
           "solutions/lab01-scores/lab01.c", NULL);
    char *json = gradescope("{\"users\": [{\"email\": \"ada@example.edu\"}]}");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"score\": 10,\n  \"max_score\": 10,\n"));
    ck_assert_msg(strstr(json, "graded attnlab-main/labs/lab01-scores/lab01.c: inside the folder "
                               "attnlab-main/labs"), "%.3000s", json);
    ck_assert_msg(!strstr(json, base) && !strstr(json, "/tmp/"), "a grader path:\n%.3000s", json);
    free(json);
}
END_TEST

START_TEST(gradescope_stub_flat_upload)
{
    upload("gs/submission", "lab01.c", "data/stubs/lab01.c", NULL);
    /* no email: the Gradescope user id names the student */
    char *json = gradescope("{\"users\": [{\"id\": 77, \"name\": \"Ada\"}]}");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"score\": 0,\n  \"max_score\": 10,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"77\","));
    ck_assert_int_eq(count_of(json, "\"status\": \"passed\""), 0);
    ck_assert_ptr_nonnull(strstr(json, "still returns LAB_NOT_IMPLEMENTED"));
    char *summary = output_field(json);
    assert_summary_visible_only(summary, "0.0");
    free(summary);
    free(json);
}
END_TEST

START_TEST(gradescope_broken_and_missing)
{
    upload("gs/submission", "lab01.c", NULL, broken_source);
    char *json = gradescope("{\"users\": [{\"email\": \"bob@example.edu\"}]}");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"score\": 0,\n  \"max_score\": 10,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"output\": \"compile error\\n"));
    ck_assert_int_eq(count_of(json, "\"status\": \"passed\""), 0);
    free(json);

    /* nothing of lab 1 in the upload: still graded, every test says what is missing */
    upload("gs/submission", "notes.txt", NULL, "lab01 is coming\n");
    json = gradescope("{}");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"score\": 0,\n  \"max_score\": 10,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"gradescope\","));
    ck_assert_ptr_nonnull(strstr(json, "lab01.c"));
    free(json);
}
END_TEST

/* The number after key in text (key included), which must be there. */
static double number_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    ck_assert_msg(p != NULL, "no %s in %s", key, text);
    return strtod(p + strlen(key), NULL);
}

/* A Gradescope export regraded with attnlab batch names the students as
   run_autograder did and gives the fleet's score: the same id seeds the same
   inputs. The upload is lab 1 with the scores left unscaled (partly right). */
START_TEST(gradescope_export_regrade_gives_the_fleets_grade)
{
    char *sol = gr_read_file(gr_xasprintf("%s/solutions/lab01-scores/lab01.c", fk_root()), NULL);
    const char *from = "scores(S, Q, K, B, Tq, Tk, d, 1.0 / sqrt((double)d));";
    char *at = sol ? strstr(sol, from) : NULL;
    ck_assert_ptr_nonnull(at);
    char *mutant = gr_xasprintf("%.*sscores(S, Q, K, B, Tq, Tk, d, 1.0);%s", (int)(at - sol), sol,
                                at + strlen(from));
    upload("gs/submission", "lab01.c", NULL, mutant);
    char *json = gradescope("{\"id\": 9, \"created_at\": \"2025-02-07T12:00:00.000000-05:00\", "
                            "\"users\": [{\"email\": \"ada@example.edu\", \"id\": 77, \"sid\": \"100\", "
                            "\"name\": \"Ada\"}, {\"email\": \"bob@example.edu\", \"id\": 78}]}");
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"ada@example.edu\","));
    double fleet = number_after(json, "{\n  \"score\": ");
    ck_assert(fleet > 0 && fleet < 10);

    /* the export: the submission's folder and, beside it, the metadata */
    upload("export/submission_9", "lab01.c", NULL, mutant);
    char *meta = gr_xasprintf("%s/export/submission_metadata.yml", base);
    const char *yml = "submission_9:\n  :submitters:\n  - :name: Ada\n    :sid: '100'\n"
                      "    :email: ada@example.edu\n  - :name: Bob\n    :sid: '101'\n"
                      "    :email: bob@example.edu\n  :created_at: 2025-02-07 12:00:00.000000000 -05:00\n";
    ck_assert_int_eq(gr_write_file_atomic(meta, yml, strlen(yml)), 0);
    char *attnlab = fk_attnlab();
    ck_assert_int_eq(sh("ATTNLAB_SECRET=fleet-test-secret %s batch %s/export --out %s/regrade --lab 1 "
                        "--jobs 1 -q", attnlab, base, base), 0);
    char *csv = read_rel("regrade/gradebook.csv");
    ck_assert_ptr_nonnull(csv);
    ck_assert_msg(number_after(csv, "\r\n\"ada@example.edu\",\"Ada\",\"ada@example.edu\",") == fleet &&
                  number_after(csv, "\r\n\"bob@example.edu\",\"Bob\",\"bob@example.edu\",") == fleet,
                  "the fleet gave %g:\n%s", fleet, csv);
    char *regraded = read_rel("regrade/students/ada@example.edu/results.json");
    ck_assert_ptr_nonnull(regraded);
    ck_assert_ptr_nonnull(strstr(regraded, "\"student\": \"ada@example.edu\","));
    ck_assert(number_after(regraded, "{\n  \"score\": ") == fleet);
    free(regraded);
    free(csv);
    free(attnlab);
    free(meta);
    free(json);
    free(mutant);
    free(sol);
}
END_TEST

START_TEST(gradescope_bundle_secret)
{
    ck_assert_msg(laid_out, "see %s/log", base);
    char *secret = read_rel("gs/source/secret");
    ck_assert_str_eq(secret, "fleet-test-secret\n");
    free(secret);
    char *labs = read_rel("gs/source/graded-labs");
    ck_assert_str_eq(labs, "1\n");
    free(labs);
    /* nothing of the answers or the grader's own tests in the bundle */
    ck_assert_int_eq(sh("unzip -l %s/out/autograder.zip | grep -E ' (solutions|data/mutants|grader/tests)/'",
                        base), 1);

    /* no secret given: one is generated, printed once, kept and reused */
    const char *root = fk_root();
    ck_assert_int_eq(sh("cd %s && env -u ATTNLAB_SECRET sh scripts/gradescope/bundle.sh %s/gen "
                        ">%s/gen1.txt", root, base, base), 0);
    ck_assert_int_eq(sh("cd %s && env -u ATTNLAB_SECRET sh scripts/gradescope/bundle.sh %s/gen "
                        ">%s/gen2.txt", root, base, base), 0);
    char *kept = read_rel("gen/secret"), *first = read_rel("gen1.txt"), *second = read_rel("gen2.txt");
    ck_assert_int_ge(strlen(kept), 40);                     /* 32 random bytes in base64 */
    kept[strcspn(kept, "\n")] = '\0';
    ck_assert_ptr_nonnull(strstr(first, kept));
    ck_assert_ptr_null(strstr(second, kept));               /* printed once only */
    ck_assert_ptr_nonnull(strstr(second, "using the secret generated earlier"));
    ck_assert_int_eq(sh("unzip -p %s/gen/autograder.zip secret | grep -qx '%s'", base, kept), 0);
    free(first);
    free(second);
    /* a rebuild with another secret: OUT/secret is the bundle's, not the kept one */
    ck_assert_int_eq(sh("cd %s && ATTNLAB_SECRET=rebuilt-secret sh scripts/gradescope/bundle.sh "
                        "%s/gen >%s/gen3.txt", root, base, base), 0);
    char *now = read_rel("gen/secret"), *third = read_rel("gen3.txt");
    ck_assert_str_eq(now, "rebuilt-secret\n");
    ck_assert_ptr_nonnull(strstr(third, "replaced by ATTNLAB_SECRET"));
    ck_assert_int_eq(sh("unzip -p %s/gen/autograder.zip secret | grep -qx rebuilt-secret", base), 0);
    ck_assert_int_eq(sh("test \"$(stat -c %%a %s/gen/secret)\" = 600", base), 0);
    free(now);
    free(third);
    free(kept);

    /* the public practice secret and a bad LAB are refused */
    ck_assert_int_eq(sh("cd %s && ATTNLAB_SECRET=attnlab-practice sh scripts/gradescope/bundle.sh %s/bad",
                        root, base), 2);
    ck_assert_int_eq(sh("cd %s && ATTNLAB_SECRET=x sh scripts/gradescope/bundle.sh %s/bad one", root, base), 2);
}
END_TEST

START_TEST(prairielearn_solution_stub_broken)
{
    /* the secret from serverFilesCourse, the student from the variant */
    ck_assert_int_eq(sh("mkdir -p %s/pl/serverFilesCourse/attnlab %s/pl/data && "
                        "echo pl-course-secret >%s/pl/serverFilesCourse/attnlab/secret && "
                        "echo '{\"variant_seed\": 4242}' >%s/pl/data/data.json", base, base, base, base), 0);
    upload("pl/student", "lab01.c", "solutions/lab01-scores/lab01.c", NULL);
    char *json = prairielearn("");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"gradable\": true,\n  \"score\": 1,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"variant-4242\",\n    \"practice_secret\": false\n"));
    /* visible tests one by one (4 points), the other 6 points in one entry */
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"tests not shown\""));
    ck_assert_ptr_nonnull(strstr(json, "\"points\": 6,\n      \"max_points\": 6,\n"));
    char *summary = output_field(json);
    assert_summary_visible_only(summary, "4.0");
    free(summary);
    free(json);

    upload("pl/student", "lab01.c", "data/stubs/lab01.c", NULL);
    json = prairielearn("");
    ck_assert_ptr_nonnull(strstr(json, "\"score\": 0,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"message\": \"not implemented\""));
    free(json);

    /* broken: not gradable (no attempt charged), the compiler's message shown */
    upload("pl/student", "lab01.c", NULL, broken_source);
    json = prairielearn("ATTNLAB_STUDENT=s42");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"gradable\": false,\n  \"format_errors\": [\n"
                                       "    \"lab01-scores did not compile"));
    ck_assert_ptr_nonnull(strstr(json, "compiler output:\\n"));
    ck_assert_ptr_nonnull(strstr(json, "error"));
    ck_assert_ptr_null(strstr(json, "\"score\""));
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"s42\","));
    free(json);
    /* configured to charge it: gradable, zero, the compile error in each test */
    json = prairielearn("ATTNLAB_STUDENT=s42 ATTNLAB_COMPILE_ERRORS=graded");
    ck_assert_ptr_nonnull(strstr(json, "{\n  \"gradable\": true,\n  \"score\": 0,\n"));
    ck_assert_ptr_nonnull(strstr(json, "\"message\": \"compile error\""));
    free(json);
}
END_TEST

START_TEST(prairielearn_nothing_to_grade_and_practice)
{
    ck_assert_int_eq(sh("rm -rf %s/pl/serverFilesCourse %s/pl/data", base, base), 0);
    upload("pl/student", "README", NULL, "no code\n");
    char *json = prairielearn("env -u ATTNLAB_SECRET");
    ck_assert_ptr_nonnull(strstr(json, "\"gradable\": false,"));
    ck_assert_ptr_nonnull(strstr(json, "\"format_errors\": [\"No lab file was submitted"));
    ck_assert_ptr_null(strstr(json, "\"score\""));
    free(json);

    /* no secret anywhere: graded, warned, marked */
    upload("pl/student", "lab01.c", "solutions/lab01-scores/lab01.c", NULL);
    json = prairielearn("env -u ATTNLAB_SECRET");
    ck_assert_ptr_nonnull(strstr(json, "\"student\": \"prairielearn\",\n    \"practice_secret\": true\n"));
    ck_assert_ptr_nonnull(strstr(json, "Graded with the public practice secret"));
    char *log = read_rel("log");
    ck_assert_ptr_nonnull(strstr(log, "warning: grading a named student with the public practice secret"));
    free(log);
    free(json);
}
END_TEST

START_TEST(prairielearn_image_holds_no_answers)
{
    ck_assert_msg(laid_out, "the image could not be laid out: see %s/log", base);
    /* every file the COPY lines put in the image: no source of the answer
       key, no solution, no mutant; C files only the pristine stubs */
    char *list = gr_xasprintf("%s/image.txt", base);
    ck_assert_int_eq(sh("cd %s/image && find . -type f > %s", base, list), 0);
    char *files = gr_read_file(list, NULL);
    ck_assert_ptr_nonnull(files);
    int n = 0, stubs = 0;
    for (char *f = strtok(files, "\n"); f; f = strtok(NULL, "\n"), n++) {
        ck_assert_msg(!strstr(f, "solutions") && !strstr(f, "mutants") && !strstr(f, "libattn") &&
                      !strstr(f, "/attn.h") && !strstr(f, "/attn_") && !strstr(f, "/grader/"),
                      "the image holds %s", f);
        size_t len = strlen(f);
        if (len > 2 && strcmp(f + len - 2, ".c") == 0) {
            ck_assert_msg(strstr(f, "/share/attnlab/data/stubs/lab") != NULL,
                          "the image holds the C source %s", f);
            stubs++;
        }
    }
    ck_assert_int_eq(stubs, GR_N_LABS);
    ck_assert_int_gt(n, 40);
    free(files);
    free(list);
    /* and what grading needs is there */
    ck_assert_int_eq(sh("test -x %s/image/opt/attnlab/bin/attnlab && "
                        "test -f %s/image/opt/attnlab/share/attnlab/data/rubrics/lab01.yaml && "
                        "ls %s/image/opt/attnlab/lib/attnlab/child/*.o >/dev/null", base, base, base), 0);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("fleet");
    TCase *tc = tcase_create("fleet");
    tcase_add_unchecked_fixture(tc, lay_out, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, gradescope_solution_in_lab_folders);
    tcase_add_test(tc, gradescope_zip_of_the_repository);
    tcase_add_test(tc, gradescope_stub_flat_upload);
    tcase_add_test(tc, gradescope_broken_and_missing);
    tcase_add_test(tc, gradescope_export_regrade_gives_the_fleets_grade);
    tcase_add_test(tc, gradescope_bundle_secret);
    tcase_add_test(tc, prairielearn_solution_stub_broken);
    tcase_add_test(tc, prairielearn_image_holds_no_answers);
    tcase_add_test(tc, prairielearn_nothing_to_grade_and_practice);
    suite_add_tcase(s, tc);
    return s;
}
