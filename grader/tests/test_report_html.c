/* test_report_html.c: report.html and tests.csv from attnlab batch, rendered
 * in headless Chromium (classhtml.c, items.c).
 *
 * A class of 19 folders and a roster student without one is made from the
 * course's own files and graded for labs 1 and 5 against a test copy of the
 * rubrics whose lab 1 has a deliberately broken test: dot_broken_memory
 * allows 1 MiB of heap for keys that alone take 1 MiB, so a correct solution
 * that copies K fails it while the mutants (wrong scaled scores, no copy)
 * pass it. Item analysis must flag it as discriminating negatively. The
 * class: 3 solutions, 4 solutions that copy K, 5 mutants of lab 1 (one named
 * <img src=x onerror=alert(1)>), a late solution, three whose lab 5 does not
 * compile (named "><svg onload=alert(2)>, its file quoting a script), calls
 * fopen, or loops forever, an untouched stub, an empty folder and one with
 * lab 5 alone; sol00's roster name is <script>alert(1)</script>.
 *
 * The page is checked as text (escaped, no script, the known numbers), then
 * rendered with chromium --headless --dump-dom: the DOM holds the numbers, and
 * no element a hostile string could have made (a script alerting in a
 * headless browser hangs it, so Chromium runs under a 60 s kill). The first
 * screen is checked in both: the broken test named, the late list, the class
 * ranked by final grade, the bands of final grades, the item analysis closed
 * to its flagged rows, and the print style; printed to PDF, the page takes
 * at most PRINTED_PAGES pages. A screenshot is kept at build/report-html.png
 * for a person to look at.
 * Without chromium (Debian's chromium package; scripts/install-deps.sh
 * browser) the browser part says it skipped.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixtures/fixture_kit.h"
#include "base/labmod.h"
#include "engine/mutants.h"
#include "base/util.h"

Suite *test_suite(void);

#define HOSTILE_IMG "<img src=x onerror=alert(1)>"
#define HOSTILE_SVG "\"><svg onload=alert(2)>"
#define HOSTILE_NAME "<script>alert(1)</script>"

static char *dir;                /* the suite's temporary folder */
/* At most this many printed pages for this class of 20 (5 on Debian's
   Chromium 2026): the class view, each student's section printing only at
   its link. A page per student would pass it at once. */
#define PRINTED_PAGES 8

static void put(const char *path, const char *text)
{
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
}

/* The tree's file rel (malloc'd; rel is freed). */
static char *read_tree(char *rel)
{
    char *path = gr_xasprintf("%s/%s", fk_root(), rel);
    char *text = gr_read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    free(path);
    free(rel);
    return text;
}

static char *solution(int lab)
{
    return read_tree(gr_xasprintf("solutions/%s/lab%02d.c", gr_lab_modules[lab - 1]->dir, lab));
}

/* Student id's folder with lab files lab1 and lab5 (NULL: none), flat. */
static void student(const char *id, const char *lab1, const char *lab5)
{
    char *sdir = gr_xasprintf("%s/sub/%s", dir, id);
    ck_assert_int_eq(mkdir(sdir, 0755), 0);
    const char *text[2] = {lab1, lab5};
    for (int k = 0; k < 2; k++)
        if (text[k]) {
            char *p = gr_xasprintf("%s/lab%02d.c", sdir, k ? 5 : 1);
            put(p, text[k]);
            free(p);
        }
    free(sdir);
}

/* The text of lab 1's mutant called name. */
static char *mutant(const char *name)
{
    char *manifest = gr_xasprintf("%s/data/mutants/lab01/manifest.yaml", fk_root());
    char *sol = gr_xasprintf("%s/solutions/lab01-scores/lab01.c", fk_root());
    char *work = gr_xasprintf("%s/mutants", dir), err[1024], *text = NULL;
    mkdir(work, 0755);
    gr_mutant_set s;
    ck_assert_msg(gr_mutants_load(manifest, &s, err, sizeof err) == 0, "%s", err);
    for (int i = 0; i < s.n; i++)
        if (strcmp(s.mutants[i].name, name) == 0) {
            char *path;
            ck_assert_msg(gr_mutants_write(&s, &s.mutants[i], sol, work, &path, err, sizeof err) == 0,
                          "%s", err);
            text = gr_read_file(path, NULL);
            free(path);
        }
    ck_assert_msg(text != NULL, "no lab 1 mutant %s", name);
    gr_mutants_free(&s);
    free(manifest);
    free(sol);
    free(work);
    return text;
}

