/* test_hostile_cells.c: every cell of every file a batch, a merge, an LMS
 * export and a similarity report write, escaped for its format (cells.h).
 *
 * A class whose folder names (their ids) and roster fields are made to break
 * a file: a Markdown image that fetches, an HTML tag, '|' that adds a table
 * cell, Markdown emphasis and code, x;=2+5;y that a spreadsheet reading
 * ';'-separated CSV splits into a formula, =HYPERLINK, @SUM, +1, -1+2, tab,
 * CR and newline leads, quotes and apostrophes. It is batched (with an LMS
 * export), batched again in two shards and merged, exported in the three LMS
 * formats under a hostile assignment name, and compared by attnlab
 * similarity (Markdown and CSV). Each id comes back from gradebook.csv
 * exactly, so the export finds its roster entry. Then every file written is
 * walked:
 *
 *   CSV       read with ',' and with ';' as the separator (quotes honoured,
 *             as a spreadsheet reads it), and split on every ',', ';', tab
 *             and line end (quotes ignored, as a careless reader does): no
 *             cell starts like a formula; read with ',', every row has the
 *             header's cells
 *   Markdown  no '<' outside a code span but attnlab's own tags, no link or
 *             image, every table row as many unescaped '|' as its header,
 *             each hostile id there, escaped, and never raw
 *   HTML      each hostile id there as text, no image but the embedded one
 *
 * With soffice, each CSV opened in LibreOffice Calc with ',' and with ';'
 * evaluates no cell (a raw x;=2+5;y beside them must: the check can fail).
 */
#include <check.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calc.h"
#include "base/cells.h"
#include "fixtures/fixture_kit.h"
#include "report/report.h"
#include "base/util.h"

Suite *test_suite(void);

/* Folder names: an id may hold anything but '/' and control characters. */
static const char *const ids[] = {
    "![x](https:\\\\host\\beacon.png)",
    "<img src=x onerror=alert(1)>",
    "a|b|c",
    "x;=2+5;y",
    "=HYPERLINK(\"http:\\\\x.invalid\",\"c\")",
    "@SUM(1)",
    "+1",
    "-1+2",
    "*b* _u_ `c` #h ~s~ &amp; $m$",
    "it's \"q\", 'x",
    " =1+2",
    "\\|x",
    "a,=1+1",
    "q;\"=1+2",
};
#define N_IDS ((int)(sizeof ids / sizeof ids[0]))

/* Roster fields (names, emails, SIS ids, sections) may hold any byte. */
static const char *const texts[] = {
    "\t=1+2", "\r=3+4", "two\n=lines", "Lovelace, Ada", "x;=2+5;y", "-1+2", "@SUM(1)",
    "<b>bold</b>|", "=HYPERLINK(\"http://x.invalid\",\"click\")", "a\t@x", "'quoted", " =1",
};
#define N_TEXTS ((int)(sizeof texts / sizeof texts[0]))

#define GHOST "+ghost|<i>"        /* on the roster, no folder */
#define WRAP "[w](x)<i>|"         /* the wrapping folder a forgiving rule looks into */
#define LEADS "=+-@\t\r"

/* What student i hands in: the solution, a mutant with a misconception, a
   file that does not compile, nothing. */
enum { SOLUTION, MUTANT, BROKEN, EMPTY };
static int handin(int i) { return i % 4; }

static char *dir, *attnlab, *log_path;

/* ---- the class ------------------------------------------------------------------- */

static void put(const char *path, const char *text)
{
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
}

static void yaml_str(gr_strbuf *b, const char *s)
{
    gr_sb_append(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            gr_sb_printf(b, "\\%c", *s);
        else if (*s == '\t' || *s == '\r' || *s == '\n')
            gr_sb_append(b, *s == '\t' ? "\\t" : *s == '\r' ? "\\r" : "\\n");
        else
            gr_sb_appendn(b, s, 1);
    }
    gr_sb_append(b, "\"");
}

