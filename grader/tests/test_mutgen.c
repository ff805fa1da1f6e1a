/* test_mutgen.c: the mutation operators of `attnlab mutate` (mutgen.h), the
 * type guess that says where an operator compiles (mtok.h), and the
 * reviewed list of equivalent mutants (mutequiv.h). Comments, strings and
 * preprocessor lines must never be mutated; every operator must give exactly
 * the replacements it promises, named so the name survives edits elsewhere;
 * a malformed list must fail at its line and column. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "engine/mtok.h"
#include "engine/mutequiv.h"
#include "engine/mutgen.h"
#include "base/util.h"

Suite *test_suite(void);

/* The mutants of src, as "line|what|mutated line" strings joined by newlines. */
static char *mutants_of(const char *src)
{
    gr_mutation_list l = {0};
    gr_mutgen(src, strlen(src), &l);
    gr_strbuf b = {0};
    for (int i = 0; i < l.n; i++) {
        char *m = gr_mutgen_apply(src, strlen(src), &l.m[i]);
        /* the mutated line: from the start of the mutated line to its end */
        size_t a = l.m[i].offset;
        while (a > 0 && m[a - 1] != '\n')
            a--;
        size_t e = a;
        while (m[e] && m[e] != '\n')
            e++;
        gr_sb_printf(&b, "%d|%s|%.*s\n", l.m[i].line, l.m[i].what, (int)(e - a), m + a);
        free(m);
    }
    gr_mutgen_list_free(&l);
    return b.s ? gr_sb_take(&b) : gr_xstrdup("");
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

START_TEST(comments_strings_and_directives_are_never_mutated)
{
    const char *src =
        "#include <math.h>\n"
        "#define N (1 + 2)\n"
        "/* a < b + 1 */\n"
        "int f(void)\n"
        "{\n"
        "    // x < 2 - 1\n"
        "    puts(\"a < b + 1\");\n"
        "    return 0;\n"
        "}\n";
    char *got = mutants_of(src);
    /* the call deleted, the constant 0 of the return; puts has one argument */
    ck_assert_str_eq(got, "7|delete: statement|    ;\n"
                          "8|constant: 0 -> 1|    return 1;\n"
                          "8|constant: 0 -> -1|    return (-1);\n");
    free(got);
}
END_TEST

START_TEST(relational_arithmetic_and_constants)
{
    const char *src =
        "int f(int a, int b)\n"
        "{\n"
        "    return a < b ? a * 2 : -b;\n"
        "}\n";
    char *got = mutants_of(src);
    ck_assert_str_eq(got,
        "3|relational: < -> <=|    return a <= b ? a * 2 : -b;\n"
        "3|relational: < -> >=|    return a >= b ? a * 2 : -b;\n"
        "3|relational: < -> !=|    return a != b ? a * 2 : -b;\n"
        "3|arithmetic: * -> +|    return a < b ? a + 2 : -b;\n"
        "3|arithmetic: * -> -|    return a < b ? a - 2 : -b;\n"
        "3|arithmetic: * -> /|    return a < b ? a / 2 : -b;\n"
        "3|arithmetic: * -> %|    return a < b ? a % 2 : -b;\n"
        "3|constant: 2 -> 3|    return a < b ? a * 3 : -b;\n"
        "3|constant: 2 -> 1|    return a < b ? a * 1 : -b;\n"
        "3|constant: 2 -> 0|    return a < b ? a * 0 : -b;\n");
    free(got);   /* the unary minus is no arithmetic operator */
}
END_TEST

START_TEST(pointers_declarations_and_returns_are_kept)
{
    const char *src =
        "void f(float *out, const float *in, int n)\n"
        "{\n"
        "    float *p = out;\n"
        "    *p = in[0] * 0.5f;\n"
        "}\n";
    char *got = mutants_of(src);
    ck_assert_str_eq(got,
        "4|delete: statement|    ;\n"
        "4|constant: 0 -> 1|    *p = in[1] * 0.5f;\n"
        "4|constant: 0 -> -1|    *p = in[(-1)] * 0.5f;\n"
        "4|arithmetic: * -> +|    *p = in[0] + 0.5f;\n"
        "4|arithmetic: * -> -|    *p = in[0] - 0.5f;\n"
        "4|arithmetic: * -> /|    *p = in[0] / 0.5f;\n"
        "4|constant: 0.5f -> 0.0f|    *p = in[0] * 0.0f;\n"
        "4|constant: 0.5f -> 1.0f|    *p = in[0] * 1.0f;\n"
        "4|constant: 0.5f -> 1.5f|    *p = in[0] * 1.5f;\n"
        "4|constant: 0.5f -> -0.5f|    *p = in[0] * (-0.5f);\n");
    /* an element of a float array is a real: no % */
    free(got);
}
END_TEST

START_TEST(repeats_on_a_line_are_numbered)
{
    const char *src = "int f(int a)\n{\n    return a < 1 || a < 1;\n}\n";
    char *got = mutants_of(src);
    ck_assert_ptr_nonnull(strstr(got, "3|relational: < -> <=|"));
    ck_assert_ptr_nonnull(strstr(got, "3|relational: < -> <= #2|"));
    ck_assert_ptr_nonnull(strstr(got, "3|constant: 1 -> 2 #2|"));
    ck_assert_ptr_nonnull(strstr(got, "3|logical: || -> &&|    return a < 1 && a < 1;"));
    ck_assert_ptr_null(strstr(got, "#3"));
    free(got);
}
END_TEST

START_TEST(infinity_math_swap_loop_bound)
{
    const char *src =
        "#include <math.h>\n"
        "float g(float a, float b);\n"
        "float f(const float *s, int n)\n"
        "{\n"
        "    float m = -INFINITY;\n"
        "    for (int j = 0; j < n; j++)\n"
        "        m = fmaxf(m, expf(s[j]));\n"
        "    return g(m, sqrtf(m));\n"
        "}\n";
    char *got = mutants_of(src);
    const char *want[] = {
        "5|infinity: -INFINITY -> INFINITY|    float m = INFINITY;\n",
        "5|infinity: -INFINITY -> 0.0f|    float m = 0.0f;\n",
        "6|loop bound: condition - 1|    for (int j = 0; j < n - 1; j++)\n",
        "7|delete: statement|        ;\n",
        "7|math: fmaxf -> fminf|        m = fminf(m, expf(s[j]));\n",
        "7|swap: m, expf(s[j])|        m = fmaxf(expf(s[j]), m);\n",
        "7|math: expf(x) -> (x)|        m = fmaxf(m, (s[j]));\n",
        "8|swap: m, sqrtf(m)|    return g(sqrtf(m), m);\n",
        "8|math: sqrtf(x) -> (x)|    return g(m, (m));\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(got, want[i]), "missing %s in:\n%s", want[i], got);
    /* no delete of the declaration on line 5 or of the return on line 8 */
    ck_assert_ptr_null(strstr(got, "5|delete"));
    ck_assert_ptr_null(strstr(got, "8|delete"));
    free(got);
}
END_TEST

/* The lines of got that hold "line|what|" (what may be a prefix), in order. */
static char *mutants_named(const char *got, const char *line_what)
{
    gr_strbuf b = {0};
    size_t n = strlen(line_what);
    for (const char *p = got; *p;) {
        const char *e = strchr(p, '\n');
        if (strncmp(p, line_what, n) == 0)
            gr_sb_printf(&b, "%.*s\n", (int)(e - p), p);
        p = e + 1;
    }
    return b.s ? gr_sb_take(&b) : gr_xstrdup("");
}

/* got's mutants named by line_what are exactly want. */
static void expect_mutants(const char *got, const char *line_what, const char *want)
{
    char *have = mutants_named(got, line_what);
    ck_assert_msg(strcmp(have, want) == 0, "%s: got\n%s\nwant\n%s", line_what, have, want);
    free(have);
}

START_TEST(arithmetic_each_to_each_other_where_types_allow)
{
    const char *src =
        "float f(int a, int b, float x, float *p, double acc)\n"
        "{\n"
        "    b -= a + b;\n"
        "    acc += x;\n"
        "    return (float)acc * p[a] + (p + b)[0];\n"
        "}\n";
    char *got = mutants_of(src);
    /* integers: every operator, and every assignment */
    expect_mutants(got, "3|arithmetic: -=",
                   "3|arithmetic: -= -> +=|    b += a + b;\n"
                   "3|arithmetic: -= -> *=|    b *= a + b;\n"
                   "3|arithmetic: -= -> /=|    b /= a + b;\n"
                   "3|arithmetic: -= -> %=|    b %= a + b;\n");
    expect_mutants(got, "3|arithmetic: + ",
                   "3|arithmetic: + -> -|    b -= a - b;\n"
                   "3|arithmetic: + -> *|    b -= a * b;\n"
                   "3|arithmetic: + -> /|    b -= a / b;\n"
                   "3|arithmetic: + -> %|    b -= a % b;\n");
    /* a double: no %= */
    expect_mutants(got, "4|arithmetic",
                   "4|arithmetic: += -> -=|    acc -= x;\n"
                   "4|arithmetic: += -> *=|    acc *= x;\n"
                   "4|arithmetic: += -> /=|    acc /= x;\n");
    /* a cast to float and a float element: no %; a pointer: + and - only */
    expect_mutants(got, "5|arithmetic: * ",
                   "5|arithmetic: * -> +|    return (float)acc + p[a] + (p + b)[0];\n"
                   "5|arithmetic: * -> -|    return (float)acc - p[a] + (p + b)[0];\n"
                   "5|arithmetic: * -> /|    return (float)acc / p[a] + (p + b)[0];\n");
    expect_mutants(got, "5|arithmetic: + -> - #2",
                   "5|arithmetic: + -> - #2|    return (float)acc * p[a] + (p - b)[0];\n");
    ck_assert_ptr_null(strstr(got, "5|arithmetic: + -> * #2"));
    free(got);
}
END_TEST

START_TEST(relational_to_the_classic_set)
{
    const char *src =
        "int f(int a, int b)\n"
        "{\n"
        "    return a < b || a > b || a <= b || a >= b || a == b || a != b;\n"
        "}\n";
    char *got = mutants_of(src);
    expect_mutants(got, "3|relational",
        "3|relational: < -> <=|    return a <= b || a > b || a <= b || a >= b || a == b || a != b;\n"
        "3|relational: < -> >=|    return a >= b || a > b || a <= b || a >= b || a == b || a != b;\n"
        "3|relational: < -> !=|    return a != b || a > b || a <= b || a >= b || a == b || a != b;\n"
        "3|relational: > -> >=|    return a < b || a >= b || a <= b || a >= b || a == b || a != b;\n"
        "3|relational: > -> <=|    return a < b || a <= b || a <= b || a >= b || a == b || a != b;\n"
        "3|relational: > -> !=|    return a < b || a != b || a <= b || a >= b || a == b || a != b;\n"
        "3|relational: <= -> <|    return a < b || a > b || a < b || a >= b || a == b || a != b;\n"
        "3|relational: <= -> >|    return a < b || a > b || a > b || a >= b || a == b || a != b;\n"
        "3|relational: >= -> >|    return a < b || a > b || a <= b || a > b || a == b || a != b;\n"
        "3|relational: >= -> <|    return a < b || a > b || a <= b || a < b || a == b || a != b;\n"
        "3|relational: == -> !=|    return a < b || a > b || a <= b || a >= b || a != b || a != b;\n"
        "3|relational: != -> ==|    return a < b || a > b || a <= b || a >= b || a == b || a == b;\n");
    free(got);
}
END_TEST

START_TEST(constants_one_up_one_down_and_zero)
{
    const char *src =
        "float f(int a)\n"
        "{\n"
        "    return a + 0 + 1 + 7 + 0.0f + 1.0f + 0.5;\n"
        "}\n";
    char *got = mutants_of(src);
    expect_mutants(got, "3|constant",
        "3|constant: 0 -> 1|    return a + 1 + 1 + 7 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 0 -> -1|    return a + (-1) + 1 + 7 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 1 -> 2|    return a + 0 + 2 + 7 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 1 -> 0|    return a + 0 + 0 + 7 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 7 -> 8|    return a + 0 + 1 + 8 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 7 -> 6|    return a + 0 + 1 + 6 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 7 -> 0|    return a + 0 + 1 + 0 + 0.0f + 1.0f + 0.5;\n"
        "3|constant: 0.0f -> 1.0f|    return a + 0 + 1 + 7 + 1.0f + 1.0f + 0.5;\n"
        "3|constant: 0.0f -> -1.0f|    return a + 0 + 1 + 7 + (-1.0f) + 1.0f + 0.5;\n"
        "3|constant: 1.0f -> 0.0f|    return a + 0 + 1 + 7 + 0.0f + 0.0f + 0.5;\n"
        "3|constant: 1.0f -> 2.0f|    return a + 0 + 1 + 7 + 0.0f + 2.0f + 0.5;\n"
        "3|constant: 0.5 -> 0.0|    return a + 0 + 1 + 7 + 0.0f + 1.0f + 0.0;\n"
        "3|constant: 0.5 -> 1.0|    return a + 0 + 1 + 7 + 0.0f + 1.0f + 1.0;\n"
        "3|constant: 0.5 -> 1.5|    return a + 0 + 1 + 7 + 0.0f + 1.0f + 1.5;\n"
        "3|constant: 0.5 -> -0.5|    return a + 0 + 1 + 7 + 0.0f + 1.0f + (-0.5);\n");
    free(got);
}
END_TEST

START_TEST(loop_start_and_limit_off_by_one_both_ways)
{
    const char *src =
        "void f(float *w, int i, int n)\n"
        "{\n"
        "    for (int j = i + 1; j < n; j++)\n"
        "        w[j] = 0.0f;\n"
        "    for (int j = 0; j < n; j++)\n"
        "        w[j] = 1.0f;\n"
        "}\n";
    char *got = mutants_of(src);
    expect_mutants(got, "3|loop bound",
                   "3|loop bound: start + 1|    for (int j = i + 1 + 1; j < n; j++)\n"
                   "3|loop bound: start - 1|    for (int j = i + 1 - 1; j < n; j++)\n"
                   "3|loop bound: condition - 1|    for (int j = i + 1; j < n - 1; j++)\n"
                   "3|loop bound: condition + 1|    for (int j = i + 1; j < n + 1; j++)\n");
    /* a start that is a lone constant moves by the constant operator: from -1 */
    expect_mutants(got, "5|loop bound",
                   "5|loop bound: condition - 1|    for (int j = 0; j < n - 1; j++)\n"
                   "5|loop bound: condition + 1|    for (int j = 0; j < n + 1; j++)\n");
    expect_mutants(got, "5|constant: 0 -> -1", "5|constant: 0 -> -1|    for (int j = (-1); j < n; j++)\n");
    free(got);
}
END_TEST

START_TEST(swapped_arguments_of_the_same_type)
{
    const char *src =
        "float g(int a, float x, int b, const float *p, float y);\n"
        "float f(int a, int b, float x, const float *p)\n"
        "{\n"
        "    return g(a, x, b, p, x * 2.0f);\n"
        "}\n";
    char *got = mutants_of(src);
    /* neighbours whatever their types; further apart: a with b, x with x * 2 */
    expect_mutants(got, "4|swap",
                   "4|swap: a, x|    return g(x, a, b, p, x * 2.0f);\n"
                   "4|swap: a, b|    return g(b, x, a, p, x * 2.0f);\n"
                   "4|swap: x, b|    return g(a, b, x, p, x * 2.0f);\n"
                   "4|swap: x, x * 2.0f|    return g(a, x * 2.0f, b, p, x);\n"
                   "4|swap: b, p|    return g(a, x, p, b, x * 2.0f);\n"
                   "4|swap: p, x * 2.0f|    return g(a, x, b, x * 2.0f, p);\n");
    free(got);
}
END_TEST

/* The class gr_mtok_class gives the expression spelled expr on the last line
   of a function whose declarations are decls. */
static int class_of(const char *decls, const char *expr)
{
    char *src = gr_xasprintf("double g(int);\nvoid f(%s)\n{\n    x = %s;\n}\n", decls, expr);
    gr_mtoks ts;
    gr_mtok_tokenize(src, strlen(src), &ts);
    gr_mtok_types(&ts);
    int a = -1, b = -1;
    for (int i = 0; i < ts.n; i++)
        if (gr_mtok_is(&ts, i, "=") && a < 0)
            a = i + 1;
        else if (gr_mtok_is(&ts, i, ";") && a >= 0 && b < 0)
            b = i - 1;
    int cls = gr_mtok_class(&ts, a, b);
    gr_mtok_free(&ts);
    free(src);
    return cls;
}

START_TEST(the_type_guess_reads_declarations)
{
    const char *d = "int n, const float *p, float y, int *len, double acc";
    ck_assert_int_eq(class_of(d, "n * 2 + len[n]"), 0);
    ck_assert_int_eq(class_of(d, "y"), GR_MTOK_REAL);
    ck_assert_int_eq(class_of(d, "p[n * 2]"), GR_MTOK_REAL);   /* the index is no operand */
    ck_assert_int_eq(class_of(d, "*p"), GR_MTOK_REAL);
    ck_assert_int_eq(class_of(d, "p + n"), GR_MTOK_PTR | GR_MTOK_PTR_REAL);
    ck_assert_int_eq(class_of(d, "len + n"), GR_MTOK_PTR);
    ck_assert_int_eq(class_of(d, "(float)n"), GR_MTOK_REAL);
    ck_assert_int_eq(class_of(d, "n + 0.5f"), GR_MTOK_REAL);
    ck_assert_int_eq(class_of(d, "expf(n) + g(n)"), GR_MTOK_REAL);   /* math, and declared double */
    ck_assert_int_eq(class_of(d, "sizeof(float) * n"), 0);
    ck_assert_int_eq(class_of(d, "acc"), GR_MTOK_REAL);
}
END_TEST

START_TEST(the_same_source_gives_the_same_list)
{
    const char *path = "solutions/lab05-masking/lab05.c";
    char *full = gr_xasprintf("%s/%s", fk_root(), path);
    char *text = gr_read_file(full, NULL);
    ck_assert_ptr_nonnull(text);
    char *a = mutants_of(text), *b = mutants_of(text);
    ck_assert_str_eq(a, b);
    ck_assert_int_gt(count_lines(a), 100);
    free(a);
    free(b);
    free(text);
    free(full);
}
END_TEST

/* ---- the list of equivalent mutants ------------------------------------------ */

static char *put_file(const char *dir, const char *text)
{
    char *path = gr_xasprintf("%s/equivalent.yaml", dir);
    ck_assert_int_eq(gr_write_file_atomic(path, text, strlen(text)), 0);
    return path;
}

START_TEST(equivalent_list_loads_and_finds)
{
    const char *dir = fk_suite_dir("mutgen");
    char *path = put_file(dir,
        "lab: 1\n"
        "equivalent:\n"
        "  - line: \"return a < b;\"\n"
        "    mutation: \"relational: < -> <=\"\n"
        "    reason: a and b are never equal\n");
    gr_equiv_set s;
    char err[512];
    ck_assert_int_eq(gr_mutequiv_load(path, &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 1);
    ck_assert_ptr_nonnull(gr_mutequiv_find(&s, 1, "return a < b;", "relational: < -> <="));
    ck_assert_ptr_null(gr_mutequiv_find(&s, 2, "return a < b;", "relational: < -> <="));
    ck_assert_ptr_null(gr_mutequiv_find(&s, 1, "return a < b;", "relational: < -> >="));
    gr_mutequiv_free(&s);
    free(path);
}
END_TEST

START_TEST(equivalent_list_mistakes_fail_at_their_place)
{
    static const struct { const char *text, *want; } cases[] = {
        {"lab: 1\nequivalent:\n  - line: x\n    mutation: y\n",
         "equivalent.yaml:3:5: "},
        {"lab: 99\nequivalent:\n  - {line: x, mutation: y, reason: z}\n",   /* in no course */
         "equivalent.yaml:1:6: lab must be the number of one of the course's labs"},
        {"equivalent:\n  - {line: x, mutation: y, reason: z}\n",
         "is missing the required key \"lab\""},
        {"lab: 1\nequivalent:\n  - line: x\n    mutation: y\n    reason: z\n    why: w\n",
         "equivalent.yaml:6:5: unknown key"},
        {"lab: 1\nequivalent:\n  - {line: x, mutation: y, reason: z}\n"
         "  - {line: x, mutation: y, reason: w}\n",
         "equivalent.yaml:4:5: entry 2 names the same mutant as entry 1"},
    };
    const char *dir = fk_suite_dir("mutgen");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *path = put_file(dir, cases[i].text);
        gr_equiv_set s;
        char err[512];
        ck_assert_int_eq(gr_mutequiv_load(path, &s, err, sizeof err), -1);
        ck_assert_msg(strstr(err, cases[i].want), "case %zu: %s", i, err);
        free(path);
    }
}
END_TEST

/* Each lab's list beside its planted mutants: a lab without one has none, and a
   list in another lab's folder is refused. */
START_TEST(each_lab_keeps_its_own_list)
{
    char *root = gr_xasprintf("%s/eqroot", fk_suite_dir("mutgen"));
    char *dir = gr_xasprintf("%s/data/mutants/lab02", root);
    ck_assert_int_eq(fk_sh("/dev/null", "mkdir -p '%s'", dir), 0);
    char *path = put_file(dir, "lab: 2\nequivalent:\n  - {line: x, mutation: y, reason: z}\n");
    int want[GR_N_LABS];
    for (int l = 0; l < GR_N_LABS; l++)
        want[l] = 1;
    gr_equiv_set s;
    char err[512];
    ck_assert_msg(gr_mutequiv_load_labs(root, want, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(s.n, 1);
    ck_assert_ptr_nonnull(gr_mutequiv_find(&s, 2, "x", "y"));
    gr_mutequiv_free(&s);
    want[1] = 0;
    ck_assert_int_eq(gr_mutequiv_load_labs(root, want, &s, err, sizeof err), 0);
    ck_assert_int_eq(s.n, 0);
    gr_mutequiv_free(&s);
    want[1] = 1;
    free(put_file(dir, "lab: 1\nequivalent:\n  - {line: x, mutation: y, reason: z}\n"));
    ck_assert_int_eq(gr_mutequiv_load_labs(root, want, &s, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "lab02/equivalent.yaml: lab: 1, but the file is lab 2's"), "%s", err);
    free(path);
    free(dir);
    free(root);
}
END_TEST

START_TEST(the_project_lists_load)
{
    int want[GR_N_LABS];
    for (int l = 0; l < GR_N_LABS; l++)
        want[l] = 1;
    gr_equiv_set s;
    char err[512];
    ck_assert_msg(gr_mutequiv_load_labs(fk_root(), want, &s, err, sizeof err) == 0, "%s", err);
    ck_assert_int_gt(s.n, 100);
    for (int i = 0; i < s.n; i++)
        ck_assert_msg(strlen(s.e[i].reason) > 10, "entry %d needs a real reason", i + 1);
    gr_mutequiv_free(&s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("mutgen");
    TCase *tc = tcase_create("operators");
    tcase_add_test(tc, comments_strings_and_directives_are_never_mutated);
    tcase_add_test(tc, relational_arithmetic_and_constants);
    tcase_add_test(tc, pointers_declarations_and_returns_are_kept);
    tcase_add_test(tc, repeats_on_a_line_are_numbered);
    tcase_add_test(tc, infinity_math_swap_loop_bound);
    tcase_add_test(tc, arithmetic_each_to_each_other_where_types_allow);
    tcase_add_test(tc, relational_to_the_classic_set);
    tcase_add_test(tc, constants_one_up_one_down_and_zero);
    tcase_add_test(tc, loop_start_and_limit_off_by_one_both_ways);
    tcase_add_test(tc, swapped_arguments_of_the_same_type);
    tcase_add_test(tc, the_type_guess_reads_declarations);
    tcase_add_test(tc, the_same_source_gives_the_same_list);
    suite_add_tcase(s, tc);
    tc = tcase_create("equivalent");
    tcase_add_test(tc, equivalent_list_loads_and_finds);
    tcase_add_test(tc, equivalent_list_mistakes_fail_at_their_place);
    tcase_add_test(tc, each_lab_keeps_its_own_list);
    tcase_add_test(tc, the_project_lists_load);
    suite_add_tcase(s, tc);
    return s;
}
