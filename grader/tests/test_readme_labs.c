/* test_readme_labs.c: the README's table of the labs ("| lab | concept |
 * student functions | libattn functions | drill banks |") says what the tree
 * says, so it cannot drift. For every lab of the course there is one row, and:
 *   - its folder is the one the lab's functions' handout sections name;
 *   - its concept is the lab's title in syllabus.md ("### Lab N: title (MN)");
 *   - its student functions are the lab's functions (gr_lab_functions);
 *   - its libattn functions are exactly the attn_ functions its grader module
 *     (grader/labs/labNN.c) calls, each declared in lib/attn.h;
 *   - its drill banks are the banks whose row of the syllabus's bank table
 *     lists the lab ("generated" aside: no file), each a data/drills/NAME.yaml.
 * A failure names the lab, the column, what the table says and what is true.
 *
 * And every course name a rubric's sizes and params may hold (param_names in
 * grader/base/rubric.c, the names the course's generators read) has its row in the
 * README's table of them and its entry in the man page's RUBRICS section, and
 * the table has no other row (a lab's own names are its manifest's param_names).
 *
 * And doc/hacking.md's table of the layers names scripts/check-layers.sh's
 * layers, in its order, and its base row its folder and every module in it.
 */
#include <check.h>
#include <dirent.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/labmod.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

#define MAX_NAMES 32

/* A list of names, kept sorted so two lists compare as sets. */
typedef struct names {
    char *v[MAX_NAMES];
    int n;
} names;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void names_add(names *s, const char *p, size_t len)
{
    for (int i = 0; i < s->n; i++)
        if (strlen(s->v[i]) == len && strncmp(s->v[i], p, len) == 0)
            return;
    ck_assert_int_lt(s->n, MAX_NAMES);
    s->v[s->n++] = gr_xasprintf("%.*s", (int)len, p);
    qsort(s->v, (size_t)s->n, sizeof *s->v, cmp_str);
}

/* "a, b, c" of s (malloc'd), for messages. */
static char *names_text(const names *s)
{
    gr_strbuf b = {0};
    for (int i = 0; i < s->n; i++)
        gr_sb_printf(&b, "%s%s", i ? ", " : "", s->v[i]);
    return gr_sb_take(&b);
}

static void names_free(names *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->v[i]);
    s->n = 0;
}

/* Fail unless got and want hold the same names. */
static void same_names(int lab, const char *column, const names *got, const names *want,
                       const char *source)
{
    char *g = names_text(got), *w = names_text(want);
    ck_assert_msg(strcmp(g, w) == 0, "README lab %d, %s: the table says {%s}; %s says {%s}",
                  lab, column, g, source, w);
    free(g);
    free(w);
}

/* The words of cell text[0..len) separated by commas, backquotes and spaces. */
static void cell_names(const char *text, size_t len, names *out)
{
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        size_t k = 0;
        while (p + k < end && (isalnum((unsigned char)p[k]) || p[k] == '_'))
            k++;
        if (k)
            names_add(out, p, k);
        p += k ? k : 1;
    }
}

static char *read_tree_file(const char *rel)
{
    char *path = gr_xasprintf("%s/%s", fk_root(), rel);
    char *text = gr_read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    free(path);
    return text;
}

/* The table's row of lab (its five cells' text, borrowed from readme), or 0
   when it has none. */
static int table_row(const char *readme, int lab, const char *cell[5], size_t len[5])
{
    const char *head = strstr(readme, "| lab | concept | student functions | libattn functions "
                                      "| drill banks |\n");
    ck_assert_msg(head != NULL, "README.md has no table of the labs");
    const char *line = strchr(head, '\n') + 1;
    line = strchr(line, '\n') + 1;                  /* the |---| line */
    for (; *line == '|'; line = strchr(line, '\n') + 1) {
        const char *p = line + 1;
        for (int c = 0; c < 5; c++) {
            const char *bar = strpbrk(p, "|\n");
            ck_assert_msg(bar && *bar == '|', "README: a row of the labs' table has fewer "
                          "than five cells: %.80s", line);
            while (*p == ' ')
                p++;
            cell[c] = p;
            len[c] = (size_t)(bar - p);
            while (len[c] && p[len[c] - 1] == ' ')
                len[c]--;
            p = bar + 1;
        }
        if (atoi(cell[0]) == lab)
            return 1;
    }
    return 0;
}