/* Student id's roster entry, its fields texts from k on. */
static void roster_entry(gr_strbuf *b, const char *id, int k)
{
    static const char *const fields[] = {"name", "email", "sis_user_id", "sis_login_id", "section"};
    gr_sb_append(b, "  - id: ");
    yaml_str(b, id);
    for (int f = 0; f < 5; f++) {
        gr_sb_printf(b, "\n    %s: ", fields[f]);
        yaml_str(b, texts[(k + f) % N_TEXTS]);
    }
    gr_sb_append(b, "\n");
}

static void make_class(void)
{
    char *sol_path = gr_xasprintf("%s/solutions/lab01-scores/lab01.c", fk_root());
    char *sol = gr_read_file(sol_path, NULL);
    ck_assert_ptr_nonnull(sol);
    const char *scaled = "scores(S, Q, K, B, Tq, Tk, d, 1.0 / sqrt((double)d));";
    ck_assert_ptr_nonnull(strstr(sol, scaled));
    char *mutant = fk_replace(sol, scaled, "scores(S, Q, K, B, Tq, Tk, d, 1.0 / (double)d);");
    char *sub = gr_xasprintf("%s/sub", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    gr_strbuf roster = {0};
    gr_sb_append(&roster, "students:\n");
    for (int i = 0; i < N_IDS; i++) {
        char *folder = gr_xasprintf("%s/%s", sub, ids[i]), *file = NULL;
        ck_assert_int_eq(mkdir(folder, 0755), 0);
        if (i == 0) {                     /* found by a forgiving rule, in a hostile path */
            char *wrap = gr_xasprintf("%s/" WRAP, folder);
            ck_assert_int_eq(mkdir(wrap, 0755), 0);
            file = gr_xasprintf("%s/lab01.c", wrap);
            free(wrap);
        } else if (handin(i) != EMPTY) {
            file = gr_xasprintf("%s/lab01.c", folder);
        }
        if (file)
            put(file, handin(i) == SOLUTION ? sol : handin(i) == MUTANT ? mutant
                                                                      : "this is not C\n");
        roster_entry(&roster, ids[i], i);
        free(file);
        free(folder);
    }
    roster_entry(&roster, GHOST, 3);
    char *rp = gr_xasprintf("%s/roster.yaml", dir);
    put(rp, roster.s);
    free(rp);
    free(roster.s);
    free(sub);
    free(mutant);
    free(sol);
    free(sol_path);
}

/* Run attnlab with the arguments fmt makes (paths from the test, never an
   id), in dir; it must exit 0. */
static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
    gr_strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    gr_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    int rc = fk_sh(log_path, "cd %s && ATTNLAB_SECRET=cells-test %s %s", dir, attnlab, b.s);
    char *said = gr_read_file(log_path, NULL);
    ck_assert_msg(rc == 0, "attnlab %s exited %d:\n%s", b.s, rc, said ? said : "");
    free(said);
    free(b.s);
}

/* Everything batch, merge, export and similarity write, into dir/out and
   dir/merged. */
static void write_everything(void)
{
#define BATCH "batch sub --lab 1 --roster roster.yaml --csv-bom -q --out "
    run(BATCH "out --export canvas");
    run(BATCH "s1 --shard 1/2");
    run(BATCH "s2 --shard 2/2");
#undef BATCH
    run("merge s1 s2 --out merged -q");
    static const char *const formats[] = {"canvas", "moodle", "generic"};
    for (int f = 0; f < 3; f++)
        run("export out --format %s --roster roster.yaml --assignment 'x;=2+5;y'", formats[f]);
    run("similarity sub --lab 1 --top 0 --out out/similarity.md --format csv > out/similarity.csv");
}

/* ---- CSV ------------------------------------------------------------------------- */

/* True when s[0..n), spaces and double quotes around it trimmed, starts as a
   formula does: with = + - @ tab or CR, and is not a plain number ("-3"). */
static int formula_like(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '"'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '"'))
        n--;
    if (n == 0 || !strchr(LEADS, *s))
        return 0;
    char *t = gr_xasprintf("%.*s", (int)n, s);
    double v;
    int used = -1;
    int number = sscanf(t, "%lf%n", &v, &used) == 1 && (size_t)used == n &&
                 !strpbrk(t, "+eExXiInN") && *t == '-';
    free(t);
    return !number;
}

