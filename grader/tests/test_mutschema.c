/* test_mutschema.c: many mutants in one program (mutschema.h). The functions a
 * schema forwards are found with their parameters; a schema compiled with the
 * system compiler runs, for every selector, exactly what the mutant built alone
 * runs (the fast path against the reference path), and the solution itself
 * when the selector is left alone; a compiler's errors are traced to the
 * mutants that made them; the selector is patched only where its tag is. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/mutgen.h"
#include "engine/mutschema.h"
#include "base/util.h"

Suite *test_suite(void);

START_TEST(functions_are_found_with_their_parameters)
{
    const char *src =
        "#include <stdio.h>\n"
        "static const int table[3] = {1, 2, 3};\n"
        "struct pair { int a, b; };\n"
        "static float twice(const float *restrict x, int n)\n"
        "{ return 2.0f * x[n - 1]; }\n"
        "void fill(float out[4], float (*fn)(float), int count) { (void)out; (void)fn; (void)count; }\n"
        "int none(void) { return table[0]; }\n"
        "int say(const char *fmt, ...) { return fmt[0]; }\n";
    gr_cfunc_list fl = {0};
    gr_mutgen_functions(src, strlen(src), &fl);
    ck_assert_int_eq(fl.n, 4);
    const char *names[] = {"twice", "fill", "none", "say"};
    const char *args[] = {"x, n", "out, fn, count", "", "fmt"};
    const int voids[] = {0, 1, 0, 0}, forward[] = {1, 1, 1, 0}, statics[] = {1, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq((int)fl.f[i].name_len, (int)strlen(names[i]));
        ck_assert(memcmp(src + fl.f[i].name, names[i], fl.f[i].name_len) == 0);
        ck_assert_str_eq(fl.f[i].args, args[i]);
        ck_assert_int_eq(fl.f[i].returns_void, voids[i]);
        ck_assert_int_eq(fl.f[i].forwardable, forward[i]);
        ck_assert_int_eq(fl.f[i].is_static, statics[i]);
        ck_assert_int_eq(src[fl.f[i].body], '{');
        ck_assert_int_eq(src[fl.f[i].end - 1], '}');
    }
    ck_assert(strncmp(src + fl.f[0].start, "static float twice", 18) == 0);
    ck_assert(strncmp(src + fl.f[2].start, "int none", 8) == 0);
    gr_mutgen_functions_free(&fl);
}
END_TEST

/* A small lab: a helper with a label, a void function, a recursive one. */
static const char lab_src[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "static const int bias[2] = {1, 2};\n"
    "static int clamp(int v, int lo)\n"
    "{\n"
    "    if (v < lo)\n"
    "        goto low;\n"
    "    return v + bias[0];\n"
    "low:\n"
    "    return lo;\n"
    "}\n"
    "static void add(int *acc, int v) { *acc += clamp(v, 3); }\n"
    "static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
    "int main(void)\n"
    "{\n"
    "    int acc = 0;\n"
    "    for (int i = 0; i < 6; i++)\n"
    "        add(&acc, i * 2);\n"
    "    printf(\"%d %d\\n\", acc, fact(5));\n"
    "    return 0;\n"
    "}\n";

/* Compile text into dir/name with cc; 0 when it built. */
static int compile(const char *dir, const char *name, const char *text)
{
    char *c = gr_xasprintf("%s/%s.c", dir, name);
    ck_assert_int_eq(gr_write_file_atomic(c, text, strlen(text)), 0);
    char *cmd = gr_xasprintf("cc -std=c11 -O2 -o %s/%s %s 2>/dev/null", dir, name, c);
    int rc = system(cmd);
    free(cmd);
    free(c);
    return rc;
}

/* What program path prints, and how it ends ("exit 0"; 124: stopped after a
   second, a mutant that loops for ever). */
static char *run(const char *path)
{
    char *cmd = gr_xasprintf("timeout 1 %s > %s.out 2>&1; echo \"exit $?\" >> %s.out", path, path,
                             path), *out = gr_xasprintf("%s.out", path);
    ck_assert_int_eq(system(cmd), 0);
    char *text = gr_read_file(out, NULL);
    ck_assert_ptr_nonnull(text);
    free(cmd);
    free(out);
    return text;
}

START_TEST(every_selector_runs_what_its_mutant_alone_runs)
{
    char dir[] = "/tmp/attnlab-mutschema-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    size_t len = strlen(lab_src);
    gr_mutation_list ml = {0};
    gr_cfunc_list fl = {0};
    gr_mutgen(lab_src, len, &ml);
    gr_mutgen_functions(lab_src, len, &fl);
    const gr_mutation **ms = gr_xcalloc((size_t)ml.n, sizeof *ms);
    int n = 0, outside = 0, stillborn = 0;
    for (int i = 0; i < ml.n; i++) {
        char *mutant = gr_mutgen_apply(lab_src, len, &ml.m[i]), name[32];
        snprintf(name, sizeof name, "alone%d", n);
        if (!gr_mutschema_home(&fl, &ml.m[i]))
            outside++;                 /* the file-scope initializer's constants:
                                          1 -> 2, 0 and 2 -> 3, 1, 0 */
        else if (compile(dir, name, mutant) != 0)
            stillborn++;               /* deleting the label's statement, say */
        else
            ms[n++] = &ml.m[i];
        free(mutant);
    }
    ck_assert_int_ge(stillborn, 1);
    ck_assert_int_gt(n, 20);
    ck_assert_int_eq(outside, 5);
    int (*lines)[2] = gr_xcalloc((size_t)n, sizeof *lines);
    char *schema = gr_mutschema_source(lab_src, len, &fl, ms, n, lines);
    ck_assert_int_eq(compile(dir, "schema", schema), 0);
    char *exe_path = gr_xasprintf("%s/schema", dir);
    size_t exe_len;
    char *exe = gr_read_file(exe_path, &exe_len), err[256];
    ck_assert_ptr_nonnull(exe);
    char *solution = run(exe_path);
    ck_assert_str_eq(solution, "38 120\nexit 0\n");   /* clamp: 3 3 5 7 9 11; 5! */
    int differ = 0;
    for (int k = 0; k < n; k++) {
        char *sel = gr_xasprintf("%s/sel%d", dir, k), *alone = gr_xasprintf("%s/alone%d", dir, k);
        ck_assert_int_eq(gr_mutschema_select(exe, exe_len, k, sel, err, sizeof err), 0);
        char *want = run(alone), *got = run(sel);
        /* killed alone exactly when killed in the schema; the same output when
           both end normally (one that never ends may loop alone and overflow
           the stack in the schema, where its recursion is not made a loop) */
        int ended = strstr(want, "exit 0\n") && strstr(got, "exit 0\n");
        ck_assert_msg((strcmp(want, solution) == 0) == (strcmp(got, solution) == 0) &&
                      (!ended || strcmp(want, got) == 0),
                      "mutant %d (%s, line %d): alone %s, in the schema %s",
                      k, ms[k]->what, ms[k]->line, want, got);
        differ += strcmp(want, solution) != 0;
        ck_assert_int_le(lines[k][0], lines[k][1]);
        free(want), free(got), free(sel), free(alone);
    }
    ck_assert_int_gt(differ, n / 2);            /* the mutants do change what runs */
    char *cmd = gr_xasprintf("rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd), free(solution), free(exe), free(exe_path), free(schema), free(lines), free(ms);
    gr_mutgen_functions_free(&fl);
    gr_mutgen_list_free(&ml);
}
END_TEST

START_TEST(errors_are_traced_to_their_mutants)
{
    int lines[3][2] = {{10, 20}, {21, 40}, {41, 60}}, broken[3] = {0};
    const char *log =
        "lab05.c: In function 'f__mut1':\n"
        "lab05.c:25:9: error: label 'done' used but not defined\n"
        "   25 |         goto done;\n"
        "lab05.c:45:3: warning: unused variable 'x'\n"
        "other.h:15:1: error: not the schema's file\n"
        "lab05.c:61:1: error: outside every copy\n";
    ck_assert_int_eq(gr_mutschema_broken(log, "lab05.c", lines, 3, broken), 1);
    ck_assert_int_eq(broken[0], 0);
    ck_assert_int_eq(broken[1], 1);
    ck_assert_int_eq(broken[2], 0);
}
END_TEST

START_TEST(the_selector_is_patched_only_where_its_tag_is)
{
    char tag[16] = GR_MUTSCHEMA_TAG, err[256];
    char prog[64] = {0};
    memcpy(prog + 8, tag, 16);
    memset(prog + 24, 0xff, 4);                 /* -1: the solution */
    char path[] = "/tmp/attnlab-mutsel-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(gr_mutschema_select(prog, sizeof prog, 7, path, err, sizeof err), 0);
    size_t len;
    char *got = gr_read_file(path, &len);
    ck_assert_int_eq((int)len, 64);
    int32_t v;
    memcpy(&v, got + 24, 4);
    ck_assert_int_eq(v, 7);
    ck_assert(memcmp(got, prog, 24) == 0 && memcmp(got + 28, prog + 28, 36) == 0);
    free(got);
    memcpy(prog + 40, tag, 16);                 /* twice: which is the selector? */
    ck_assert_int_eq(gr_mutschema_select(prog, sizeof prog, 7, path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "more than once"));
    ck_assert_int_eq(gr_mutschema_select(prog, 20, 7, path, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "not"));
    unlink(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("mutschema");
    TCase *tc = tcase_create("schema");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, functions_are_found_with_their_parameters);
    tcase_add_test(tc, every_selector_runs_what_its_mutant_alone_runs);
    tcase_add_test(tc, errors_are_traced_to_their_mutants);
    tcase_add_test(tc, the_selector_is_patched_only_where_its_tag_is);
    suite_add_tcase(s, tc);
    return s;
}