/* s with from (which must be there) replaced by to. */
static char *edit(const char *s, const char *from, const char *to)
{
    ck_assert_msg(strstr(s, from) != NULL, "no \"%s\" to edit", from);
    return fk_replace(s, from, to);
}

/* The rubrics: the course's, and lab 1 with the broken test. */
static void rubrics(void)
{
    char *rdir = gr_xasprintf("%s/rubrics", dir);
    ck_assert_int_eq(mkdir(rdir, 0755), 0);
    for (int lab = 1; lab <= 5; lab += 4) {
        char *text = read_tree(gr_xasprintf("data/rubrics/lab%02d.yaml", lab)), *p;
        if (lab == 1) {
            char *more = gr_xasprintf("%s  - name: dot_broken_memory   # a rubric bug: K alone is "
                                      "1 MiB\n    kind: dot\n    points: 1\n    visibility: hidden\n"
                                      "    sizes: {B: 1, Tq: 2, Tk: 512, d: 512}\n    params: {seed: 3}\n"
                                      "    tolerance: {abs: 1.0e-4, rel: 1.0e-4}\n"
                                      "    limits: {memory_mb: 1}\n", text);
            free(text);
            text = more;
        }
        put((p = gr_xasprintf("%s/lab%02d.yaml", rdir, lab)), text);
        free(p);
        free(text);
    }
    free(rdir);
}