/* csv read as a spreadsheet reads it, with separator sep and double quotes
   honoured (text after a closing quote joins its cell): no cell starts like a
   formula; with counts, every row has the header's cells. */
static void csv_read_with(const char *path, const char *csv, char sep, int counts)
{
    const char *p = csv + (strncmp(csv, GR_CSV_BOM, 3) == 0 ? 3 : 0);
    int row = 1, n = 0, head = -1;
    while (*p) {
        gr_strbuf c = {0};
        gr_sb_append(&c, "");
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                p += *p == '"';
                gr_sb_appendn(&c, p, 1);
            }
            p += *p == '"';
        }
        while (*p && *p != sep && *p != '\r' && *p != '\n')
            gr_sb_appendn(&c, p++, 1);
        ck_assert_msg(!formula_like(c.s, c.len), "%s:%d: read with '%c', a cell that starts "
                      "like a formula: [%s]", path, row, sep, c.s);
        free(c.s);
        n++;
        if (*p == sep) {
            p++;
            continue;
        }
        if (counts && head < 0)
            head = n;
        ck_assert_msg(!counts || n == head, "%s:%d: %d cells, the header %d", path, row, n, head);
        n = 0;
        row++;
        p += *p == '\r';
        p += *p == '\n';
    }
}

/* csv split on every ',', ';', tab and line end, quotes ignored: no piece
   starts like a formula. */
static void csv_split_carelessly(const char *path, const char *csv)
{
    for (const char *p = csv;;) {
        size_t n = strcspn(p, ",;\t\r\n");
        ck_assert_msg(!formula_like(p, n), "%s: split carelessly, a piece that starts like a "
                      "formula: [%.*s]", path, (int)n, p);
        if (!p[n])
            break;
        p += n + 1;
    }
}

static void check_csv(const char *path, const char *csv)
{
    csv_read_with(path, csv, ',', 1);
    csv_read_with(path, csv, ';', 0);
    csv_split_carelessly(path, csv);
}

/* ---- Markdown and HTML ------------------------------------------------------------- */

/* line[0..n) without its code spans (a backslash-escaped backquote opens none). */
static char *without_code(const char *line, size_t n)
{
    gr_strbuf b = {0};
    gr_sb_append(&b, "");
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '\\' && i + 1 < n) {
            gr_sb_appendn(&b, line + i, 2);
            i++;
        } else if (line[i] == '`') {
            const char *close = memchr(line + i + 1, '`', n - i - 1);
            ck_assert_msg(close != NULL, "a code span never closed: %.*s", (int)n, line);
            i = (size_t)(close - line);
        } else {
            gr_sb_appendn(&b, line + i, 1);
        }
    }
    return gr_sb_take(&b);
}

/* The '|' of a line that a table reads as cell borders: not backslash-escaped. */
static int borders(const char *line, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        if (line[i] == '\\')
            i++;
        else
            k += line[i] == '|';
    }
    return k;
}

/* A '<' at p opens one of the tags attnlab writes in Markdown (similarity's
   regions side by side). */
static int own_tag(const char *p)
{
    static const char *const tags[] = {"<pre>", "</pre>", "<table>", "</table>", "<tr>",
                                       "</tr>", "<th>", "</th>", "<td>", "</td>"};
    for (size_t k = 0; k < sizeof tags / sizeof tags[0]; k++)
        if (strncmp(p, tags[k], strlen(tags[k])) == 0)
            return 1;
    return 0;
}

/* md's text outside code spans and HTML blocks, checked line by line. An
   HTML block (similarity's regions, from a <table> line to its </table>) is
   HTML, where Markdown is not read: there only the tags are checked. */
