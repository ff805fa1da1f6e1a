/* test_yamlread.c: the shared YAML reader (sup_yamlread.h) on a small
 * document of its own:
 *
 *     name: x          # required text
 *     size: 3          # whole number
 *     scale: 0.5       # finite real
 *     items: [a, b]    # list of text
 *     inner: {depth: 2, width: 7}
 *
 * A good document must load into exactly the values written; each broken one
 * must fail with one message at the line and column counted by hand (from 1,
 * as an editor shows them). The conversions, suggestions and positions are
 * checked on their own too. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sup_yamlread.h"

Suite *test_suite(void);

/* ---- the document the tests read ------------------------------------------------ */

typedef struct cfg {
    const char *name;
    long size;
    double scale;
    const char *items[4];
    int n_items;
    long depth, width;
} cfg;

static int rd_name(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_get_string(d, v, "name", YR_NONEMPTY, &((cfg *)t)->name);
}

static int rd_size(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_get_long(d, v, "size", &((cfg *)t)->size);
}

static int rd_scale(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_get_double(d, v, "scale", &((cfg *)t)->scale);
}

static int rd_items(yr_doc *d, const yaml_node_t *v, void *t)
{
    cfg *c = t;
    if (yr_get_seq(d, v, "items", "[a, b]", &c->n_items) != 0)
        return -1;
    if (c->n_items > 4)
        return yr_fail_at(d, v, "items: at most 4");
    for (int i = 0; i < c->n_items; i++)
        if (yr_get_string(d, yr_item(d, v, i), "items", YR_NONEMPTY, &c->items[i]) != 0)
            return -1;
    return 0;
}

static int rd_depth(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_get_long(d, v, "inner.depth", &((cfg *)t)->depth);
}

static int rd_width(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_get_long(d, v, "inner.width", &((cfg *)t)->width);
}

static const yr_field inner_fields[] = {
    {"depth", 1, rd_depth},
    {"width", 0, rd_width},
};

static int rd_inner(yr_doc *d, const yaml_node_t *v, void *t)
{
    return yr_walk(d, v, "inner", "inner", inner_fields, YR_N_FIELDS(inner_fields), t);
}

static const yr_field cfg_fields[] = {
    {"name", 1, rd_name},
    {"size", 0, rd_size},
    {"scale", 0, rd_scale},
    {"items", 0, rd_items},
    {"inner", 0, rd_inner},
};

static const yr_spec cfg_spec = {
    "the config", "empty", "one document, please", cfg_fields, YR_N_FIELDS(cfg_fields),
    NULL, NULL,
};

/* Read text as "t.yaml" into *c (strings point into the closed document, so
   only numbers are compared after it returns). 0, or -1 with err. */
static int load(const char *text, cfg *c, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    return yr_load("t.yaml", text, strlen(text), &cfg_spec, c, err, errlen);
}

/* ---- a good document ------------------------------------------------------------- */

START_TEST(good_document_loads_every_value)
{
    const char *text = "# comment\n"
                       "name: x\n"
                       "size: -3\n"
                       "scale: 2.5e-1\n"
                       "items:\n"
                       "  - a\n"
                       "  - \"b c\"\n"
                       "inner: {depth: 2, width: 7}\n";
    yr_doc d;
    char err[256];
    cfg c = {0};
    ck_assert_msg(yr_open(&d, "t.yaml", text, strlen(text), err, sizeof err) == 0, "%s", err);
    ck_assert_msg(yr_walk(&d, yr_root(&d), "the config", "the config", cfg_fields,
                          YR_N_FIELDS(cfg_fields), &c) == 0, "%s", err);
    ck_assert_str_eq(c.name, "x");
    ck_assert_int_eq(c.size, -3);
    ck_assert_double_eq(c.scale, 0.25);
    ck_assert_int_eq(c.n_items, 2);
    ck_assert_str_eq(c.items[0], "a");
    ck_assert_str_eq(c.items[1], "b c");
    ck_assert_int_eq(c.depth, 2);
    ck_assert_int_eq(c.width, 7);
    /* the root mapping starts at line 2, column 1 ("name"); the list's second
       item at line 7, column 5 (after "  - ") */
    yr_pos root = yr_pos_of(yr_root(&d));
    ck_assert_int_eq(root.line, 2);
    ck_assert_int_eq(root.column, 1);
    const yaml_node_pair_t *items = &yr_root(&d)->data.mapping.pairs.start[3];
    yr_pos second = yr_pos_of(yr_item(&d, yr_node(&d, items->value), 1));
    ck_assert_int_eq(second.line, 7);
    ck_assert_int_eq(second.column, 5);
    ck_assert_ptr_null(yr_item(&d, yr_node(&d, items->value), 2));
    ck_assert_int_eq(yr_expect_end(&d, "unused"), 0);
    yr_close(&d);
}
END_TEST

