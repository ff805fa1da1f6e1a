/* test_hostile_report.c: report.html made from hostile class data.
 *
 * Everything a student controls reaches report.html: the folder name that is
 * their id, a roster name, what their program prints (the output excerpt),
 * what their file makes the compiler say (the compile log), the path a
 * forgiving rule found their file at, and anything a results.json read back
 * holds (test names, messages, misconception ids). Each field of a class in
 * memory gets markup that would run or load something if written raw (script,
 * event handlers, a closing </pre> or </td> to break out, an attribute quote,
 * an entity, a style that fetches, invalid UTF-8 and control bytes). The page
 * must hold every tag and attribute only as attnlab writes them: a scan of
 * its markup finds no tag outside attnlab's list, no event handler, no URL
 * but the embedded data: image, and no raw byte that is not valid UTF-8.
 */
#include <check.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "class/classhtml.h"
#include "report/report.h"
#include "base/util.h"

Suite *test_suite(void);

static const char *const attacks[] = {
    "<script>alert(1)</script>",
    "\"><img src=x onerror=alert(2)>",
    "'><svg/onload=alert(3)>",
    "</pre></td></tr></table><iframe src=\"https://x.invalid\"></iframe>",
    "<style>@import url(https://x.invalid/a.css)</style>",
    "<a href=\"javascript:alert(4)\">click</a>",
    "&lt;script&gt; &amp; &#60;b&#62;",
    "bad utf-8 \xff\xfe and \x01\x1b[31m controls",
    "<!-- <base href=https://x.invalid/> -->",
};
#define N_ATTACKS ((int)(sizeof attacks / sizeof attacks[0]))

/* Lab 1 with two tests for student i: the first failed with every hostile
   field, the second passed. */
static void add_lab(gr_report *r, int i)
{
    const char *a = attacks[i % N_ATTACKS], *b = attacks[(i + 1) % N_ATTACKS];
    r->labs = gr_xcalloc(1, sizeof *r->labs);
    r->n_labs = 1;
    gr_lab_result *l = &r->labs[0];
    l->lab = 1;
    l->name = gr_xstrdup("lab01-scores");
    l->source = gr_xasprintf("%s/lab01.c", a);
    l->source_how = gr_xstrdup(b);
    l->compile_log = gr_xstrdup(a);
    l->n_tests = 2;
    l->tests = gr_xcalloc(2, sizeof *l->tests);
    for (int j = 0; j < 2; j++) {
        gr_test_result *t = &l->tests[j];
        t->name = gr_xstrdup(j ? "passes" : a);
        t->max_score = 1;
        t->score = j;
        t->verdict = j ? GR_PASSED : (gr_verdict)(1 + i % (GR_VERDICT_COUNT - 1));
        t->visibility = (gr_visibility)(i % GR_VISIBILITY_COUNT);
        if (!j) {
            t->message = gr_xstrdup(b);
            t->student_output = gr_xstrdup(a);
            t->misconception = gr_xstrdup(i % 2 ? a : "inv_dk");
        }
        l->score += t->score;
        l->max_score += t->max_score;
    }
    r->score = l->score;
    r->max_score = l->max_score;
}

static void make_class(gr_class *c)
{
    memset(c, 0, sizeof *c);
    c->labs[0] = 1;
    c->lab_max[0] = 2;              /* the rubric's: 2 tests of 1 */
    c->n = 2 * N_ATTACKS;
    c->students = gr_xcalloc((size_t)c->n, sizeof *c->students);
    for (int i = 0; i < c->n; i++) {
        gr_student *s = &c->students[i];
        s->id = gr_xasprintf("%s%d", attacks[i % N_ATTACKS], i);
        s->name = gr_xstrdup(attacks[(i + 3) % N_ATTACKS]);
        s->folder = gr_xstrdup(s->id);
        s->submitted = i != 1;
        s->same_as = i == 2 ? gr_xstrdup(attacks[4]) : NULL;
        if (s->submitted)
            add_lab(&s->report, i);
    }
    c->times_from = gr_xstrdup(attacks[0]);
}

/* The tags attnlab writes. */
static int tag_ok(const char *name, size_t n)
{
    static const char *const ok[] = {"!DOCTYPE", "html", "head", "meta", "title", "style", "body",
                                     "header", "h1", "h2", "h3", "h4", "p", "nav", "ul", "li", "a",
                                     "main", "section", "pre", "table", "thead", "tbody", "tr",
                                     "th", "td", "b", "br", "span", "img", "code", "footer", "div",
                                     "details", "summary"};
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++)
        if (strlen(ok[k]) == n && strncmp(ok[k], name, n) == 0)
            return 1;
    return 0;
}

/* Every tag of html is attnlab's, with no event handler or URL in it; outside
   the style element, a '<' always opens one of them. */
static void check_markup(const char *html)
{
    const char *style_end = strstr(html, "</style>");
    ck_assert_ptr_nonnull(style_end);
    for (const char *p = style_end; (p = strchr(p, '<')) != NULL; p++) {
        const char *name = p + 1 + (p[1] == '/');
        size_t n = 0;
        while (isalnum((unsigned char)name[n]) || name[n] == '!')
            n++;
        const char *end = strchr(p, '>');
        ck_assert_msg(end && tag_ok(name, n), "a tag attnlab does not write: %.60s", p);
        char *tag = gr_xasprintf("%.*s", (int)(end - p + 1), p);
        for (char *q = tag; *q; q++)
            *q = (char)tolower((unsigned char)*q);
        ck_assert_msg(!strstr(tag, " on") && !strstr(tag, "javascript:") && !strstr(tag, "http") &&
                      !strstr(tag, "src=\"x") && !strstr(tag, "url("), "a hostile attribute: %s", tag);
        ck_assert_msg(strncmp(tag, "<a ", 3) != 0 || strncmp(tag, "<a href=\"#", 10) == 0,
                      "a link out of the page: %s", tag);
        free(tag);
    }
    /* valid UTF-8, no control byte but newline */
    const unsigned char *u = (const unsigned char *)html;
    for (size_t i = 0, len = strlen(html); i < len;) {
        uint32_t cp;
        int k = gr_utf8_decode(u + i, len - i, &cp);
        ck_assert_msg(k > 0, "invalid UTF-8 at byte %zu", i);
        ck_assert_msg(cp >= 0x20 || cp == '\n' || cp == '\t', "control byte %u at %zu", cp, i);
        i += (size_t)k;
    }
}

START_TEST(hostile_class_data_stays_text)
{
    gr_class c;
    make_class(&c);
    gr_html_opts o = {NULL, NULL, NULL};
    char *html = gr_classhtml_page(&c, &o);
    check_markup(html);
    /* the attacks are there, as text */
    ck_assert_ptr_nonnull(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    ck_assert_ptr_nonnull(strstr(html, "&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"));
    ck_assert_ptr_nonnull(strstr(html, "&amp;lt;script&amp;gt; &amp;amp;"));
    ck_assert_ptr_nonnull(strstr(html, "&lt;/pre&gt;&lt;/td&gt;"));
    free(html);
    gr_class_free(&c);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hostile_report");
    TCase *tc = tcase_create("html");
    tcase_add_test(tc, hostile_class_data_stays_text);
    suite_add_tcase(s, tc);
    return s;
}
