/* test_similarity.c: `attnlab similarity` and its engine (similarity.h).
 *
 *   tokens      what the tokenizer keeps and abstracts; lab 2's solution and a
 *               copy with every name, constant and the layout changed give the
 *               same stream
 *   winnowing   the paper's worked example; the guarantee (a shared run of
 *               w + k - 1 tokens always shares a fingerprint, one of k - 1
 *               never does) on seeded random streams, and that w + k - 2 is
 *               not enough
 *   pairs       a hand-computed pair (shared count, Jaccard, the one region and
 *               its lines); the stub's text as base removes every match
 *   command     a class folder in both layouts: identical and renamed files
 *               rank first at Jaccard 1, an independent rewrite scores low,
 *               untouched stubs match nothing, a link is skipped; the table,
 *               Markdown and CSV reports; usage errors
 *   scale       300 students of one lab within a CPU-time budget
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "cli/commands.h"
#include "fixtures/fixture_kit.h"
#include "labsup.h"
#include "class/classhtml.h"
#include "class/classhtml_parts.h"
#include "class/similarity.h"
#include "base/util.h"

Suite *test_suite(void);

/* ---- helpers ---------------------------------------------------------------------------- */

/* A file of the tree (relative to its root), read whole; free() it. */
static char *tree_file(const char *rel, size_t *len)
{
    char *path = gr_xasprintf("%s/%s", fk_root(), rel);
    char *text = gr_read_file(path, len);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    free(path);
    return text;
}

static void tokens_of(gr_sim_tokens *t, const char *text)
{
    gr_sim_tokenize(t, text, strlen(text));
}

/* The code of a text that is one token. */
static uint32_t code_of(const char *text)
{
    gr_sim_tokens t;
    tokens_of(&t, text);
    ck_assert_msg(t.n == 1, "'%s' is %ld tokens, expected 1", text, t.n);
    uint32_t c = t.code[0];
    gr_sim_tokens_free(&t);
    return c;
}

/* A document of text with base text (NULL: none), k and w. */
static void doc_of(gr_sim_doc *d, const char *name, const char *text, const char *base_text,
                   int k, int w)
{
    gr_sim_base base = {0};
    if (base_text)
        gr_sim_base_add(&base, base_text, strlen(base_text), k);
    gr_sim_doc_init(d, gr_xstrdup(name), gr_xasprintf("%s.c", name), gr_xstrdup(text),
                    strlen(text), &base, k, w);
    gr_sim_base_free(&base);
}

/* ---- tokens ------------------------------------------------------------------------------ */

START_TEST(tokens_of_a_snippet)
{
    gr_sim_tokens t;
    tokens_of(&t, "/* c1\n c2 */ int x1 = 0x1F; // to the end\n"
                  "  y->z += \"s\\\"t\" + L'c' >>= 1.5e-3f; \\\n ...");
    uint32_t want[] = {
        code_of("int"), GR_SIM_ID, '=', GR_SIM_NUM, ';',
        GR_SIM_ID, code_of("->"), GR_SIM_ID, code_of("+="), GR_SIM_STR, '+', GR_SIM_CHR,
        code_of(">>="), GR_SIM_NUM, ';', code_of("...")
    };
    int lines[] = { 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4 };
    ck_assert_int_eq(t.n, (long)(sizeof want / sizeof want[0]));
    for (long i = 0; i < t.n; i++) {
        ck_assert_msg(t.code[i] == want[i], "token %ld: code %u, expected %u", i, t.code[i],
                      want[i]);
        ck_assert_msg(t.line[i] == lines[i], "token %ld: line %d, expected %d", i, t.line[i],
                      lines[i]);
    }
    /* keywords keep their identity, identifiers and literals do not */
    ck_assert_uint_ne(code_of("int"), code_of("float"));
    ck_assert_uint_ne(code_of("while"), GR_SIM_ID);
    ck_assert_uint_eq(code_of("lab_softmax"), code_of("x"));
    ck_assert_uint_eq(code_of("0"), code_of("3.25e+10L"));
    ck_assert_uint_eq(code_of("\"\""), code_of("u8\"a b\""));
    ck_assert_uint_ne(code_of("\"a\""), code_of("'a'"));
    gr_sim_tokens_free(&t);
}
END_TEST

START_TEST(tokens_survive_unterminated_text)
{
    const char *cases[] = { "/* never closed", "\"never closed\nx", "'", "x = 1e+", "\\", "@`$" };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gr_sim_tokens t;
        tokens_of(&t, cases[i]);
        ck_assert_int_le(t.n, (long)strlen(cases[i]));
        gr_sim_tokens_free(&t);
    }
    /* an unterminated string ends at its line: the next line is tokens again */
    gr_sim_tokens t;
    tokens_of(&t, "\"open\nx;");
    ck_assert_int_eq(t.n, 3);
    ck_assert_uint_eq(t.code[1], GR_SIM_ID);
    ck_assert_int_eq(t.line[1], 2);
    gr_sim_tokens_free(&t);
}
END_TEST

/* Every name, every constant, the comments and the layout of lab 2's solution
   changed by hand (tests/data/similarity/lab02_renamed.c): the same stream. */
START_TEST(renaming_and_literals_change_nothing)
{
    size_t la, lb;
    char *a = tree_file("solutions/lab02-softmax/lab02.c", &la);
    char *b = tree_file("grader/tests/data/similarity/lab02_renamed.c", &lb);
    ck_assert_msg(strstr(b, "maxval") == NULL && strstr(b, "0.0f") == NULL,
                  "the renamed copy must not keep the solution's names and constants");
    gr_sim_tokens ta, tb;
    gr_sim_tokenize(&ta, a, la);
    gr_sim_tokenize(&tb, b, lb);
    ck_assert_int_gt(ta.n, 300);
    ck_assert_int_eq(ta.n, tb.n);
    ck_assert(memcmp(ta.code, tb.code, (size_t)ta.n * sizeof *ta.code) == 0);
    gr_sim_tokens_free(&ta);
    gr_sim_tokens_free(&tb);
    free(a);
    free(b);
}
END_TEST

/* ---- winnowing ---------------------------------------------------------------------------- */

/* Schleimer, Wilkerson and Aiken's example (figure 2): these hashes, windows
   of 4, give (17,3) (17,6) (8,8) (39,11) (17,15), 0-based positions. */