/* The lab's folder as its first function's handout names it. */
static char *lab_folder(int lab)
{
    for (int k = 0; k < gr_n_lab_functions; k++)
        if (gr_lab_functions[k].lab == lab) {
            const char *h = gr_lab_functions[k].handout;       /* labs/DIR/README.md, ... */
            ck_assert(strncmp(h, "labs/", 5) == 0);
            return gr_xasprintf("%.*s", (int)strcspn(h + 5, "/"), h + 5);
        }
    ck_abort_msg("lab %d has no functions", lab);
    return NULL;
}

/* The syllabus's title of lab: "### Lab N: title (MN)". */
static char *syllabus_title(const char *syllabus, int lab)
{
    char key[32];
    snprintf(key, sizeof key, "\n### Lab %d: ", lab);
    const char *p = strstr(syllabus, key);
    ck_assert_msg(p != NULL, "syllabus.md has no \"### Lab %d:\" section", lab);
    p += strlen(key);
    size_t n = strcspn(p, "\n");
    const char *paren = memchr(p, '(', n);
    if (paren)
        n = (size_t)(paren - p);
    while (n && p[n - 1] == ' ')
        n--;
    return gr_xasprintf("%.*s", (int)n, p);
}

/* Every attn_NAME( in text. */
static void attn_calls(const char *text, names *out)
{
    for (const char *p = strstr(text, "attn_"); p; p = strstr(p + 1, "attn_")) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        size_t k = 5;
        while (isalnum((unsigned char)p[k]) || p[k] == '_')
            k++;
        if (p[k] == '(')
            names_add(out, p, k);
    }
}

/* The banks whose row of the syllabus's bank table ("| bank | questions |
   lessons | labs |") lists lab. */
static void syllabus_banks(const char *syllabus, int lab, names *out)
{
    const char *head = strstr(syllabus, "| bank | questions | lessons | labs |\n");
    ck_assert_msg(head != NULL, "syllabus.md has no table of drill banks");
    const char *line = strchr(strchr(head, '\n') + 1, '\n') + 1;
    for (; *line == '|'; line = strchr(line, '\n') + 1) {
        size_t bank = strcspn(line + 2, " |");
        const char *labs = line;
        for (int bars = 0; bars < 4; bars++)
            labs = strchr(labs, '|') + 1;                 /* the fourth column */
        size_t n = strcspn(labs, "|\n");
        for (const char *p = labs; p < labs + n; p++)
            if (isdigit((unsigned char)*p) && (p == labs || !isdigit((unsigned char)p[-1])) &&
                atoi(p) == lab && strncmp(line + 2, "generated", bank) != 0)
                names_add(out, line + 2, bank);
    }
}