static void make_class(void)
{
    char *s1 = solution(1), *s5 = solution(5);
    char *t1 = read_tree(gr_xstrdup("data/stubs/lab01.c")), *t5 = read_tree(gr_xstrdup("data/stubs/lab05.c"));
    /* a correct lab 1 that works on a copy of K (which the broken test cannot hold) */
    char *inc = edit(s1, "#include <math.h>", "#include <math.h>\n#include <stdlib.h>\n#include <string.h>");
    char *copyk = edit(inc, "    scores(S, Q, K, B, Tq, Tk, d, 1.0);",
                       "    size_t n = sizeof(float) * (size_t)(B > 0 ? B : 1) * (size_t)(Tk > 0 ? Tk : 1)"
                       " * (size_t)d;\n    float *Kc = malloc(n);\n    if (!Kc) {\n        return "
                       "LAB_BAD_ARG;\n    }\n    memcpy(Kc, K, sizeof(float) * (size_t)B * (size_t)Tk * "
                       "(size_t)d);\n    scores(S, Q, Kc, B, Tq, Tk, d, 1.0);\n    free(Kc);");
    char *sub = gr_xasprintf("%s/sub", dir);
    ck_assert_int_eq(mkdir(sub, 0755), 0);
    student("sol00", s1, s5);
    student("sol01", s1, s5);
    student("sol02", s1, s5);
    student("late1", s1, s5);
    for (int i = 0; i < 4; i++) {
        char id[16];
        snprintf(id, sizeof id, "copyk%d", i);
        student(id, copyk, s5);
    }
    static const char *const weak[][2] = {
        {"no_scale", "mut_no_scale"}, {"inv_dk", HOSTILE_IMG}, {"mul_sqrt_dk", "mut_mul_sqrt_dk"},
        {"k_no_batch", "mut_k_no_batch"}, {"crash", "mut_crash"},
    };
    for (int i = 0; i < 5; i++) {
        char *m = mutant(weak[i][0]);
        student(weak[i][1], m, s5);
        free(m);
    }
    char *fopen5 = edit(s5, "#include <string.h>", "#include <string.h>\n#include <stdio.h>");
    char *forbidden = gr_xasprintf("%s\nint lab_peek(void);\nint lab_peek(void)\n{\n    FILE *f = "
                                   "fopen(\"/etc/passwd\", \"r\");\n    if (f) {\n        fclose(f);\n"
                                   "    }\n    return f != NULL;\n}\n", fopen5);
    char *loop = edit(s5, "    int Tk_max = T + max_pad;", "    for (volatile int spin = 1; spin;) {\n"
                                                            "    }\n    int Tk_max = T + max_pad;");
    student(HOSTILE_SVG, copyk, "#include \"lab05.h\"\n</pre><script>alert(3)</script>\n");
    student("lab5_fopen", copyk, forbidden);
    student("lab5_loop", copyk, loop);
    student("stub", t1, t5);
    student("empty", NULL, NULL);
    student("only_lab5", NULL, s5);

    time_t due = time(NULL) - 30 * 86400, when = due + 86400 + 7200;   /* 2 days late */
    char stamp[2][64];
    struct tm tm;
    strftime(stamp[0], sizeof stamp[0], "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&due, &tm));
    strftime(stamp[1], sizeof stamp[1], "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&when, &tm));
    char *p, *text = gr_xasprintf("due: {1: %s}\ngrace_minutes: 0\nlate_penalty_percent: 10\n"
                                  "max_late_days: 3\n", stamp[0]);
    put((p = gr_xasprintf("%s/course.yaml", dir)), text);
    free(p);
    free(text);
    put((p = gr_xasprintf("%s/times.yaml", dir)), (text = gr_xasprintf("late1: %s\n", stamp[1])));
    free(p);
    free(text);
    put((p = gr_xasprintf("%s/roster.yaml", dir)),
        "students:\n  - {id: sol00, name: \"" HOSTILE_NAME "\"}\n  - {id: absent, name: Absent}\n");
    free(p);
    rubrics();
    free(sub);
    free(s1);
    free(s5);
    free(t1);
    free(t5);
    free(inc);
    free(copyk);
    free(fopen5);
    free(forbidden);
    free(loop);
}

/* ---- checks ------------------------------------------------------------------------ */

/* The table row of page holding cell (a copy, "" when none). */
static char *row_of(const char *page, const char *cell)
{
    const char *at = strstr(page, cell);
    if (!at)
        return gr_xstrdup("");
    const char *start = at;
    while (start > page && strncmp(start, "<tr", 3) != 0)
        start--;
    const char *end = strstr(at, "</tr>");
    return gr_xasprintf("%.*s", (int)((end ? end : at + strlen(at)) - start), start);
}

/* What the page must hold, as written and as Chromium's DOM gives it back:
   the known numbers, the flags, the hostile strings as text only. */
static void check_page(const char *page, const char *what)
{
    ck_assert_msg(strstr(page, "<script") == NULL, "%s: a <script> element", what);
    ck_assert_msg(strstr(page, "<svg") == NULL, "%s: an <svg> element", what);
    ck_assert_msg(strstr(page, "<img src=x") == NULL && strstr(page, "<img src=\"x\"") == NULL,
                  "%s: an <img> a student's id made", what);
    ck_assert_msg(strstr(page, "&lt;img src=x onerror=alert(1)&gt;") != NULL, "%s: the id as text", what);
    ck_assert_msg(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL, "%s: the name", what);
    ck_assert_msg(strstr(page, "&lt;/pre&gt;&lt;script&gt;alert(3)") != NULL,
                  "%s: the compile error quoting the file", what);
    /* the broken test: 16 attempted lab 1, 9 passed it (the 4 solutions and the 5 mutants) */
    char *row = row_of(page, ">dot_broken_memory</td>");
    ck_assert_msg(strstr(row, "class=\"neg\"") && strstr(row, ">16</td><td class=\"n\">9</td>"
                                                            "<td class=\"n rate\">56%</td>") &&
                  strstr(row, "negative discrimination"), "%s: the broken test's row: %s", what, row);
    free(row);
    row = row_of(page, ">dot_bad_d</td>");
    ck_assert_msg(strstr(row, "passed by everyone") && strstr(row, ">16</td><td class=\"n\">16</td>"),
                  "%s: dot_bad_d: %s", what, row);
    free(row);
    /* totals: a solution 23 of 23; late1 2 days late at 10% a day on lab 1's 11 */
    ck_assert_msg(strstr(page, "Total: <b class=\"points\">23</b> of 23</p>"), "%s: sol00's total", what);
    ck_assert_msg(strstr(page, "Total: <b class=\"points\">20.8</b> of 23 (23 before late "
                               "penalties)</p>"), "%s: late1's total", what);
    /* verdicts across the class, with the students */
    row = row_of(page, "<td>compile error</td>");
    ck_assert_msg(strstr(row, "lab05-masking") && strstr(row, "&gt;&lt;svg onload=alert(2)&gt;"),
                  "%s: compile errors: %s", what, row);
    free(row);
    ck_assert_msg(strstr(page, "<td>forbidden call</td><td class=\"n\">1</td><td><a href=\"#s"),
                  "%s: the forbidden call", what);
    ck_assert_msg(strstr(page, "<td>timed out</td><td class=\"n\">1</td>"), "%s: the time-out", what);
    ck_assert_msg(strstr(page, "<td>crashed</td><td class=\"n\">1</td>"), "%s: the crash", what);
    ck_assert_msg(strstr(page, "<td>missing</td><td class=\"n\">2</td>"), "%s: lab 1 missing", what);
    /* misconceptions over the 16 who attempted lab 1, the hostile id a link */
    row = row_of(page, "<b>inv_dk</b>");
    ck_assert_msg(strstr(row, "<td class=\"n\">1</td><td class=\"n\">16</td>") &&
                  strstr(row, "lab01-scores/README.md") && strstr(row, "&gt;</a>"),
                  "%s: inv_dk: %s", what, row);
    free(row);
    ck_assert_msg(strstr(page, "hidden: never shown to the student"), "%s: hidden tests marked", what);
    ck_assert_msg(strstr(page, "Similar lab files: "), "%s: similarity pairs", what);
    ck_assert_msg(strstr(page, "<section id=\"items\">") && strstr(page, "<nav id=\"toc\">"), "%s", what);
}

/* The first screen, before every other section: the broken test named, the
   late list, the class ranked by final grade lowest first; the bands of
   final grades; the item analysis's flagged rows before every test's, which
   are closed; and the print style. */
static void check_first_screen(const char *page, const char *what)
{
    const char *glance = strstr(page, "<section id=\"glance\">"), *scores = strstr(page, "<section id=\"scores\">");
    ck_assert_msg(glance && scores && glance < scores, "%s: the first screen first", what);
    ck_assert_msg(strstr(glance, "\">lab01-scores: dot_broken_memory</a>: stronger students fail it "
                                 "more than weaker ones (r -0.58; 9 of 16 passed)</li>") < scores,
                  "%s: the broken test by name", what);
    /* late1, 2 days late on lab 1 (lab 5 has no due date): 23 less 10% a day of 11 */
    char *late = gr_xasprintf("%.*s", (int)(strstr(glance, "</ul>\n</div>\n</div>") - glance), glance);
    ck_assert_msg(strstr(late, "late1</a>: lab01-scores 2 days; final <b>20.8</b></li>"),
                  "%s: the late list: %s", what, late);
    free(late);
    /* ranked: absent (no submission) first, finals never falling, the three
       untouched solutions last (copyk loses dot_broken_memory's point) */
    const char *t = strstr(glance, "<table class=\"ranked\">"), *end = strstr(t, "</table>");
    ck_assert_msg(t && end, "%s: the ranked table", what);
    const char *first = strstr(t, "<tr><td class=\"n\">1</td>");
    const char *second = first ? strstr(first, "<tr><td class=\"n\">2</td>") : NULL;
    ck_assert_msg(second, "%s: the ranked rows", what);
    char *one = gr_xasprintf("%.*s", (int)(second - first), first);
    ck_assert_msg(strstr(one, ">absent</a></td><td colspan=\"5\">on the roster, no submission</td>"),
                  "%s: absent first: %s", what, one);
    free(one);
    double last = -1;
    int rows = 0, tops = 0;
    for (const char *f = strstr(t, "class=\"n final\">"); f && f < end; f = strstr(f + 1, "class=\"n final\">")) {
        double x = atof(f + strlen("class=\"n final\">"));
        ck_assert_msg(x >= last, "%s: %g after %g in the ranking", what, x, last);
        last = x;
        rows++;
        tops += x == 23;
    }
    ck_assert_int_eq(rows, 19);
    ck_assert_int_eq(tops, 3);
    char *row = row_of(t, ">late1</a>");
    ck_assert_msg(strstr(row, "<td class=\"n final\">20.8</td><td class=\"n\">90</td><td class=\"n\">2</td>"),
                  "%s: late1's row: %s", what, row);
    free(row);
    row = row_of(t, "mut_no_scale</a>");
    ck_assert_msg(strstr(row, "<td>lab01-scores 5 of 19 failed</td><td>no_scale</td>") , "%s: mut_no_scale: %s", what, row);
    free(row);
    /* the bands are of final grades: late1 (20.8 of 23) in 90-99% with the 4
       copyk (22), the 3 solutions alone in 100% */
    row = row_of(scores, "<tr><th>students</th>");
    const char *tail = "<td class=\"n\">5</td><td class=\"n\">3</td>";
    ck_assert_msg(strstr(scores, "<th>final grade</th>") && strlen(row) > strlen(tail) &&
                  strcmp(row + strlen(row) - strlen(tail), tail) == 0,
                  "%s: the final bands: %s", what, row);
    free(row);
    const char *items = strstr(page, "<section id=\"items\">");
    const char *flagged = strstr(items, ">dot_broken_memory</td>"), *all = strstr(items, "<details class=\"items\">");
    ck_assert_msg(flagged && all && flagged < all && strncmp(all, "<details class=\"items\"><summary>Every test (", 44) == 0,
                  "%s: the flagged rows, then every test closed", what);
    ck_assert_msg(strstr(page, "<details open") == NULL, "%s", what);
    ck_assert_msg(strstr(page, "h1,h2,h3,h4{break-after:avoid;page-break-after:avoid}") &&
                  strstr(page, "tr,li,pre,img,figure,.fail{break-inside:avoid;") &&
                  strstr(page, "section.student:not(:target){display:none}"),
                  "%s: the print style", what);
}

/* The pages of a PDF Chromium printed: its "/Type /Page" objects (not "/Pages"). */
static int pdf_pages(const char *pdf, size_t len)
{
    int n = 0;
    for (const char *p = pdf; (p = memmem(p, len - (size_t)(p - pdf), "/Type /Page", 11)) != NULL; p += 11)
        n += (size_t)(p + 11 - pdf) < len && p[11] != 's';
    return n;
}

static int have_chromium(void)
{
    return system("command -v chromium >/dev/null 2>&1") == 0;
}

START_TEST(batch_writes_report_html_that_chromium_renders)
{
    dir = fk_mkdtemp("report-html");
    ck_assert_ptr_nonnull(dir);
    make_class();
    char *attnlab = fk_attnlab(), *log = gr_xasprintf("%s/log", dir);
    ck_assert_ptr_nonnull(attnlab);
    int st = fk_sh(log, "ATTNLAB_SECRET=report-html-test %s batch '%s/sub' --out '%s/out' --lab 1,5 "
                   "--jobs 2 --rubrics '%s/rubrics' --course '%s/course.yaml' --times '%s/times.yaml' "
                   "--roster '%s/roster.yaml' -q >/dev/null", attnlab, dir, dir, dir, dir, dir, dir);
    char *out = gr_read_file(log, NULL);
    ck_assert_msg(st == 0, "batch failed (%d): %s", st, out ? out : "");
    free(out);
    char *html_path = gr_xasprintf("%s/out/report.html", dir);
    char *html = gr_read_file(html_path, NULL);
    ck_assert_ptr_nonnull(html);
    check_page(html, "report.html");
    check_first_screen(html, "report.html");
    ck_assert_msg(strstr(html, "<link") == NULL && strstr(html, "http://") == NULL &&
                  strstr(html, "https://") == NULL, "report.html refers to something outside it");

    /* report.md: the broken test tops "most failed" (7 of the 16 who attempted lab 1; the
       empty folder and the stub are no attempt), and the verdicts have their line */
    char *md_path = gr_xasprintf("%s/out/report.md", dir), *md = gr_read_file(md_path, NULL);
    ck_assert_ptr_nonnull(md);
    ck_assert_msg(strstr(md, "|---|---|---|---|---|---|\n| 7 | 16 | lab01-scores | dot\\_broken\\_memory | 1 "
                             "| out of memory |\n") != NULL, "%s", md);
    ck_assert_msg(strstr(md, "| lab05-masking | compile error | 1 | \"&gt;&lt;svg onload=alert\\(2\\)&gt; |\n") != NULL,
                  "%s", md);
    ck_assert_msg(strstr(md, "| lab01-scores | dot\\_broken\\_memory | 9 | 16 | -0.58 |\n") != NULL, "%s", md);
    free(md);
    free(md_path);
    char *csv_path = gr_xasprintf("%s/out/tests.csv", dir), *csv = gr_read_file(csv_path, NULL);
    ck_assert_ptr_nonnull(csv);
    ck_assert_ptr_nonnull(strstr(csv, ",\"lab01-scores.dot_broken_memory\",\"lab05-masking."));
    ck_assert_ptr_nonnull(strstr(csv, "\r\nPoints possible,,,1,1,"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"\"\"><svg onload=alert(2)>\",,,1,1,"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"sol00\",\"<script>alert(1)</script>\",,1,1,"));
    ck_assert_ptr_nonnull(strstr(csv, "\r\n\"absent\",\"Absent\",,,,"));
    free(csv);
    free(csv_path);

    if (!have_chromium()) {
        fprintf(stderr, "test_report_html: SKIP the browser checks: no chromium on PATH "
                        "(apt-get install chromium, or scripts/install-deps.sh browser)\n");
    } else {
        char *dom_path = gr_xasprintf("%s/dom.html", dir), *shot = gr_xasprintf("%s/build/report-html.png", fk_root());
        const char *flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars";
        st = fk_sh(log, "HOME='%s' timeout -s KILL 60 chromium %s --user-data-dir='%s/profile' "
                   "--dump-dom 'file://%s' >'%s'", dir, flags, dir, html_path, dom_path);
        ck_assert_msg(st == 0, "chromium --dump-dom did not finish (status %d; a script alerting "
                      "in the page would hang it): see %s", st, log);
        char *dom = gr_read_file(dom_path, NULL);
        ck_assert_msg(dom && strstr(dom, "</html>"), "no DOM from chromium");
        check_page(dom, "Chromium's DOM");
        check_first_screen(dom, "Chromium's DOM");
        st = fk_sh(log, "HOME='%s' timeout -s KILL 60 chromium %s --user-data-dir='%s/profile' "
                   "--window-size=1200,3000 --screenshot='%s' 'file://%s'", dir, flags, dir, shot,
                   html_path);
        ck_assert_msg(st == 0 && fk_is_file(shot), "chromium made no screenshot (status %d): see %s",
                      st, log);
        fprintf(stderr, "test_report_html: the screenshot is %s\n", shot);
        /* printed, the class view takes a few pages (each student's section
           prints alone, at its link) */
        char *pdf_path = gr_xasprintf("%s/report.pdf", dir);
        st = fk_sh(log, "HOME='%s' timeout -s KILL 60 chromium %s --user-data-dir='%s/profile' "
                   "--no-pdf-header-footer --print-to-pdf='%s' 'file://%s'", dir, flags, dir,
                   pdf_path, html_path);
        size_t pdf_len = 0;
        char *pdf = gr_read_file(pdf_path, &pdf_len);
        ck_assert_msg(st == 0 && pdf && pdf_len > 4 && memcmp(pdf, "%PDF", 4) == 0,
                      "chromium printed no PDF (status %d): see %s", st, log);
        int pages = pdf_pages(pdf, pdf_len);
        fprintf(stderr, "test_report_html: report.html prints on %d pages\n", pages);
        ck_assert_msg(pages >= 2 && pages <= PRINTED_PAGES, "report.html printed on %d pages", pages);
        free(pdf);
        free(pdf_path);
        free(dom);
        free(dom_path);
        free(shot);
    }
    free(html);
    free(html_path);
    free(log);
    free(attnlab);
    fk_rm_rf(dir);
    free(dir);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("report_html");
    TCase *tc = tcase_create("batch");
    tcase_set_timeout(tc, 900);           /* a class of 19 on a busy machine, then a browser */
    tcase_add_test(tc, batch_writes_report_html_that_chromium_renders);
    suite_add_tcase(s, tc);
    return s;
}