START_TEST(winnow_paper_example)
{
    const uint64_t h[] = { 77, 74, 42, 17, 98, 50, 17, 98, 8, 88, 67, 39, 77, 74, 42, 17, 98 };
    const gr_sim_fp want[] = { {17, 3}, {17, 6}, {8, 8}, {39, 11}, {17, 15} };
    gr_sim_fp fp[17];
    long n = gr_sim_winnow(fp, h, 17, 4);
    ck_assert_int_eq(n, 5);
    for (int i = 0; i < 5; i++) {
        ck_assert_uint_eq(fp[i].hash, want[i].hash);
        ck_assert_int_eq(fp[i].pos, want[i].pos);
    }
    /* fewer hashes than a window: one window, its rightmost minimum */
    const uint64_t s[] = { 5, 2, 9, 2 };
    ck_assert_int_eq(gr_sim_winnow(fp, s, 4, 8), 1);
    ck_assert_uint_eq(fp[0].hash, 2);
    ck_assert_int_eq(fp[0].pos, 3);
    ck_assert_int_eq(gr_sim_winnow(fp, s, 0, 8), 0);
}
END_TEST

START_TEST(kgram_hashes_count_and_equality)
{
    const uint32_t c[] = { 1, 2, 3, 1, 2, 3, 4 };
    uint64_t h[7];
    ck_assert_int_eq(gr_sim_kgram_hashes(h, c, 7, 3), 5);
    ck_assert_uint_eq(h[0], h[3]);           /* 1 2 3 twice */
    ck_assert_uint_ne(h[0], h[1]);
    ck_assert_uint_ne(h[3], h[4]);           /* 1 2 3 vs 2 3 4 */
    ck_assert_int_eq(gr_sim_kgram_hashes(h, c, 2, 3), 0);
}
END_TEST

/* The k and w the guarantee is tested with: the defaults, and others. */
static const int kw_cases[][2] = { { GR_SIM_K, GR_SIM_W }, { 5, 4 }, { 3, 1 }, { 20, 12 } };

/* Fingerprint a random stream with `run` tokens of shared[] in the middle:
   noise from codes [lo, lo + 2^20), before and after, 0 to 60 tokens each. */
static long fingerprint_with_run(gr_sim_fp *fp, sup_rng *rng, const uint32_t *shared, int run,
                                 uint32_t lo, int k, int w)
{
    uint32_t code[200];
    int n = 0, pre = (int)(sup_rng_u64(rng) % 61), post = (int)(sup_rng_u64(rng) % 61);
    for (int i = 0; i < pre; i++)
        code[n++] = lo + (uint32_t)(sup_rng_u64(rng) & 0xfffff);
    for (int i = 0; i < run; i++)
        code[n++] = shared[i];
    for (int i = 0; i < post; i++)
        code[n++] = lo + (uint32_t)(sup_rng_u64(rng) & 0xfffff);
    uint64_t h[200];
    long nh = gr_sim_kgram_hashes(h, code, n, k);
    return gr_sim_winnow(fp, h, nh, w);
}

/* How many of `trials` random pairs sharing a run of `run` tokens (and
   nothing else: their noise comes from disjoint codes) share a fingerprint. */
static int detected(int run, int k, int w, int trials, uint64_t seed)
{
    sup_rng rng;
    sup_rng_seed(&rng, seed);
    int found = 0;
    for (int t = 0; t < trials; t++) {
        uint32_t shared[64];
        for (int i = 0; i < run; i++)
            shared[i] = (2u << 20) + (uint32_t)(sup_rng_u64(&rng) & 0xfffff);
        gr_sim_fp fa[200], fb[200];
        long na = fingerprint_with_run(fa, &rng, shared, run, 0, k, w);
        long nb = fingerprint_with_run(fb, &rng, shared, run, 1u << 20, k, w);
        int hit = 0;
        for (long i = 0; i < na && !hit; i++)
            for (long j = 0; j < nb && !hit; j++)
                hit = fa[i].hash == fb[j].hash;
        found += hit;
    }
    return found;
}

START_TEST(guarantee_run_of_w_plus_k_minus_1)
{
    int k = kw_cases[_i][0], w = kw_cases[_i][1], t = w + k - 1;
    ck_assert_int_eq(detected(t, k, w, 500, 1000 + (uint64_t)_i), 500);
    ck_assert_int_eq(detected(t + 7, k, w, 200, 2000 + (uint64_t)_i), 200);
}
END_TEST

START_TEST(noise_threshold_run_of_k_minus_1)
{
    int k = kw_cases[_i][0], w = kw_cases[_i][1];
    ck_assert_int_eq(detected(k - 1, k, w, 500, 3000 + (uint64_t)_i), 0);
}
END_TEST

/* The guarantee is tight: one token less than w + k - 1 is sometimes missed
   (with w = 1 every k-gram is a fingerprint, so k tokens always match). */
START_TEST(guarantee_is_tight)
{
    int k = kw_cases[_i][0], w = kw_cases[_i][1], t = w + k - 1;
    if (w == 1)
        return;
    int found = detected(t - 1, k, w, 500, 4000 + (uint64_t)_i);
    ck_assert_msg(found < 500 && found > 0, "run of %d: %d of 500 detected", t - 1, found);
}
END_TEST

/* ---- pairs and regions ------------------------------------------------------------------- */

/* With k = 3 and w = 1 every 3-gram is a fingerprint. A's 3-grams are 14
   distinct ones, B's 10, and they share exactly the 4 of "ID = ID + ID ;":
   Jaccard 4 / (14 + 10 - 4) = 0.2, and one region, A's tokens [6, 12) on its
   line 2, B's [0, 6) on lines 1-2. */
static const char pair_a[] = "int f(void) {\n  x = y + z;\n  return 0;\n}\n";
static const char pair_b[] = "p =\n q + r;\nfor (;;);\n";

