/* test_rules.c: the rules text a rubric makes (hand-written expected text),
 * the blocks of the tree's stubs and handouts against their rubrics, and a
 * hand edit of a copied block caught, pinpointed and rewritten.
 * Run from the top of the tree (make test-unit does), so "." is the tree. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/labmod.h"
#include "../engine/rules.h"
#include "../base/util.h"

Suite *test_suite(void);

/* A rubric of lab 99 with three tests: the second overrides the time limit,
   the third the time and output limits. */
static gr_rubric small_rubric(char **headers, int nh, char **symbols, int ns, gr_rubric_test t[3])
{
    gr_rubric r;
    memset(&r, 0, sizeof r);
    static char path[] = "lab99.yaml";
    static char names[3][16] = {"plain", "slow_one", "slow_two"};
    r.path = path;
    r.lab = 99;
    r.allowed_headers = headers;
    r.n_headers = nh;
    r.allowed_symbols = symbols;
    r.n_symbols = ns;
    r.limits = (gr_limits){.time_ms = 1500, .memory_bytes = 1L << 20, .output_bytes = 8192};
    memset(t, 0, 3 * sizeof *t);
    for (int i = 0; i < 3; i++) {
        t[i].name = names[i];
        t[i].limits = r.limits;
    }
    t[1].limits.time_ms = 3000;
    t[2].limits.time_ms = 3000;
    t[2].limits.output_bytes = 4096;
    r.tests = t;
    r.n_tests = 3;
    return r;
}

START_TEST(text_of_a_small_rubric)
{
    char h[3][16] = {"labsup.h", "math.h", "stdio.h"};
    char y[9][16] = {"expf", "exp", "malloc", "free", "printf", "sup_rng_seed", "sqrtl",
                     "sincosf", "fmaf"};
    char *headers[] = {h[0], h[1], h[2]};
    char *symbols[] = {y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7], y[8]};
    gr_rubric_test t[3];
    gr_rubric r = small_rubric(headers, 3, symbols, 9, t);
    char err[256];
    char *text = gr_rules_text(&r, "lab99.h", err, sizeof err);
    ck_assert_msg(text != NULL, "%s", err);
    ck_assert_str_eq(text,
        "- Allowed headers: lab99.h, labsup.h, math.h, stdio.h.\n"
        "- Allowed library functions:\n"
        "  - math: expf, exp, sqrtl, sincosf, fmaf.\n"
        "  - memory: malloc, free.\n"
        "  - output: printf.\n"
        "  - support code (labsup.h): sup_rng_seed.\n"
        "- INFINITY, NAN, isinf, isnan and isfinite are macros of math.h, not\n"
        "  calls: use them freely.\n"
        "- Time limit: 1.5 s per test; 3 s for slow_one, slow_two.\n"
        "- Memory limit: 1 MiB of heap per test.\n"
        "- Output limit: 8 KiB of printed output per test; 4 KiB for slow_two.\n"
        "- Otherwise: a header or a function not listed here gives every test of\n"
        "  the lab \"forbidden call\" and 0 points; a test over a limit ends\n"
        "  \"timed out\", \"out of memory\" or \"output limit\" and scores 0.\n");
    free(text);
}
END_TEST

/* No math.h: no sentence on its macros; an empty group says none. */
START_TEST(text_without_math_h)
{
    char h[2][16] = {"lab99.h", "string.h"}, y[] = "memcpy";
    char *headers[] = {h[0], h[1]};
    char *symbols[] = {y};
    gr_rubric_test t[3];
    gr_rubric r = small_rubric(headers, 2, symbols, 1, t);
    char *text = gr_rules_text(&r, "lab99.h", NULL, 0);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "- Allowed headers: lab99.h, labsup.h, string.h.\n"));
    ck_assert_ptr_nonnull(strstr(text, "  - math: none.\n"));
    ck_assert_ptr_null(strstr(text, "INFINITY"));
    free(text);
}
END_TEST

/* A symbol no group holds is the rubric's mistake, named. */
START_TEST(unknown_symbol_is_refused)
{
    char y[2][16] = {"expf", "fopen"};
    char *symbols[] = {y[0], y[1]};
    gr_rubric_test t[3];
    gr_rubric r = small_rubric(NULL, 0, symbols, 2, t);
    char err[256];
    ck_assert_ptr_null(gr_rules_text(&r, "lab99.h", err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "lab99.yaml"));
    ck_assert_ptr_nonnull(strstr(err, "'fopen'"));
    ck_assert_ptr_nonnull(strstr(err, "remove it from the rubric"));
}
END_TEST

/* Every lab of the tree: both blocks are what the rubric makes, every line
   fits 72 columns, and isinf is named as a macro, never as a symbol. */
START_TEST(tree_blocks_match_rubrics)
{
    int lab = _i + 1;
    char diff[2048], err[512], *rubric_name, *files[2];
    int rc = gr_rules_check_lab(".", lab, diff, sizeof diff, err, sizeof err);
    ck_assert_msg(rc == 0, "lab %d: %s", lab, rc < 0 ? err : diff);
    char *text = gr_rules_for_lab(".", lab, &rubric_name, files, err, sizeof err);
    ck_assert_msg(text != NULL, "%s", err);
    for (const char *s = text; *s; s += strcspn(s, "\n") + 1)
        ck_assert_msg(strcspn(s, "\n") <= 72, "lab %d: a line of %zu columns", lab, strcspn(s, "\n"));
    ck_assert_ptr_nonnull(strstr(text, "isinf, isnan"));
    ck_assert_ptr_null(strstr(text, "__isinf"));
    free(text);
    free(rubric_name);
    free(files[0]);
    free(files[1]);
}
END_TEST