static char *check_md(const char *path, const char *md)
{
    gr_strbuf all = {0};
    int cols = -1, html = 0;
    for (const char *line = md; *line;) {
        size_t n = strcspn(line, "\n");
        html |= strncmp(line, "<table>", 7) == 0;
        char *plain = html ? gr_xasprintf("%.*s", (int)n, line) : without_code(line, n);
        for (const char *p = plain; (p = strchr(p, '<')) != NULL; p++)
            ck_assert_msg(own_tag(p), "%s: a '<' not attnlab's: %.*s", path, (int)n, line);
        ck_assert_msg(html || (!strstr(plain, "![") && !strstr(plain, "](")),
                      "%s: a link or image: %.*s", path, (int)n, line);
        int k = line[0] == '|' ? borders(line, n) : -1;
        ck_assert_msg(k < 0 || cols < 0 || k == cols, "%s: %d cell borders where the table has "
                      "%d: %.*s", path, k, cols, (int)n, line);
        cols = k;
        if (!html)
            gr_sb_printf(&all, "%s\n", plain);
        html &= strstr(plain, "</table>") == NULL;
        free(plain);
        line += n + (line[n] == '\n');
    }
    return gr_sb_take(&all);
}

/* Student i's id is in md, escaped, and never raw outside a code span. */
static void md_names(const char *path, const char *md, const char *plain, int i)
{
    gr_strbuf b = {0};
    gr_md_text(&b, ids[i]);
    ck_assert_msg(strstr(md, b.s) != NULL, "%s does not name [%s] as [%s]", path, ids[i], b.s);
    char *rest = fk_replace(plain, b.s, "");       /* the escaped form may hold the raw */
    ck_assert_msg(strcmp(b.s, ids[i]) == 0 || strstr(rest, ids[i]) == NULL,
                  "%s: [%s] raw outside a code span", path, ids[i]);
    free(rest);
    free(b.s);
}

static void check_report_md(const char *path, const char *md)
{
    char *plain = check_md(path, md);
    for (int i = 0; i < N_IDS; i++)
        if (handin(i) != SOLUTION || i == 0)       /* named by a warning or a table */
            md_names(path, md, plain, i);
    free(plain);
}

static void check_similarity_md(const char *path, const char *md)
{
    char *plain = check_md(path, md);
    for (int i = 0; i < N_IDS; i += 4)             /* the identical solutions pair up */
        md_names(path, md, plain, i);
    free(plain);
}

static void check_html(const char *path, const char *html)
{
    for (int i = 0; i < N_IDS; i++) {
        gr_strbuf b = {0};
        gr_report_junit_xml_text(&b, ids[i]);
        ck_assert_msg(strstr(html, b.s) != NULL, "%s does not name [%s] as text", path, ids[i]);
        free(b.s);
    }
    for (const char *p = html; (p = strstr(p, "<img")) != NULL; p++) {
        char *tag = gr_xasprintf("%.*s", (int)strcspn(p, ">"), p);
        ck_assert_msg(strstr(tag, " src=\"data:") && !strstr(tag, "onerror"), "%s: %.80s", path,
                      tag);
        free(tag);
    }
}

/* generic.csv names every student as the roster does: each id read back from
   gradebook.csv exactly (gr_csv_untext), so the roster's email and name are
   found by it. */
static void ids_read_back(void)
{
    char *path = gr_xasprintf("%s/out/generic.csv", dir), *csv = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(csv);
    for (int i = 0; i < N_IDS; i++) {
        gr_strbuf row = {0};
        gr_sb_append(&row, "\r\n");
        gr_csv_text(&row, ids[i]);
        gr_sb_append(&row, ",");
        gr_csv_text(&row, texts[(i + 1) % N_TEXTS]);     /* the roster's email */
        gr_sb_append(&row, ",");
        gr_csv_text(&row, texts[i % N_TEXTS]);           /* and name */
        gr_sb_append(&row, ",");
        ck_assert_msg(strstr(csv, row.s) != NULL, "no row [%s] in %s", row.s, path);
        free(row.s);
    }
    free(csv);
    free(path);
}

/* ---- every file ------------------------------------------------------------------------ */