START_TEST(hand_computed_pair)
{
    gr_sim_doc d[2];
    doc_of(&d[0], "a", pair_a, NULL, 3, 1);
    doc_of(&d[1], "b", pair_b, NULL, 3, 1);
    ck_assert_int_eq(d[0].n_distinct, 14);
    ck_assert_int_eq(d[1].n_distinct, 10);
    ck_assert_int_eq(gr_sim_shared(&d[0], &d[1]), 4);
    ck_assert_int_eq(gr_sim_shared(&d[1], &d[0]), 4);

    gr_sim_pair *p;
    ck_assert_int_eq(gr_sim_rank_pairs(&p, d, 2), 1);
    ck_assert_int_eq(p[0].a, 0);
    ck_assert_int_eq(p[0].b, 1);
    ck_assert_int_eq(p[0].shared, 4);
    ck_assert_double_eq_tol(p[0].jaccard, 0.2, 1e-12);
    free(p);

    gr_sim_region *r;
    ck_assert_int_eq(gr_sim_regions(&r, &d[0], &d[1], 3), 1);
    ck_assert_int_eq(r[0].a0, 6);
    ck_assert_int_eq(r[0].a1, 12);
    ck_assert_int_eq(r[0].b0, 0);
    ck_assert_int_eq(r[0].b1, 6);
    ck_assert_int_eq(d[0].tok.line[r[0].a0], 2);
    ck_assert_int_eq(d[0].tok.line[r[0].a1 - 1], 2);
    ck_assert_int_eq(d[1].tok.line[r[0].b0], 1);
    ck_assert_int_eq(d[1].tok.line[r[0].b1 - 1], 2);
    ck_assert_int_eq(gr_sim_region_lines(r, 1, &d[0], 0), 1);
    ck_assert_int_eq(gr_sim_region_lines(r, 1, &d[1], 1), 2);
    size_t len;
    const char *line = gr_sim_doc_line(&d[0], 2, &len);
    ck_assert_int_eq((int)len, 12);
    ck_assert(strncmp(line, "  x = y + z;", len) == 0);
    free(r);
    gr_sim_doc_free(&d[0]);
    gr_sim_doc_free(&d[1]);
}
END_TEST

/* The same pair with "a = b + c;" as the stub: what they share is the stub's
   text, so nothing is shared and no region is found. */
START_TEST(base_text_removes_the_match)
{
    gr_sim_doc d[2];
    doc_of(&d[0], "a", pair_a, "a = b + c;", 3, 1);
    doc_of(&d[1], "b", pair_b, "a = b + c;", 3, 1);
    /* every 3-gram touching tokens [6, 12) of A or [0, 6) of B is dropped:
       A keeps those at 0..3, 12 and 13, B those at 6..9 */
    ck_assert_int_eq(d[0].n_distinct, 6);
    ck_assert_int_eq(d[1].n_distinct, 4);
    ck_assert_int_eq(gr_sim_shared(&d[0], &d[1]), 0);
    gr_sim_pair *p;
    ck_assert_int_eq(gr_sim_rank_pairs(&p, d, 2), 0);
    ck_assert_ptr_null(p);
    gr_sim_region *r;
    ck_assert_int_eq(gr_sim_regions(&r, &d[0], &d[1], 3), 0);
    ck_assert_ptr_null(r);
    for (long i = 6; i < 12; i++)
        ck_assert_int_eq(d[0].in_base[i], 1);
    ck_assert_int_eq(d[0].in_base[5], 0);
    gr_sim_doc_free(&d[0]);
    gr_sim_doc_free(&d[1]);
}
END_TEST

/* The pristine stub has no fingerprint of its own, and a stub with one
   function written has only that function's. */
START_TEST(stub_text_is_never_a_fingerprint)
{
    size_t ls, lh, lsol;
    char *stub = tree_file("data/stubs/lab02.c", &ls);
    char *hdr = tree_file("labs/lab02-softmax/lab02.h", &lh);
    char *sol = tree_file("solutions/lab02-softmax/lab02.c", &lsol);
    gr_sim_base base = {0};
    gr_sim_base_add(&base, stub, ls, GR_SIM_K);
    gr_sim_base_add(&base, hdr, lh, GR_SIM_K);

    gr_sim_doc d;
    gr_sim_doc_init(&d, gr_xstrdup("s"), gr_xstrdup("s.c"), gr_xstrdup(stub), ls, &base,
                    GR_SIM_K, GR_SIM_W);
    ck_assert_int_eq(d.n_fp, 0);
    gr_sim_doc_free(&d);

    gr_sim_doc_init(&d, gr_xstrdup("t"), gr_xstrdup("t.c"), gr_xstrdup(sol), lsol, &base,
                    GR_SIM_K, GR_SIM_W);
    ck_assert_int_gt(d.n_fp, 50);
    for (long i = 0; i < d.n_fp; i++)
        ck_assert(!gr_sim_base_has(&base, d.fp[i].hash));
    gr_sim_doc_free(&d);
    gr_sim_base_free(&base);
    free(stub);
    free(hdr);
    free(sol);
}
END_TEST

/* ---- the command on a class folder ------------------------------------------------------- */

static char *class_dir;

/* Write text to class_dir/rel, making its folders. */
static void put(const char *rel, const char *text, size_t len)
{
    char *path = gr_xasprintf("%s/%s", class_dir, rel);
    for (char *s = strchr(path + strlen(class_dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    ck_assert_int_eq(gr_write_file_atomic(path, text, len), 0);
    free(path);
}

/* Put the tree's file rel at class_dir/to. */
static void put_tree_file(const char *to, const char *rel)
{
    size_t len;
    char *text = tree_file(rel, &len);
    put(to, text, len);
    free(text);
}

/* The class: the solution (labs/ layout), its identical copy and its renamed
   copy (flat), an independent rewrite, two untouched stubs, a linked lab
   file, a linked student folder, a roster. */
static void make_class(void)
{
    class_dir = fk_mkdtemp("similarity");
    ck_assert_ptr_nonnull(class_dir);
    put_tree_file("alice/lab02-softmax/lab02.c", "solutions/lab02-softmax/lab02.c");
    put_tree_file("bob/lab02.c", "grader/tests/data/similarity/lab02_renamed.c");
    put_tree_file("carol/lab02.c", "grader/tests/data/similarity/lab02_rewrite.c");
    put_tree_file("dave/lab02.c", "data/stubs/lab02.c");
    put_tree_file("erin/lab02-softmax/lab02.c", "data/stubs/lab02.c");
    put_tree_file("frank/lab02.c", "solutions/lab02-softmax/lab02.c");
    put("roster.yaml", "students: []\n", 13);
    char *link = gr_xasprintf("%s/gina", class_dir);
    ck_assert_int_eq(mkdir(link, 0755), 0);
    free(link);
    link = gr_xasprintf("%s/gina/lab02.c", class_dir);
    char *target = gr_xasprintf("%s/alice/lab02-softmax/lab02.c", class_dir);
    ck_assert_int_eq(symlink(target, link), 0);
    free(link);
    free(target);
    /* a student folder that is a link to another's */
    link = gr_xasprintf("%s/hank", class_dir);
    target = gr_xasprintf("%s/frank", class_dir);
    ck_assert_int_eq(symlink(target, link), 0);
    free(link);
    free(target);
}

static void remove_class(void)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", class_dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(class_dir);
}

/* cmd_similarity_run on this tree, as capture.h runs a command. */
static int run_here(FILE *out, FILE *err, int argc, char **argv)
{
    return cmd_similarity_run(out, err, fk_root(), argc, argv);
}

#define SIMILARITY(...) CAPTURE(run_here, "similarity", __VA_ARGS__)

/* One CSV row split into its 14 fields (unquoted in place). */
#define CSV_FIELDS 14
typedef struct csv_row {
    char *f[CSV_FIELDS];
} csv_row;

/* The rows of csv after its header, into rows (at most max); returns how many. */
static int csv_rows(char *csv, csv_row *rows, int max)
{
    char *line = strchr(csv, '\n');
    ck_assert_ptr_nonnull(line);
    int n = 0;
    for (line++; *line && n < max; n++) {
        char *p = line;
        for (int f = 0; f < CSV_FIELDS; f++) {
            if (*p == '"') {
                rows[n].f[f] = ++p;
                p = strchr(p, '"');
                *p++ = '\0';
            } else {
                rows[n].f[f] = p;
                p += strcspn(p, ",\r\n");
            }
            ck_assert_msg(*p == (f == CSV_FIELDS - 1 ? '\r' : ','), "row %d field %d", n, f);
            *p++ = '\0';
            if (f == CSV_FIELDS - 1)
                ck_assert_msg(*p++ == '\n', "row %d: a CRLF line end (RFC 4180)", n);
        }
        line = p;
    }
    return n;
}

/* The row of the pair (a, b), or NULL. */
static const csv_row *row_of(const csv_row *rows, int n, const char *a, const char *b)
{
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].f[2], a) == 0 && strcmp(rows[i].f[3], b) == 0)
            return &rows[i];
    return NULL;
}