/* Copy of lab 2's stub (i = 0) or handout (i = 1) under a fresh folder. */
static char *copy_of(int which, char **dir, char **text, char **rubric_name)
{
    char err[512], *files[2];
    *text = gr_rules_for_lab(".", 2, rubric_name, files, err, sizeof err);
    ck_assert_msg(*text != NULL, "%s", err);
    char tmpl[] = "/tmp/attnlab-rules-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    *dir = gr_xstrdup(tmpl);
    char *to = gr_xasprintf("%s/%s", *dir, which == 0 ? "lab02.c" : "README.md");
    size_t len;
    char *data = gr_read_file(files[which], &len);
    ck_assert_ptr_nonnull(data);
    ck_assert_int_eq(gr_write_file_atomic(to, data, len), 0);
    free(data);
    free(files[0]);
    free(files[1]);
    return to;
}

/* Remove what copy_of made. */
static void drop_copy(char *path, char *dir, char *text, char *rubric_name)
{
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
    free(text);
    free(rubric_name);
}

/* Replace the first from in the file at path by to. */
static void edit(const char *path, const char *from, const char *to)
{
    size_t len;
    char *s = gr_read_file(path, &len);
    char *hit = strstr(s, from);
    ck_assert_msg(hit != NULL, "%s holds no '%s'", path, from);
    char *out = gr_xasprintf("%.*s%s%s", (int)(hit - s), s, to, hit + strlen(from));
    ck_assert_int_eq(gr_write_file_atomic(path, out, strlen(out)), 0);
    free(out);
    free(s);
}

/* A hand edit in the block: check names the file, the line and both texts;
   --write puts the rubric's text back, byte for byte. */
START_TEST(hand_edit_is_caught_and_rewritten)
{
    char *dir, *text, *rubric_name;
    char *path = copy_of(_i, &dir, &text, &rubric_name);
    size_t len;
    char *before = gr_read_file(path, &len);
    char diff[2048], err[512];
    ck_assert_int_eq(gr_rules_check_file(path, rubric_name, text, diff, sizeof diff, err, sizeof err), 0);

    edit(path, "Memory limit: 64 MiB", "Memory limit: 128 MiB");
    ck_assert_int_eq(gr_rules_check_file(path, rubric_name, text, diff, sizeof diff, err, sizeof err), 1);
    char *where = gr_xasprintf("%s:", path);
    ck_assert_msg(strncmp(diff, where, strlen(where)) == 0, "%s", diff);
    ck_assert_msg(strstr(diff, "128 MiB") && strstr(diff, "64 MiB") && strstr(diff, "lab02.yaml") &&
                  strstr(diff, "attnlab rules --write"), "%s", diff);

    int changed;
    ck_assert_int_eq(gr_rules_write_file(path, rubric_name, text, &changed, err, sizeof err), 0);
    ck_assert_int_eq(changed, 1);
    char *after = gr_read_file(path, &len);
    ck_assert_str_eq(after, before);
    ck_assert_int_eq(gr_rules_write_file(path, rubric_name, text, &changed, err, sizeof err), 0);
    ck_assert_int_eq(changed, 0);

    /* a line added at the end of the block is a difference too */
    edit(path, _i == 0 ? " *   END RULES" : "<!-- END RULES",
         _i == 0 ? " *   - Allowed calls: anything\n *   END RULES"
                 : "- Allowed calls: anything\n<!-- END RULES");
    ck_assert_int_eq(gr_rules_check_file(path, rubric_name, text, diff, sizeof diff, err, sizeof err), 1);
    ck_assert_msg(strstr(diff, "no more lines"), "%s", diff);

    free(where);
    free(after);
    free(before);
    drop_copy(path, dir, text, rubric_name);
}
END_TEST

/* No block, or no end line: check and write say what to add. */
START_TEST(broken_block_says_what_to_fix)
{
    char *dir, *text, *rubric_name;
    char *path = copy_of(_i, &dir, &text, &rubric_name);
    char diff[2048], err[512];
    int changed;
    edit(path, "END RULES", "END OF THE RULES");
    ck_assert_int_eq(gr_rules_check_file(path, rubric_name, text, diff, sizeof diff, err, sizeof err), 1);
    ck_assert_msg(strstr(diff, "has no end line"), "%s", diff);
    edit(path, "BEGIN RULES", "BEGIN THE RULES");
    ck_assert_int_eq(gr_rules_check_file(path, rubric_name, text, diff, sizeof diff, err, sizeof err), 1);
    ck_assert_msg(strstr(diff, "no rules block") && strstr(diff, "lab02.yaml"), "%s", diff);
    ck_assert_int_eq(gr_rules_write_file(path, rubric_name, text, &changed, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "no rules block"), "%s", err);
    drop_copy(path, dir, text, rubric_name);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("rules");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, text_of_a_small_rubric);
    tcase_add_test(tc, text_without_math_h);
    tcase_add_test(tc, unknown_symbol_is_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("blocks");
    tcase_add_loop_test(tc, tree_blocks_match_rubrics, 0, GR_N_LABS);
    tcase_add_loop_test(tc, hand_edit_is_caught_and_rewritten, 0, 2);
    tcase_add_loop_test(tc, broken_block_says_what_to_fix, 0, 2);
    suite_add_tcase(s, tc);
    return s;
}