START_TEST(every_lab_has_its_row)
{
    int lab = _i + 1;
    char *readme = read_tree_file("README.md"), *syllabus = read_tree_file("syllabus.md");
    const char *cell[5];
    size_t len[5];
    ck_assert_msg(table_row(readme, lab, cell, len), "README's table of the labs has no row "
                  "for lab %d; add | %d `folder` | its syllabus title | its functions | the "
                  "attn_ functions its module calls | its drill banks |", lab, lab);

    char *folder = lab_folder(lab), *want = gr_xasprintf("%d `%s`", lab, folder);
    ck_assert_msg(strlen(want) == len[0] && strncmp(cell[0], want, len[0]) == 0,
                  "README lab %d: the first cell is \"%.*s\"; it should be \"%s\"", lab,
                  (int)len[0], cell[0], want);
    char *title = syllabus_title(syllabus, lab);
    ck_assert_msg(strlen(title) == len[1] && strncmp(cell[1], title, len[1]) == 0,
                  "README lab %d, concept: \"%.*s\"; syllabus.md's title is \"%s\"", lab,
                  (int)len[1], cell[1], title);

    names got = {0}, truth = {0};
    cell_names(cell[2], len[2], &got);
    for (int k = 0; k < gr_n_lab_functions; k++)
        if (gr_lab_functions[k].lab == lab)
            names_add(&truth, gr_lab_functions[k].name, strlen(gr_lab_functions[k].name));
    same_names(lab, "student functions", &got, &truth, "the lab's function list");
    names_free(&got);
    names_free(&truth);

    char *module_rel = gr_xasprintf("grader/labs/lab%02d.c", lab);
    char *module = read_tree_file(module_rel), *header = read_tree_file("lib/attn.h");
    cell_names(cell[3], len[3], &got);
    attn_calls(module, &truth);
    same_names(lab, "libattn functions", &got, &truth, module_rel);
    for (int i = 0; i < got.n; i++) {
        char *decl = gr_xasprintf(" %s(", got.v[i]);
        ck_assert_msg(strstr(header, decl) != NULL, "README lab %d: %s is not declared in "
                      "lib/attn.h", lab, got.v[i]);
        free(decl);
    }
    names_free(&got);
    names_free(&truth);

    cell_names(cell[4], len[4], &got);
    syllabus_banks(syllabus, lab, &truth);
    same_names(lab, "drill banks", &got, &truth, "syllabus.md's bank table");
    for (int i = 0; i < got.n; i++) {
        char *bank = gr_xasprintf("%s/data/drills/%s.yaml", fk_root(), got.v[i]);
        ck_assert_msg(fk_is_file(bank), "README lab %d: drill bank %s is not a file", lab, bank);
        free(bank);
    }
    names_free(&got);
    names_free(&truth);

    free(module_rel);
    free(module);
    free(header);
    free(title);
    free(folder);
    free(want);
    free(readme);
    free(syllabus);
}
END_TEST

/* No row for a lab the course does not have. */
START_TEST(no_row_for_another_lab)
{
    char *readme = read_tree_file("README.md");
    const char *cell[5];
    size_t len[5];
    ck_assert_msg(!table_row(readme, 0, cell, len), "README's table of the labs has a row "
                  "that is no lab");
    ck_assert_msg(!table_row(readme, GR_N_LABS + 1, cell, len), "README's table of the labs "
                  "has a row for lab %d, which the course does not have", GR_N_LABS + 1);
    free(readme);
}
END_TEST

/* The text from the line starting with start to the first line starting with
   stop after it (malloc'd). */
static char *section(const char *text, const char *start, const char *stop, const char *file)
{
    const char *a = strstr(text, start);
    ck_assert_msg(a != NULL, "%s has no \"%s\"", file, start);
    const char *b = strstr(a + strlen(start), stop);
    return gr_xasprintf("%.*s", (int)(b ? b - a : (long)strlen(a)), a);
}

/* Does man page text hold a ".B a, b, ..." line naming name? */
static int man_names(const char *text, const char *name)
{
    for (const char *line = strstr(text, "\n.B "); line; line = strstr(line + 1, "\n.B ")) {
        const char *p = line + 4, *end = p + strcspn(p, "\n");
        size_t n = strlen(name);
        for (; p < end; p++)
            if ((p[-1] == ' ' || p[-1] == ',') && strncmp(p, name, n) == 0 &&
                (p + n == end || p[n] == ',' || p[n] == ' '))
                return 1;
    }
    return 0;
}

START_TEST(every_rubric_name_is_documented)
{
    char *rubric = read_tree_file("grader/base/rubric.c"), *readme = read_tree_file("README.md");
    char *man = read_tree_file("doc/attnlab.1");
    char *list = section(rubric, "static const char *const param_names[] = {", "};",
                         "grader/base/rubric.c");
    char *table = section(readme, "| name | what it does | kinds |", "\n\n", "README.md");
    char *rubrics = section(man, ".SH RUBRICS", "\n.SH ", "doc/attnlab.1");
    int seen = 0;
    for (const char *q = strchr(list, '"'); q; q = strchr(q + 1, '"')) {
        const char *end = strchr(q + 1, '"');
        char *name = gr_xasprintf("%.*s", (int)(end - q - 1), q + 1);
        char *quoted = gr_xasprintf("`%s`", name);
        ck_assert_msg(strstr(table, quoted) != NULL, "README.md: the rubric name %s (read by a "
                      "generator, listed in grader/base/rubric.c) has no row in the table of sizes "
                      "and params", name);
        ck_assert_msg(man_names(rubrics, name), "doc/attnlab.1: the rubric name %s has no "
                      "entry in RUBRICS", name);
        free(quoted);
        free(name);
        q = end;
        seen++;
    }
    ck_assert_int_gt(seen, 10);
    /* and the other way: every row names course names, none the loader rejects */
    for (const char *row = strstr(table, "\n| `"); row; row = strstr(row + 1, "\n| `")) {
        const char *end = strstr(row + 3, " |");
        for (const char *q = strchr(row + 3, '`'); q && q < end; q = strchr(q + 1, '`')) {
            const char *e = strchr(q + 1, '`');
            char *name = gr_xasprintf("%.*s", (int)(e - q - 1), q + 1);
            ck_assert_msg(gr_rubric_param_known(name), "README.md: the table of sizes and params "
                          "has a row for %s, which is no course name (grader/base/rubric.c); a lab's "
                          "own names are its manifest's param_names", name);
            free(name);
            q = e;
        }
    }
    free(rubric);
    free(readme);
    free(man);
    free(list);
    free(table);
    free(rubrics);
}
END_TEST