typedef struct walked {
    char *csv[16];                 /* the CSV files, for LibreOffice */
    int n_csv, n_md, n_html;
} walked;

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* Check every file under folder by its format. */
static void walk(const char *folder, walked *w)
{
    DIR *d = opendir(folder);
    ck_assert_msg(d != NULL, "cannot read %s", folder);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = gr_xasprintf("%s/%s", folder, e->d_name);
        struct stat st;
        ck_assert_int_eq(lstat(path, &st), 0);
        char *text = S_ISREG(st.st_mode) ? gr_read_file(path, NULL) : NULL;
        if (S_ISDIR(st.st_mode)) {
            walk(path, w);
        } else if (ends_with(path, ".csv")) {
            check_csv(path, text);
            ck_assert_int_lt(w->n_csv, 16);
            w->csv[w->n_csv++] = gr_xstrdup(path);
        } else if (ends_with(path, ".md")) {
            (ends_with(path, "similarity.md") ? check_similarity_md : check_report_md)(path, text);
            w->n_md++;
        } else if (ends_with(path, ".html")) {
            check_html(path, text);
            w->n_html++;
        }
        free(text);
        free(path);
    }
    closedir(d);
}

/* Each CSV opened in LibreOffice Calc with ',' and with ';': no formula. */
static void open_in_calc(const walked *w)
{
    if (!calc_have()) {
        fprintf(stderr, "test_hostile_cells: SKIP the LibreOffice checks: no soffice on PATH "
                        "(apt-get install libreoffice-calc-nogui to run them)\n");
        return;
    }
    char *raw = gr_xasprintf("%s/raw.csv", dir);
    put(raw, "id;v\r\nx;=2+5;y\r\n");
    char *fods = calc_open(dir, "raw", ';', dir);
    ck_assert_msg(strstr(fods, "table:formula") != NULL,
                  "LibreOffice evaluated no formula in a raw x;=2+5;y: the check proves nothing");
    free(fods);
    free(raw);
    char *csvs = gr_xasprintf("%s/csv", dir);
    ck_assert_int_eq(mkdir(csvs, 0755), 0);
    for (int i = 0; i < w->n_csv; i++) {
        char *copy = gr_xasprintf("%s/%d.csv", csvs, i), *text = gr_read_file(w->csv[i], NULL);
        put(copy, text);
        free(text);
        free(copy);
    }
    for (int s = 0; s < 2; s++) {
        char sep = s ? ';' : ',';
        char *outdir = gr_xasprintf("%s/calc%d", dir, s);
        calc_convert(dir, "csv/*", sep, outdir);
        for (int i = 0; i < w->n_csv; i++) {
            char *name = gr_xasprintf("%d", i);
            fods = calc_read(dir, name, outdir);
            ck_assert_msg(strstr(fods, "table:formula") == NULL, "%s opened with '%c': a cell "
                          "became a formula", w->csv[i], sep);
            free(fods);
            free(name);
        }
        free(outdir);
    }
    free(csvs);
}

START_TEST(every_cell_of_every_file_is_escaped)
{
    dir = fk_mkdtemp("hostile-cells");
    attnlab = fk_attnlab();
    ck_assert_ptr_nonnull(dir);
    ck_assert_ptr_nonnull(attnlab);
    log_path = gr_xasprintf("%s/log", dir);
    make_class();
    write_everything();
    ids_read_back();
    walked w = {0};
    char *out = gr_xasprintf("%s/out", dir), *merged = gr_xasprintf("%s/merged", dir);
    walk(out, &w);
    walk(merged, &w);
    /* gradebook, tests, canvas, moodle, generic, similarity; the merge's two */
    ck_assert_int_eq(w.n_csv, 8);
    ck_assert_int_eq(w.n_md, 3);          /* report.md twice, similarity.md */
    ck_assert_int_eq(w.n_html, 2);
    open_in_calc(&w);
    for (int i = 0; i < w.n_csv; i++)
        free(w.csv[i]);
    free(out);
    free(merged);
    free(log_path);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_cells");
    TCase *tc = tcase_create("class");
    tcase_set_timeout(tc, 600);           /* three batches, soffice on a busy machine */
    tcase_add_test(tc, every_cell_of_every_file_is_escaped);
    suite_add_tcase(s, tc);
    return s;
}
