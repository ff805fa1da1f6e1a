/* test_hostile_scan.c: submissions that try to slip past the checks on what is
 * compiled, or to flood the reports, against the whole `attnlab grade`
 * program, end to end, with every layer of the confined toolchain and again
 * without the namespace and Landlock layers (ATTNLAB_CONFINE_DISABLE, as on a
 * container grader).
 *
 * Each case's lab 1 file is the lab 1 solution with an attack added (so an
 * attack the grader missed would earn full marks), or a flood written at test
 * time. In a fresh folder T the suite lays out T/sub/lab01-scores/lab01.c and
 * T/sub/lab02-softmax/lab02.c (the lab 2 solution), runs
 *
 *   attnlab grade --submission T/sub --lab 1,2 --student hostile --json T/results.json
 *
 * under a wall-clock cap (timeout(1)), and asserts: exit status 0 or 1;
 * results.json under 1 MiB and read back by the grader's own reader; every lab
 * 1 test scored 0 with the case's verdict, and exactly one of them (the lab's
 * failure is told once) saying what the case says; every lab 2 test passed
 * with full marks; the terminal report under a screenful for the two labs; no
 * line of /etc/passwd in either.
 * ATTNLAB_HOSTILE_CASE=name runs only the case called name.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/report.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

#define CAP_SECONDS    120                /* a grading run that takes longer hangs */
#define JSON_MAX       (1024 * 1024)      /* results.json, whatever the input */
#define TERMINAL_LINES 60                 /* the terminal report for two labs: a screenful */
#define PASSWD_LINE    "root:x:0:0"       /* /etc/passwd's first line, on any Linux */

/* How the lab 1 file is made. */
typedef enum make {
    APPEND,         /* the solution, then the attack */
    PREPEND,        /* the attack, then the solution */
    INCLUDES,       /* 4 MB of forbidden #include lines, then the solution */
    FUNCTIONS       /* the solution, then 30,000 unknown functions in a table */
} make;

typedef struct scan_case {
    const char *name;
    make how;
    const char *attack;     /* the bytes added (attack_len of them when not 0) */
    size_t attack_len;
    const char *verdict;    /* every lab 1 test's verdict; "passed": full marks instead */
    const char *says;       /* the lab's feedback holds this, or NULL */
} scan_case;

#define FORBIDDEN "forbidden call"
#define ASM_FN(body) "\n__attribute__((used)) static int hostile_f(int x)\n{\n    " body "\n    return x;\n}\n"
#define NUL_ATTACK "\nstatic const char hostile_s[] = \"a\0b\";\n" ASM_FN("__asm__(\"nop\");")
#define INCBIN "\".pushsection .rodata\\n.incbin \\\"/usr/include/stdio.h\\\"\\n.popsection\""