/* The text of line "key" of check-layers.sh from its first quote to the
   next (malloc'd), or NULL. */
static char *script_quoted(const char *script, const char *key)
{
    const char *p = strstr(script, key);
    if (!p || !(p = strchr(p, '"')))
        return NULL;
    const char *end = strchr(p + 1, '"');
    return end ? gr_xasprintf("%.*s", (int)(end - p - 1), p + 1) : NULL;
}

START_TEST(hacking_names_the_layers)
{
    char *script = read_tree_file("scripts/check-layers.sh"), *doc = read_tree_file("doc/hacking.md");
    char *order = script_quoted(script, "BEGIN { split(");
    ck_assert_msg(order, "check-layers.sh: no list of the layers' names");
    char *table = section(doc, "| layer | what it holds |", "\n\n", "doc/hacking.md");
    const char *row = table;
    int n = 0;
    for (char *tok = strtok(order, " "); tok; tok = strtok(NULL, " "), n++) {
        gr_strbuf want = {0};                              /* report/learn: "| report, learn |" */
        gr_sb_append(&want, "\n| ");
        for (const char *c = tok; *c; c++)
            gr_sb_append(&want, *c == '/' ? ", " : (char[2]){*c, '\0'});
        gr_sb_append(&want, " |");
        const char *at = strstr(row, want.s);
        ck_assert_msg(at, "doc/hacking.md's table of the layers has no row '%s' after the "
                      "previous one (check-layers.sh's order)", tok);
        row = at + 1;
        free(want.s);
    }
    ck_assert_int_ge(n, 5);
    /* the base row names its folder and every module in it */
    const char *base_row = strstr(table, "\n| base |");
    ck_assert_msg(base_row, "doc/hacking.md's table of the layers has no base row");
    const char *row_end = strchr(base_row + 1, '\n');
    char *row_text = gr_xasprintf("%.*s", (int)(row_end ? row_end - base_row : (long)strlen(base_row)),
                                  base_row);
    ck_assert_msg(strstr(row_text, "`grader/base/`"), "doc/hacking.md's base row does not name "
                  "its folder, `grader/base/`");
    DIR *d = opendir("grader/base");
    ck_assert_msg(d, "no folder grader/base (run from the top of the tree)");
    for (struct dirent *e; (e = readdir(d)); ) {
        size_t len = strlen(e->d_name);
        if (len < 3 || e->d_name[len - 2] != '.' || !strchr("ch", e->d_name[len - 1]))
            continue;
        char *name = gr_xasprintf("`%.*s", (int)len - 2, e->d_name);
        ck_assert_msg(strstr(row_text, name), "doc/hacking.md's base row does not name %s` "
                      "(grader/base/%s is in the base layer)", name, e->d_name);
        free(name);
    }
    closedir(d);
    free(row_text);
    free(table);
    free(order);
    free(script);
    free(doc);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("readme_labs");
    TCase *tc = tcase_create("table");
    tcase_add_loop_test(tc, every_lab_has_its_row, 0, GR_N_LABS);
    tcase_add_test(tc, no_row_for_another_lab);
    tcase_add_test(tc, every_rubric_name_is_documented);
    tcase_add_test(tc, hacking_names_the_layers);
    suite_add_tcase(s, tc);
    return s;
}