/* ---- broken documents -------------------------------------------------------------- */

static const struct bad_doc {
    const char *text;
    const char *want;           /* the message after "t.yaml" */
} bad[] = {
    /* syntax: "size" indented under a scalar; libyaml stops at its colon, 2:7 */
    {"name: x\n  size: 3\n",
     ":2:7: YAML syntax error: mapping values are not allowed in this context"},
    /* an unclosed flow list: the problem at the end, the context's start line */
    {"name: x\nitems: [a, b\n",
     ":3:1: YAML syntax error: did not find expected ',' or ']' (while parsing a flow "
     "sequence, which starts at line 2)"},
    /* byte 0xff after "name: " (6 characters) */
    {"name: \xff\n", ":1:7: the file is not UTF-8 text (invalid leading UTF-8 octet); "
     "save it as UTF-8"},
    {"", ":1:1: empty"},
    {"name: x\n---\nname: y\n", ":3:1: one document, please"},
    {"- a\n", ":1:1: the config: expected a mapping (key: value lines), got a list"},
    /* unknown keys: a typo gets the nearest key, anything else the list */
    {"name: x\nsise: 3\n", ":2:1: unknown key \"sise\" in the config; did you mean \"size\"?"},
    {"name: x\nsca: 3\n", ":2:1: unknown key \"sca\" in the config; did you mean \"scale\"?"},
    {"name: x\ncolour: red\n", ":2:1: unknown key \"colour\" in the config; the known keys "
     "are name, size, scale, items, inner"},
    /* a nested key: "  widht" on line 4, the key at column 3 */
    {"name: x\ninner:\n  depth: 2\n  widht: 3\n",
     ":4:3: unknown key \"widht\" in inner; did you mean \"width\"?"},
    /* a nested value: "  depth: " is 9 characters */
    {"name: x\ninner:\n  depth: two\n", ":3:10: inner.depth: expected a whole number, got \"two\""},
    {"name: x\ninner: {width: 1}\n", ":2:8: inner is missing the required key \"depth\""},
    {"size: 3\n", ":1:1: the config is missing the required key \"name\""},
    {"name: x\nsize: 1\nname: y\n",
     ":3:1: duplicate key \"name\" in the config (first given on line 1); keep one"},
    {"? [a]\n: x\n", ":1:3: a key in the config must be a plain word, got a list"},
    {"\"\": x\n", ":1:1: a key in the config is empty; write a name before the colon"},
    /* wrong types; "size: " is 6 characters, "scale: " 7 */
    {"name: x\nsize: 3.5\n", ":2:7: size: expected a whole number, got \"3.5\""},
    {"name: x\nsize: 2ms\n", ":2:7: size: expected a whole number, got \"2ms\""},
    {"name: x\nsize: '3'\n",
     ":2:7: size: expected a whole number, got the quoted text \"3\"; remove the quotes"},
    {"name: x\nsize: [3]\n", ":2:7: size: expected a whole number, got a list"},
    {"name: x\nsize:\n", ":2:6: size: has no value; give a whole number"},
    {"name: x\nsize: 99999999999999999999\n", ":2:7: size: 99999999999999999999 is too large"},
    {"name: x\nscale: 1e999\n", ":2:8: scale: must be a finite number, got \"1e999\""},
    {"name: x\nscale: .inf\n", ":2:8: scale: must be a finite number, got \".inf\""},
    {"name: x\nscale: half\n", ":2:8: scale: expected a number, got \"half\""},
    {"name: [x]\n", ":1:7: name: expected text, got a list"},
    {"name: ~\n", ":1:7: name: has no value; write it after the colon"},
    {"name: \"a\\0b\"\n", ":1:7: name: contains a NUL character; remove it"},
    {"name: x\nitems: a\n", ":2:8: items: expected a list like [a, b], got a single value"},
    /* "items: [a, " is 11 characters */
    {"name: x\nitems: [a, {b: 1}]\n",
     ":2:12: items: expected text, got a mapping (key: value lines)"},
};