static const scan_case cases[] = {
    /* inline assembly in every spelling, refused in the preprocessed text */
    {"asm_keyword", APPEND, ASM_FN("asm(\"nop\");"), 0, FORBIDDEN, "inline assembly (asm)"},
    {"asm_underscores", APPEND, ASM_FN("__asm__ volatile(\"nop\");"), 0, FORBIDDEN, "inline assembly (__asm__)"},
    {"asm_short", APPEND, ASM_FN("__asm volatile(\"\" : \"+r\"(x));"), 0, FORBIDDEN, "inline assembly (__asm)"},
    {"asm_goto", APPEND, ASM_FN("__asm__ goto(\"jmp %l0\" :::: out);\nout:"), 0, FORBIDDEN,
     "inline assembly (__asm__)"},
    {"asm_top_level_incbin", APPEND, "\n__asm__(" INCBIN ");\n", 0, FORBIDDEN, "inline assembly"},
    {"asm_label", APPEND, "\nextern int hostile_x __asm__(\"lab_dot_scores\");\n", 0, FORBIDDEN,
     "inline assembly"},
    {"asm_by_macro_paste", APPEND, "\n#define HOSTILE_CAT(a, b) a##b\n"
     ASM_FN("HOSTILE_CAT(__as, m__)(\"nop\");"), 0, FORBIDDEN, "inline assembly (__asm__)"},
    {"asm_by_trigraph_define", APPEND, "\n\?\?=define HOSTILE_ASM __asm__\n" ASM_FN("HOSTILE_ASM(\"nop\");"), 0,
     FORBIDDEN, "inline assembly (__asm__)"},
    {"asm_in_digraph_block", APPEND, "\n__attribute__((used)) static int hostile_f(int x)\n<%\n"
     "    __asm__(\"\" : \"+r\"(x));\n    return x;\n%>\n", 0, FORBIDDEN, "inline assembly (__asm__)"},
    {"pragma_operator", APPEND, "\n#define HOSTILE_P(x) _Pragma(#x)\nHOSTILE_P(GCC optimize(\"O0\"))\n", 0,
     FORBIDDEN, "#pragma GCC optimize"},
    {"section_by_digraph_attribute", APPEND,
     "\nint hostile_v <:<:gnu::section(\".rodata\\n.incbin \\\"/usr/include/stdio.h\\\"\\n#\"):>:> = 1;\n", 0,
     FORBIDDEN, "section attribute"},

    /* the checks read the very bytes the compiler reads */
    {"nul_byte", APPEND, NUL_ATTACK, sizeof NUL_ATTACK - 1, "compile error", "a NUL byte"},
    {"bom_then_include", PREPEND, "\xef\xbb\xbf#include \"/etc/passwd\"\n", 0, FORBIDDEN, "line 1|lab01.c:1:"},
    {"bom_crlf_solution", PREPEND, "\xef\xbb\xbf/* saved on Windows */\r\n\r\n", 0, "passed", NULL},
    {"line_marker_etc_passwd", APPEND, "\n\?\?=line 1 \"/etc/passwd\"\nint hostile_broken = ;\n", 0, FORBIDDEN,
     "#line"},
    {"line_marker_digraph", APPEND, "\n%: 1 \"/etc/passwd\"\nint hostile_broken = ;\n", 0, FORBIDDEN,
     "#line"},
    {"bom_line_marker", PREPEND, "\xef\xbb\xbf# 1 \"/etc/passwd\"\nint hostile_broken = ;\n", 0, FORBIDDEN, "#line"},
    {"lone_cr_line_marker", APPEND, "\r# 1 \"/etc/passwd\"\rint hostile_broken = ;\r", 0, FORBIDDEN, "#line"},
    {"include_etc_passwd", APPEND, "\n#include \"/etc/passwd\"\n", 0, FORBIDDEN, "/etc/passwd"},

    /* reports bounded whatever the input (graded with every layer only: the
       layers do not change a report) */
    {"flood_forbidden_includes", INCLUDES, NULL, 0, FORBIDDEN, "more #include lines like these"},
    {"flood_unknown_functions", FUNCTIONS, NULL, 0, FORBIDDEN, "and 29995 more functions"},

};

#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

/* The lab 1 file of case c. */
static char *lab_file(const scan_case *c, size_t *len)
{
    char *sol_path = gr_xasprintf("%s/solutions/lab01-scores/lab01.c", fk_root());
    char *sol = gr_read_file(sol_path, NULL);
    ck_assert_msg(sol != NULL, "cannot read %s", sol_path);
    free(sol_path);
    gr_strbuf b = {0};
    size_t alen = c->attack_len ? c->attack_len : c->attack ? strlen(c->attack) : 0;
    if (c->how == PREPEND)
        gr_sb_appendn(&b, c->attack, alen);
    if (c->how == INCLUDES)
        while (b.len < ((size_t)4 << 20) - strlen(sol) - 64)
            gr_sb_append(&b, "#include <unistd.h>\n");
    gr_sb_append(&b, sol);
    if (c->how == APPEND)
        gr_sb_appendn(&b, c->attack, alen);
    if (c->how == FUNCTIONS) {
        for (int i = 0; i < 30000; i++)
            gr_sb_printf(&b, "extern void hostile_f%d(void);\n", i);
        gr_sb_append(&b, "void (*const hostile_table[])(void) = {\n");
        for (int i = 0; i < 30000; i++)
            gr_sb_printf(&b, "    hostile_f%d,\n", i);
        gr_sb_append(&b, "};\n");
    }
    free(sol);
    *len = b.len;
    return gr_sb_take(&b);
}

static void write_file(const char *path, const char *data, size_t len)
{
    ck_assert_msg(gr_write_file_atomic(path, data, len) == 0, "cannot write %s", path);
}