START_TEST(identical_and_renamed_rank_first_rewrite_low)
{
    run_result r = SIMILARITY(class_dir, "--lab", "2", "--format", "csv", "--top", "0");
    ck_assert_int_eq(r.rc, 0);
    ck_assert(strncmp(r.out, "lab,rank,student_a,student_b,jaccard,shared,fingerprints_a,"
                      "fingerprints_b,lines_a,lines_b,file_a,file_b,regions,same_file\n", 100) == 0);
    csv_row rows[16];
    int n = csv_rows(r.out, rows, 16);
    /* alice and frank handed in the same file: one row, before the pairs; the
       solution has 135 lines and 87 distinct fingerprints */
    ck_assert_int_ge(n, 2);
    ck_assert_str_eq(rows[0].f[1], "same");
    ck_assert_str_eq(rows[0].f[2], "alice");
    ck_assert_str_eq(rows[0].f[3], "");
    ck_assert_str_eq(rows[0].f[5], "87");
    ck_assert_str_eq(rows[0].f[8], "135");
    ck_assert_str_eq(rows[0].f[10], "alice/lab02-softmax/lab02.c");
    ck_assert_str_eq(rows[0].f[13], "alice frank");
    /* bob renamed and reformatted the same file: first, sharing everything; no
       pair of alice's and frank's own, and frank in no pair (alice stands for both) */
    ck_assert_str_eq(rows[1].f[1], "1");
    ck_assert_str_eq(rows[1].f[4], "1.000000");
    ck_assert_str_eq(rows[1].f[5], rows[1].f[6]);    /* shared = all of A's */
    ck_assert_str_eq(rows[1].f[6], rows[1].f[7]);
    ck_assert_str_eq(rows[1].f[13], "");
    ck_assert_ptr_null(row_of(rows, n, "alice", "frank"));
    const csv_row *ren = row_of(rows, n, "alice", "bob");
    ck_assert_ptr_eq(ren, &rows[1]);
    ck_assert_str_eq(ren->f[10], "alice/lab02-softmax/lab02.c");
    ck_assert_str_eq(ren->f[11], "bob/lab02.c");
    /* each function's body from its first statement to the line before
       "return LAB_OK; }", which with the next signature is the stub's own
       text (so is the signature and its brace); the last function to its end;
       bob's on other lines */
    ck_assert_str_eq(ren->f[12], "18-63:10-52 69-81:58-72 87-104:78-99 110-119:105-116 "
                     "126-135:122-131");
    ck_assert_str_eq(ren->f[8], "97");       /* 46 + 13 + 18 + 10 + 10 */
    ck_assert_str_eq(ren->f[9], "102");      /* 43 + 15 + 22 + 12 + 10 */
    /* the independent rewrite: low, after every copy */
    for (int i = 2; i < n; i++) {
        ck_assert(strcmp(rows[i].f[2], "carol") == 0 || strcmp(rows[i].f[3], "carol") == 0);
        ck_assert_msg(atof(rows[i].f[4]) < 0.05, "rewrite pair Jaccard %s", rows[i].f[4]);
    }
    ck_assert_ptr_null(strstr(r.out, "frank/"));
    /* untouched stubs: no pair, in either layout */
    ck_assert_ptr_null(strstr(r.out, "dave"));
    ck_assert_ptr_null(strstr(r.out, "erin"));
    /* the link is skipped, and said so */
    ck_assert_ptr_null(strstr(r.out, "gina"));
    ck_assert_ptr_nonnull(strstr(r.err, "skipped gina/lab02.c: gina/lab02.c is a symbolic link"));
    ck_assert_ptr_null(strstr(r.out, "hank"));
    ck_assert_ptr_nonnull(strstr(r.err, "skipped hank: a symbolic link, not a student's folder"));
    free_result(&r);
}
END_TEST