START_TEST(bad_document_is_pinpointed)
{
    char err[256], want[300];
    cfg c;
    ck_assert_int_eq(load(bad[_i].text, &c, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s%s", bad[_i].want[0] == ':' ? "t.yaml" : "", bad[_i].want);
    ck_assert_str_eq(err, want);
}
END_TEST

/* A short buffer truncates the message but never overruns; NULL err is fine. */
START_TEST(short_error_buffer)
{
    char err[16];
    cfg c;
    memset(err, 'x', sizeof err);
    ck_assert_int_eq(load("name: x\nsise: 3\n", &c, err, 8), -1);
    ck_assert_str_eq(err, "t.yaml:");
    ck_assert_int_eq(err[8], 'x');
    ck_assert_int_eq(load("name: x\nsise: 3\n", &c, NULL, 0), -1);
}
END_TEST

/* ---- pieces ------------------------------------------------------------------------- */

START_TEST(positions_count_from_one)
{
    yaml_mark_t m = {0, 0, 0};
    yr_pos p = yr_pos_of_mark(m);
    ck_assert_int_eq(p.line, 1);
    ck_assert_int_eq(p.column, 1);
    m.line = 4;
    m.column = 9;
    p = yr_pos_of_mark(m);
    ck_assert_int_eq(p.line, 5);
    ck_assert_int_eq(p.column, 10);
}
END_TEST

START_TEST(conversions_use_every_character)
{
    long n = 0;
    ck_assert_int_eq(yr_parse_long("42", &n), YR_NUM_OK);
    ck_assert_int_eq(n, 42);
    ck_assert_int_eq(yr_parse_long("-7", &n), YR_NUM_OK);
    ck_assert_int_eq(n, -7);
    n = 5;
    ck_assert_int_eq(yr_parse_long("4x", &n), YR_NUM_BAD);
    ck_assert_int_eq(yr_parse_long("", &n), YR_NUM_BAD);
    ck_assert_int_eq(yr_parse_long(" 4", &n), YR_NUM_BAD);
    ck_assert_int_eq(yr_parse_long("1.0", &n), YR_NUM_BAD);
    ck_assert_int_eq(yr_parse_long("99999999999999999999", &n), YR_NUM_RANGE);
    ck_assert_int_eq(n, 5);                         /* untouched on failure */

    double x = 0;
    ck_assert_int_eq(yr_parse_real("1e-3", &x), YR_NUM_OK);
    ck_assert_double_eq(x, 1e-3);
    ck_assert_int_eq(yr_parse_real("-.INF", &x), YR_NUM_OK);
    ck_assert(isinf(x) && x < 0);
    ck_assert_int_eq(yr_parse_real("+.Inf", &x), YR_NUM_OK);
    ck_assert(isinf(x) && x > 0);
    ck_assert_int_eq(yr_parse_real(".NaN", &x), YR_NUM_OK);
    ck_assert(isnan(x));
    ck_assert_int_eq(yr_parse_real("-.nan", &x), YR_NUM_BAD);   /* YAML has no signed nan */
    ck_assert_int_eq(yr_parse_real("1e-400", &x), YR_NUM_OK);   /* underflow: tiny, fine */
    ck_assert(fabs(x) < 1e-300);
    ck_assert_int_eq(yr_parse_real("1e400", &x), YR_NUM_RANGE);
    ck_assert_int_eq(yr_parse_real("0.5.", &x), YR_NUM_BAD);
    ck_assert_int_eq(yr_parse_real("\t1", &x), YR_NUM_BAD);
}
END_TEST

START_TEST(suggestions)
{
    /* one edit each: a swap, a deletion, a substitution ignoring case */
    ck_assert_int_eq(yr_edit_distance("poitns", "points"), 1);
    ck_assert_int_eq(yr_edit_distance("tolerence", "tolerance"), 1);
    ck_assert_int_eq(yr_edit_distance("Scale", "scale"), 0);
    ck_assert_int_eq(yr_edit_distance("kitten", "sitting"), 3);
    ck_assert_int_eq(yr_edit_distance("", "abc"), 3);
    ck_assert_int_eq(yr_edit_distance("a123456789012345678901234567890123456789", "a"), 1000);

    const char *const names[] = {"time_ms", "memory_mb", "output_kb", "B", "d"};
    ck_assert_str_eq(yr_nearest("time", names, 5), "time_ms");        /* a prefix */
    ck_assert_str_eq(yr_nearest("memroy_mb", names, 5), "memory_mb"); /* a swap */
    ck_assert_str_eq(yr_nearest("b", names, 5), "B");
    ck_assert_ptr_null(yr_nearest("tim", names + 1, 4));             /* nothing near */
    ck_assert_ptr_null(yr_nearest("xy", names, 5));                   /* 2 edits from "d": too far */
}
END_TEST

START_TEST(read_file_whole)
{
    char path[] = "/tmp/attnlab-test-yamlread-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    /* more than the first guess of 4096 bytes would hold, for a file that grows */
    size_t n = 10000;
    char *text = malloc(n);
    for (size_t i = 0; i < n; i++)
        text[i] = (char)('a' + i % 26);
    ck_assert_int_eq(write(fd, text, n), (ssize_t)n);
    close(fd);
    size_t len = 0;
    char *back = yr_read_file(path, &len);
    ck_assert_ptr_nonnull(back);
    ck_assert_int_eq(len, n);
    ck_assert_int_eq(memcmp(back, text, n), 0);
    ck_assert_int_eq(back[n], '\0');
    free(back);
    free(text);
    unlink(path);
    errno = 0;
    ck_assert_ptr_null(yr_read_file("/nonexistent/attnlab/x.yaml", &len));
    ck_assert_int_eq(errno, ENOENT);
}
END_TEST

/* A reader of the whole root, as yr_load hands it over: NULL for no document. */
static int count_root(yr_doc *d, const yaml_node_t *root, void *target)
{
    *(int *)target = root ? yr_count(root) : -1;
    return *(int *)d->user == 0 ? 0 : yr_fail_at(d, root, "refused");
}

START_TEST(load_file_reads_and_reports)
{
    char path[] = "/tmp/attnlab-test-yamlread-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "name: x\nsize: 4\n---\nname: y\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char err[256], want[512];
    cfg c = {0};
    /* the one-document check reports at the second document's root */
    ck_assert_int_eq(yr_load_file(path, &cfg_spec, &c, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:4:1: one document, please", path);
    ck_assert_str_eq(err, want);
    /* without it the first document is read, into numbers that outlive it */
    yr_spec lenient = cfg_spec;
    lenient.one_doc = NULL;
    ck_assert_msg(yr_load_file(path, &lenient, &c, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(c.size, 4);
    /* a reader of its own gets the root and the user context */
    int refuse = 0, n = 0;
    yr_spec whole = {"the list", NULL, NULL, NULL, 0, count_root, &refuse};
    ck_assert_int_eq(yr_load("t.yaml", "[1, 2, 3]", 9, &whole, &n, err, sizeof err), 0);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(yr_load("t.yaml", "", 0, &whole, &n, err, sizeof err), 0);
    ck_assert_int_eq(n, -1);
    refuse = 1;
    ck_assert_int_eq(yr_load("t.yaml", "\n  [1]", 6, &whole, &n, err, sizeof err), -1);
    ck_assert_str_eq(err, "t.yaml:2:3: refused");
    unlink(path);
    ck_assert_int_eq(yr_load_file(path, &cfg_spec, &c, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    ck_assert_str_eq(err, want);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("yamlread");
    TCase *tc = tcase_create("documents");
    tcase_add_test(tc, good_document_loads_every_value);
    tcase_add_loop_test(tc, bad_document_is_pinpointed, 0, (int)(sizeof bad / sizeof *bad));
    tcase_add_test(tc, short_error_buffer);
    tcase_add_test(tc, load_file_reads_and_reports);
    suite_add_tcase(s, tc);

    tc = tcase_create("pieces");
    tcase_add_test(tc, positions_count_from_one);
    tcase_add_test(tc, conversions_use_every_character);
    tcase_add_test(tc, suggestions);
    tcase_add_test(tc, read_file_whole);
    suite_add_tcase(s, tc);
    return s;
}