/* Lay out the submission in dir: the case's lab 1 file, the lab 2 solution. */
static void lay_out(const char *dir, const scan_case *c)
{
    char *sub1 = gr_xasprintf("%s/sub/lab01-scores", dir), *sub2 = gr_xasprintf("%s/sub/lab02-softmax", dir);
    char *sub = gr_xasprintf("%s/sub", dir);
    ck_assert(mkdir(sub, 0755) == 0 && mkdir(sub1, 0755) == 0 && mkdir(sub2, 0755) == 0);
    size_t len;
    char *text = lab_file(c, &len);
    char *p1 = gr_xasprintf("%s/lab01.c", sub1);
    write_file(p1, text, len);
    char *sol2 = gr_xasprintf("%s/solutions/lab02-softmax/lab02.c", fk_root());
    char *text2 = gr_read_file(sol2, &len);
    ck_assert_ptr_nonnull(text2);
    char *p2 = gr_xasprintf("%s/lab02.c", sub2);
    write_file(p2, text2, len);
    free(text);
    free(text2);
    free(p1);
    free(p2);
    free(sol2);
    free(sub);
    free(sub1);
    free(sub2);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Case c graded with every layer (layers_off 0) or without the namespace and
   Landlock layers (1). */
static void grade_case(const scan_case *c, int layers_off)
{
    char *dir = fk_mkdtemp("hostile-scan");
    ck_assert_ptr_nonnull(dir);
    lay_out(dir, c);
    char *attnlab = fk_attnlab();
    ck_assert_msg(attnlab != NULL, "build/attnlab is missing: run make first");
    char *log = gr_xasprintf("%s/log", dir);
    int st = fk_sh(log, "cd %s && ATTNLAB_CONFINE_DISABLE=%s NO_COLOR=1 timeout -s KILL %d %s grade "
                   "--submission sub --lab 1,2 --student hostile --json results.json >out.txt 2>err.txt",
                   dir, layers_off ? "namespace,landlock" : "", CAP_SECONDS, attnlab);
    const char *how = layers_off ? "without namespace and Landlock" : "every layer";
    ck_assert_msg(st == 0 || st == 1, "%s (%s): exit status %d", c->name, how, st);

    char *json_path = gr_xasprintf("%s/results.json", dir), *out_path = gr_xasprintf("%s/out.txt", dir);
    struct stat sb;
    ck_assert_msg(stat(json_path, &sb) == 0, "%s (%s): no results.json", c->name, how);
    ck_assert_msg(sb.st_size < JSON_MAX, "%s (%s): results.json is %lld bytes", c->name, how,
                  (long long)sb.st_size);
    char *json = gr_read_file(json_path, NULL), *out = gr_read_file(out_path, NULL);
    ck_assert(json && out);
    ck_assert_msg(count_lines(out) <= TERMINAL_LINES, "%s (%s): the terminal report has %d lines:\n%.3000s",
                  c->name, how, count_lines(out), out);
    ck_assert_msg(!strstr(json, PASSWD_LINE) && !strstr(out, PASSWD_LINE),
                  "%s (%s): /etc/passwd was quoted", c->name, how);

    gr_report r;
    char err[512];
    ck_assert_msg(gr_report_read_json(json_path, &r, err, sizeof err) == 0, "%s: %s", c->name, err);
    int n1 = 0, n2 = 0, said_in = 0;
    for (int i = 0; i < r.n_labs; i++) {
        const gr_lab_result *lab = &r.labs[i];
        for (int j = 0; j < lab->n_tests; j++) {
            const gr_test_result *t = &lab->tests[j];
            const char *v = gr_result_verdict_name(t->verdict);
            if (lab->lab == 2 || strcmp(c->verdict, "passed") == 0) {
                ck_assert_msg(t->verdict == GR_PASSED && t->score == t->max_score,
                              "%s (%s): lab %d %s: %s %g/%g: %.1500s", c->name, how, lab->lab, t->name, v,
                              t->score, t->max_score, t->feedback);
            } else {
                ck_assert_msg(strcmp(v, c->verdict) == 0 && t->score == 0,
                              "%s (%s): %s: %s %g, expected %s: %.1500s", c->name, how, t->name, v, t->score,
                              c->verdict, t->feedback);
            }
            n1 += lab->lab == 1;
            n2 += lab->lab == 2;
            said_in += c->says && lab->lab == 1 && t->feedback && fk_has_one_of(t->feedback, c->says);
        }
    }
    /* the lab's failure is told once, under one test, not copied into each */
    ck_assert_msg(!c->says || said_in == 1, "%s (%s): %d lab 1 tests say '%s':\n%.3000s", c->name, how, said_in,
                  c->says, out);
    ck_assert_msg(n1 > 0 && n2 > 0, "%s (%s): %d tests of lab 1, %d of lab 2", c->name, how, n1, n2);
    gr_result_free(&r);
    free(json);
    free(out);
    free(json_path);
    free(out_path);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}

START_TEST(hostile_scan_case)
{
    const scan_case *c = &cases[_i / 2];
    const char *only = getenv("ATTNLAB_HOSTILE_CASE");
    if (only && *only && strcmp(only, c->name) != 0)
        return;
    int flood = c->how == INCLUDES || c->how == FUNCTIONS;
    if (!flood || _i % 2 == 0)
        grade_case(c, _i % 2);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_scan");
    TCase *tc = tcase_create("submissions");
    tcase_set_timeout(tc, CAP_SECONDS + 30);
    tcase_add_loop_test(tc, hostile_scan_case, 0, 2 * N_CASES);
    suite_add_tcase(s, tc);
    return s;
}