START_TEST(table_says_not_a_verdict_and_shows_regions)
{
    run_result r = SIMILARITY(class_dir, "--lab", "2", "--detail", "1", "--top", "4");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "A report, not a verdict"));
    ck_assert_ptr_nonnull(strstr(r.out, "every shared run of\n19 tokens or more is found"));
    ck_assert_ptr_nonnull(strstr(r.out, "Lab 2 (lab02-softmax): 6 files (2 with nothing beyond "
                                 "the stub's own text); 1\nthe same as an earlier student's, byte "
                                 "for byte; 1 pair of different files\nshares fingerprints:\n"
                                 "  2 students handed in the same lab02.c, byte for byte: alice, "
                                 "frank\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "     1    1.000      87       97      102  alice +1 ~ bob\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "  #1 alice +1 ~ bob: Jaccard 1.000, 87 shared "
                                 "fingerprints, 5 regions\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "region 1, "));
    ck_assert_ptr_nonnull(strstr(r.out, "alice/lab02-softmax/lab02.c lines 18-63 ~ bob/lab02.c "
                                 "lines 10-52\n"));
    /* side by side: line 18 of alice's beside line 10 of bob's (a tab is 4 spaces) */
    ck_assert_ptr_nonnull(strstr(r.out, "       18      if (rows < 0 || n < 1) {             |"
                                 "    10      if (nrow < 0x0 || len < 01)\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "more lines (--out FILE writes them all)"));
    ck_assert_ptr_null(strstr(r.out, "#2 "));               /* --detail 1 */
    ck_assert_ptr_null(strstr(r.out, "\n     2 "));         /* 1 pair only */
    ck_assert_ptr_null(strstr(r.out, "more pair"));         /* and every one listed */
    free_result(&r);
}
END_TEST

START_TEST(markdown_report)
{
    char *md = gr_xasprintf("%s/report.md", class_dir);
    run_result r = SIMILARITY(class_dir, "--lab", "2", "--out", md, "--top", "2");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Markdown report: "));
    size_t len;
    char *text = gr_read_file(md, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert(strncmp(text, "# Similarity report: ", 21) == 0);
    ck_assert_ptr_nonnull(strstr(text, "> **A report, not a verdict"));
    ck_assert_ptr_nonnull(strstr(text, "## Lab 2 (lab02-softmax)\n\n6 files (2 with nothing "
                                 "beyond the stub's own text); 1 the same as an earlier student's, "
                                 "byte for byte; 1 pair of different files shares fingerprints.\n\n"
                                 "- 2 students handed in the same lab02.c, byte for byte: alice, "
                                 "frank\n"));
    ck_assert_ptr_nonnull(strstr(text, "| 1 | alice +1 | bob | 1.000 | 87 | 97 | 102 |\n"));
    ck_assert_ptr_nonnull(strstr(text, "### 1. alice +1 ~ bob"));
    ck_assert_ptr_null(strstr(text, "### 2."));
    /* student text is HTML-escaped inside the <pre>, tabs as 4 spaces */
    ck_assert_ptr_nonnull(strstr(text, "<tr><th>alice/lab02-softmax/lab02.c lines 18-63</th>"
                                 "<th>bob/lab02.c lines 10-52</th></tr>\n<tr><td><pre>\n"
                                 "   18      if (rows &lt; 0 || n &lt; 1) {\n"));
    ck_assert_ptr_nonnull(strstr(text, "</pre></td><td><pre>\n"
                                 "   10      if (nrow &lt; 0x0 || len &lt; 01)\n"));
    free(text);
    free_result(&r);

    /* a report that cannot be written fails the run, with the reason */
    char *bad = gr_xasprintf("%s/no/such/folder/report.md", class_dir);
    r = SIMILARITY(class_dir, "--lab", "2", "--out", bad);
    ck_assert_int_eq(r.rc, 1);
    ck_assert_ptr_nonnull(strstr(r.err, "cannot write"));
    free_result(&r);
    free(bad);
    free(md);
}
END_TEST

START_TEST(every_lab_lists_only_labs_with_files)
{
    run_result r = SIMILARITY(class_dir, "--top", "1", "--detail", "0");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Lab 2 (lab02-softmax)"));
    ck_assert_ptr_null(strstr(r.out, "Lab 1 "));
    free_result(&r);

    /* a folder without any lab file: said on stderr, an empty report */
    char *empty = fk_mkdtemp("similarity-empty");
    r = SIMILARITY(empty, "--lab", "3");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_nonnull(strstr(r.err, "no lab file found"));
    ck_assert_ptr_nonnull(strstr(r.out, "Lab 3 (lab03-learned): 0 files; 0 pairs of different files share"));
    free_result(&r);
    rmdir(empty);
    free(empty);
}
END_TEST

/* Usage errors: exit 2, one line on stderr naming what to fix. */
static const struct {
    const char *args[4];
    int n;
    const char *says;
} usage_cases[] = {
    { { NULL }, 0, "give the folder of submissions" },
    { { "/nonexistent/attnlab-class" }, 1, "is not a folder" },
    { { "@", "@" }, 2, "unexpected argument" },
    { { "@", "--lab", "99" }, 3, "--lab" },               /* 99: in no course */
    { { "@", "--format", "xml" }, 3, "--format must be table or csv (got 'xml')" },
    { { "@", "--top", "-1" }, 3, "--top takes how many pairs" },
    { { "@", "--detail", "x" }, 3, "--detail takes how many pairs" },
    { { "@", "--max-files", "-2" }, 3, "--max-files takes how many files" },
    { { "@", "--out", "" }, 3, "--out needs a file name" },
    { { "@", "--frobnicate" }, 2, "unknown option" },
    { { "@", "--top" }, 2, "--top needs a value" },
};

START_TEST(usage_error_one_line_exit_2)
{
    const char *args[4];
    for (int i = 0; i < usage_cases[_i].n; i++)
        args[i] = strcmp(usage_cases[_i].args[i], "@") == 0 ? class_dir : usage_cases[_i].args[i];
    run_result r = run_command(run_here, "similarity", usage_cases[_i].n, args);
    check_usage_error(&r, _i, "attnlab similarity: ", usage_cases[_i].says);
    free_result(&r);
}
END_TEST

START_TEST(help_explains_method_and_csv)
{
    run_result r = SIMILARITY("--help");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.err, "");
    ck_assert(strncmp(r.out, "usage: attnlab similarity SUBMISSIONS", 37) == 0);
    ck_assert_ptr_nonnull(strstr(r.out, "never a\nverdict"));
    ck_assert_ptr_nonnull(strstr(r.out, "any shared run of\n19 tokens or more is found, none "
                                 "shorter than 12"));
    ck_assert_ptr_nonnull(strstr(r.out, "lab,rank,student_a,student_b,jaccard"));
    /* the default M, here and in the manual, is the code's */
    char *m = gr_xasprintf("(default %d, MOSS's own;", GR_SIM_MAX_FILES);
    ck_assert_ptr_nonnull(strstr(r.out, m));
    free(m);
    char *man = tree_file("doc/attnlab.1", NULL);
    m = gr_xasprintf("of a lab's different files (default %d)", GR_SIM_MAX_FILES);
    ck_assert_msg(strstr(man, m), "doc/attnlab.1 must say %s", m);
    free(m);
    free(man);
    free_result(&r);
}
END_TEST

/* ---- scale ------------------------------------------------------------------------------- */

/* Student folders named like spreadsheet formulas: the CSV keeps them text
   (a leading ', quoted), with CRLF line ends, and --csv-bom starts it with
   the UTF-8 byte order mark. */
START_TEST(csv_cells_a_spreadsheet_would_run_stay_text)
{
    class_dir = fk_mkdtemp("similarity-csv");
    ck_assert_ptr_nonnull(class_dir);
    put_tree_file("=SUM(1,2)/lab02.c", "solutions/lab02-softmax/lab02.c");
    put_tree_file("@cmd/lab02-softmax/lab02.c", "grader/tests/data/similarity/lab02_renamed.c");
    run_result r = SIMILARITY(class_dir, "--lab", "2", "--format", "csv", "--csv-bom");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strncmp(r.out, "\xEF\xBB\xBFlab,rank,", 12) == 0, "%.40s", r.out);
    ck_assert_msg(strstr(r.out, "\r\n2,1,\"'=SUM(1,2)\",\"'@cmd\",1.000000,") ||
                  strstr(r.out, "\r\n2,1,\"'@cmd\",\"'=SUM(1,2)\",1.000000,"), "%s", r.out);
    ck_assert_msg(strstr(r.out, ",\"'=SUM(1,2)/lab02.c\",") || strstr(r.out, ",\"'=SUM(1,2)/lab02.c\"\r"),
                  "%s", r.out);
    free_result(&r);
    remove_class();
}
END_TEST

/* 300 students of lab 2: each the rewrite or the solution with a different
   tenth of its lines left out, and one pair a copy of the same file. The copy
   is the row before the pairs, and the whole run stays within a CPU-time budget (CPU, not wall
   time, so a busy machine does not fail it). */
START_TEST(three_hundred_students)
{
    size_t la, lb;
    char *src[2] = { tree_file("solutions/lab02-softmax/lab02.c", &la),
                     tree_file("grader/tests/data/similarity/lab02_rewrite.c", &lb) };
    class_dir = fk_mkdtemp("similarity-300");
    ck_assert_ptr_nonnull(class_dir);
    sup_rng rng;
    sup_rng_seed(&rng, 300);
    char *kept = NULL;
    for (int s = 0; s < 300; s++) {
        gr_strbuf b = {0};
        const char *p = src[s % 2];
        while (*p) {
            size_t n = strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0);
            if (sup_rng_uniform(&rng) >= 0.1f)
                gr_sb_appendn(&b, p, n);
            p += n;
        }
        char rel[64];
        snprintf(rel, sizeof rel, s % 3 ? "s%03d/lab02.c" : "s%03d/lab02-softmax/lab02.c", s);
        if (s == 299)
            put(rel, kept, strlen(kept));    /* s299 copies s150 */
        else
            put(rel, b.s, b.len);
        if (s == 150)
            kept = gr_xstrdup(b.s);
        free(b.s);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    run_result r = SIMILARITY(class_dir, "--lab", "2", "--top", "3", "--format", "csv");
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double cpu = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    ck_assert_int_eq(r.rc, 0);
    csv_row rows[3];
    ck_assert_int_eq(csv_rows(r.out, rows, 3), 3);
    ck_assert_str_eq(rows[0].f[1], "same");                 /* s299 handed in s150's file */
    ck_assert_str_eq(rows[0].f[2], "s150");
    ck_assert_str_eq(rows[0].f[13], "s150 s299");
    ck_assert_str_eq(rows[1].f[1], "1");
    ck_assert_ptr_null(strstr(r.out, ",s299,"));            /* s150 stands for both */
    ck_assert_msg(cpu < 5.0, "300 students took %.2f s of CPU time", cpu);
    free_result(&r);
    free(kept);
    free(src[0]);
    free(src[1]);
    remove_class();
}
END_TEST

/* Groups of identical files come largest first, ties in student order, and
   a file one student handed in is no group. */
START_TEST(groups_largest_first)
{
    gr_sim_doc docs[5] = {{.n_same = 0}, {.n_same = 1}, {.n_same = 3}, {.n_same = 1}, {.n_same = 0}};
    gr_sim_lab l = {.docs = docs, .n_docs = 5};
    int *order;
    ck_assert_int_eq(gr_sim_groups(&l, &order), 3);
    ck_assert_int_eq(order[0], 2);
    ck_assert_int_eq(order[1], 1);
    ck_assert_int_eq(order[2], 3);
    free(order);
    l.n_docs = 1;
    ck_assert_int_eq(gr_sim_groups(&l, &order), 0);
    ck_assert_ptr_null(order);
}
END_TEST

/* Passages common to many files (MOSS's -m): with max_files 2, of four files
   (the solution, its renamed copy, the solution with its second pass
   reworded, and the independent rewrite) every fingerprint in three or more
   goes, from every file, and nothing else; max_files 0 keeps all. */
START_TEST(common_passages_are_discounted)
{
    size_t ls, lr, lw;
    char *sol = tree_file("solutions/lab02-softmax/lab02.c", &ls);
    char *ren = tree_file("grader/tests/data/similarity/lab02_renamed.c", &lr);
    char *rew = tree_file("grader/tests/data/similarity/lab02_rewrite.c", &lw);
    char *edit = fk_replace(sol, "sum += (double)e;", "sum = sum + (double)e * 1.0;");
    const char *text[4] = {sol, ren, edit, rew};
    gr_sim_doc d[4], all[4];
    for (int i = 0; i < 4; i++) {
        doc_of(&d[i], "s", text[i], NULL, GR_SIM_K, GR_SIM_W);
        doc_of(&all[i], "s", text[i], NULL, GR_SIM_K, GR_SIM_W);
    }
    ck_assert_int_eq(gr_sim_discount_common(all, 4, 0), 0);
    /* in how many of the four each distinct hash of each file is, before */
    long common = 0, kept = 0;
    for (int i = 0; i < 4; i++)
        for (long f = 0; f < d[i].n_fp; f++) {
            if (f > 0 && d[i].fp[f].hash == d[i].fp[f - 1].hash)
                continue;
            int in = 0, first = 1;
            for (int j = 0; j < 4; j++)
                for (long g = 0; g < d[j].n_fp; g++)
                    if (d[j].fp[g].hash == d[i].fp[f].hash) {
                        in++;
                        first &= j >= i;
                        break;
                    }
            common += in > 2 && first;        /* counted once, at its first file */
            kept += in <= 2;
        }
    ck_assert_int_gt(common, 40);             /* the solution's text, mostly */
    ck_assert_int_gt(kept, 20);               /* the rewrite's own, the edit's */
    ck_assert_int_eq(gr_sim_discount_common(d, 4, 2), common);
    long left = 0;
    for (int i = 0; i < 4; i++) {
        left += d[i].n_distinct;
        for (long f = 0; f < d[i].n_fp; f++) {
            int in = 0;
            for (int j = 0; j < 4; j++)
                in += gr_sim_shared(&d[j], &(gr_sim_doc){.fp = &d[i].fp[f], .n_fp = 1}) > 0;
            ck_assert_int_le(in, 2);
        }
    }
    ck_assert_int_eq(left, kept);
    /* the solution and its renamed copy now share nothing the edit has too */
    ck_assert_int_lt(gr_sim_shared(&d[0], &d[1]), gr_sim_shared(&all[0], &all[1]));
    for (int i = 0; i < 4; i++) {
        gr_sim_doc_free(&d[i]);
        gr_sim_doc_free(&all[i]);
    }
    free(sol);
    free(ren);
    free(rew);
    free(edit);
}
END_TEST

/* report.html's similar files of class_dir's 122 (below) for a class of
   their ids, nothing graded: the 120 are one line with their count, the pair
   one row of ids, and a student of the 120 is told whose file theirs is. */
static void html_names_the_group_and_the_pair(void)
{
    gr_class c = {0};
    c.labs[1] = 1;
    c.n = 122;
    c.students = gr_xcalloc(122, sizeof *c.students);
    for (int s = 0; s < 122; s++) {
        gr_student *st = &c.students[s];
        st->id = gr_xasprintf("%s%d@example.edu", s == 40 || s == 90 ? "near" : "s", s);
        st->folder = gr_xasprintf("submission_%d", 9000 + s);
        st->submitted = 1;
    }
    char *html = gr_classhtml_page(&c, &(gr_html_opts){fk_root(), class_dir, NULL});
    ck_assert_msg(strstr(html, "<li><b>120 students handed in the same lab02-softmax file</b>, "
                               "byte for byte: <a href=\"#s0\">s0@example.edu</a>, "), "%s", html);
    ck_assert_msg(strstr(html, "<tr><td>lab02-softmax</td><td><a href=\"#s40\">near40@example.edu"
                               "</a></td><td><a href=\"#s90\">near90@example.edu</a></td><td "
                               "class=\"n\">97%</td>"), "the pair first: %s", html);
    ck_assert_msg(strstr(html, "<a href=\"#s0\">s0@example.edu</a> <span class=\"muted\">+119 "
                               "with the same file</span>"), "the group in a pair: %s", html);
    ck_assert_msg(strstr(html, "The same lab02-softmax file, byte for byte, as <a href=\"#similarity"
                               "\">119 others</a>"), "%s", html);
    ck_assert_ptr_null(strstr(html, "submission_"));
    free(html);
    for (int s = 0; s < 122; s++) {
        free(c.students[s].id);
        free(c.students[s].folder);
    }
    free(c.students);
}

/* A Gradescope export of 122 lab 2 files: 120 the solution unchanged, and a
   near-copy pair (the solution with one more declaration, one of them with a
   pair of parentheses more too), Jaccard 0.967. The 120 are one line
   with the count; the pair is named by the batch's ids (the submitters'
   emails), never by folder, ranked first, and what --top leaves out is said. */
START_TEST(the_pair_among_120_identical_copies)
{
    class_dir = fk_mkdtemp("similarity-120");
    ck_assert_ptr_nonnull(class_dir);
    size_t len;
    char *sol = tree_file("solutions/lab02-softmax/lab02.c", &len);
    char *a = fk_replace(sol, "double sum = 0.0;", "double sum = 0.0, unused = 0.0;");
    char *b = fk_replace(a, "w[j] = e;", "w[j] = (e);");
    gr_strbuf meta = {0};
    for (int s = 0; s < 122; s++) {
        char rel[64];
        snprintf(rel, sizeof rel, "submission_%d/lab02.c", 9000 + s);
        const char *text = s == 40 ? a : s == 90 ? b : sol;
        put(rel, text, strlen(text));
        gr_sb_printf(&meta, "submission_%d:\n  :submitters:\n  - :name: S %d\n    :sid: '%d'\n"
                            "    :email: %s%d@example.edu\n  :created_at: 2025-02-07 23:41:07 "
                            "-05:00\n", 9000 + s, s, s, s == 40 || s == 90 ? "near" : "s", s);
    }
    put("submission_metadata.yml", meta.s, meta.len);
    html_names_the_group_and_the_pair();
    run_result r = SIMILARITY(class_dir, "--lab", "2", "--top", "1", "--detail", "0");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_msg(strstr(r.out, "  120 students handed in the same lab02.c, byte for byte: "
                             "s0@example.edu,\n  s1@example.edu,") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "and 110 more (--out FILE lists them all)"), "%s", r.out);
    /* 87 of 90 fingerprints shared; the solution and each of the pair share fewer */
    ck_assert_msg(strstr(r.out, "\n     1    0.967      87       97       97  near40@example.edu"
                                " ~ near90@example.edu\n"), "the near-copy pair first: %s", r.out);
    ck_assert_msg(strstr(r.out, "  ... and 2 more pairs (--top 0 lists them all)\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "submission_") == NULL, "a folder's name for an id: %s", r.out);
    free_result(&r);

    r = SIMILARITY(class_dir, "--lab", "2", "--format", "csv");
    ck_assert_int_eq(r.rc, 0);
    csv_row rows[4];
    ck_assert_int_eq(csv_rows(r.out, rows, 4), 4);    /* the group and 3 pairs */
    ck_assert_str_eq(rows[0].f[1], "same");
    ck_assert_int_eq((int)strlen(rows[0].f[13]) > 120 * 14, 1);
    ck_assert_str_eq(rows[1].f[2], "near40@example.edu");
    ck_assert_str_eq(rows[1].f[3], "near90@example.edu");
    double j = atof(rows[1].f[4]);
    ck_assert_msg(j > 0.95 && j < 1.0, "the pair's Jaccard %s", rows[1].f[4]);
    free_result(&r);
    free(meta.s);
    free(sol);
    free(a);
    free(b);
    remove_class();
}
END_TEST

/* Block k of a made-up lab file: a function of 40 operators drawn from k's
   own seed, so no two blocks share a run worth a fingerprint by design. */
static void block(gr_strbuf *b, int k)
{
    static const char ops[] = "+-*/";
    sup_rng rng;
    sup_rng_seed(&rng, 1000 + (uint64_t)k);
    gr_sb_printf(b, "static float b%d(float x)\n{\n    return x", k);
    for (int j = 0; j < 40; j++)
        gr_sb_printf(b, " %c x", ops[sup_rng_u64(&rng) % 4]);
    gr_sb_append(b, ";\n}\n");
}

/* 40 students of lab 2, each a different file of 10 of 40 blocks in a ring
   (student i: blocks i to i + 9), so each block is in 10 files (not
   discounted) and neighbours 1 to 3 apart share 9 to 7 of their 10: over a
   hundred pairs at 50% or more. report.html lists the 100 most similar and
   says how many more there are, and how to list them. */
START_TEST(report_html_says_how_many_pairs_more)
{
    class_dir = fk_mkdtemp("similarity-ring");
    ck_assert_ptr_nonnull(class_dir);
    gr_class c = {0};
    c.labs[1] = 1;
    c.n = 40;
    c.students = gr_xcalloc(40, sizeof *c.students);
    char *names[40];
    for (int s = 0; s < 40; s++) {
        gr_strbuf b = {0};
        for (int k = 0; k < 10; k++)
            block(&b, (s + k) % 40);
        char rel[32];
        snprintf(rel, sizeof rel, "r%02d/lab02.c", s);
        put(rel, b.s, b.len);
        free(b.s);
        c.students[s].id = gr_xasprintf("r%02d", s);
        c.students[s].folder = names[s] = gr_xasprintf("r%02d", s);
        c.students[s].submitted = 1;
    }
    /* the pairs at 50% or more, as the similarity report ranks them */
    gr_sim_lab l;
    char err[256];
    ck_assert_int_eq(gr_sim_lab_load(&l, fk_root(), class_dir, names, 40, 2, GR_SIM_K, GR_SIM_W,
                                     GR_SIM_MAX_FILES, stderr, err, sizeof err), 0);
    long at_half = 0;
    for (long p = 0; p < l.n_pairs; p++)
        at_half += l.pairs[p].jaccard >= GR_HTML_SIM_MIN;
    gr_sim_lab_free(&l);
    ck_assert_int_gt(at_half, GR_HTML_SIM_TOP);
    char *html = gr_classhtml_page(&c, &(gr_html_opts){fk_root(), class_dir, NULL});
    const char *t = strstr(html, "<table class=\"similarity\">"), *end = t ? strstr(t, "</table>") : NULL;
    ck_assert_ptr_nonnull(end);
    int rows = 0;
    for (const char *r = strstr(t, "<tr><td>lab02"); r && r < end; r = strstr(r + 1, "<tr><td>lab02"))
        rows++;
    ck_assert_int_eq(rows, GR_HTML_SIM_TOP);
    char *more = gr_xasprintf("<p class=\"more\">lab02-softmax: the %d most similar pairs above, "
                              "and %ld more at 50%% or more: <code>attnlab similarity SUBMISSIONS "
                              "--lab 2 --top 0</code> lists them all.</p>", GR_HTML_SIM_TOP,
                              at_half - GR_HTML_SIM_TOP);
    ck_assert_msg(strstr(end, more), "no '%s' after the table", more);
    free(more);
    /* the manual says the same numbers */
    char *man = tree_file("doc/attnlab.1", NULL);
    more = gr_xasprintf("at least %.0f%% similar (as\n", 100 * GR_HTML_SIM_MIN);
    ck_assert_msg(strstr(man, more), "doc/attnlab.1 must say '%s'", more);
    free(more);
    more = gr_xasprintf("the first %d of each lab and how\nmany more", GR_HTML_SIM_TOP);
    ck_assert_msg(strstr(man, more), "doc/attnlab.1 must say '%s'", more);
    free(more);
    free(man);
    free(html);
    for (int s = 0; s < 40; s++) {
        free(c.students[s].id);
        free(c.students[s].folder);
    }
    free(c.students);
    remove_class();
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("similarity");
    TCase *tc = tcase_create("tokens");
    tcase_add_test(tc, tokens_of_a_snippet);
    tcase_add_test(tc, tokens_survive_unterminated_text);
    tcase_add_test(tc, renaming_and_literals_change_nothing);
    suite_add_tcase(s, tc);

    int n_kw = (int)(sizeof kw_cases / sizeof kw_cases[0]);
    tc = tcase_create("winnowing");
    tcase_add_test(tc, winnow_paper_example);
    tcase_add_test(tc, kgram_hashes_count_and_equality);
    tcase_add_loop_test(tc, guarantee_run_of_w_plus_k_minus_1, 0, n_kw);
    tcase_add_loop_test(tc, noise_threshold_run_of_k_minus_1, 0, n_kw);
    tcase_add_loop_test(tc, guarantee_is_tight, 0, n_kw);
    suite_add_tcase(s, tc);

    tc = tcase_create("pairs");
    tcase_add_test(tc, hand_computed_pair);
    tcase_add_test(tc, base_text_removes_the_match);
    tcase_add_test(tc, stub_text_is_never_a_fingerprint);
    tcase_add_test(tc, common_passages_are_discounted);
    tcase_add_test(tc, groups_largest_first);
    suite_add_tcase(s, tc);

    tc = tcase_create("command");
    tcase_add_checked_fixture(tc, make_class, remove_class);
    tcase_add_test(tc, identical_and_renamed_rank_first_rewrite_low);
    tcase_add_test(tc, table_says_not_a_verdict_and_shows_regions);
    tcase_add_test(tc, markdown_report);
    tcase_add_test(tc, every_lab_lists_only_labs_with_files);
    tcase_add_loop_test(tc, usage_error_one_line_exit_2, 0,
                        (int)(sizeof usage_cases / sizeof usage_cases[0]));
    tcase_add_test(tc, help_explains_method_and_csv);
    suite_add_tcase(s, tc);

    tc = tcase_create("scale");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, three_hundred_students);
    tcase_add_test(tc, the_pair_among_120_identical_copies);
    tcase_add_test(tc, report_html_says_how_many_pairs_more);
    tcase_add_test(tc, csv_cells_a_spreadsheet_would_run_stay_text);
    suite_add_tcase(s, tc);
    return s;
}
