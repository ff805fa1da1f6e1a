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
#include "class/similarity.h"
#include "util.h"

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

/* One CSV row split into its 13 fields (unquoted in place). */
typedef struct csv_row {
    char *f[13];
} csv_row;

/* The rows of csv after its header, into rows (at most max); returns how many. */
static int csv_rows(char *csv, csv_row *rows, int max)
{
    char *line = strchr(csv, '\n');
    ck_assert_ptr_nonnull(line);
    int n = 0;
    for (line++; *line && n < max; n++) {
        char *p = line;
        for (int f = 0; f < 13; f++) {
            if (*p == '"') {
                rows[n].f[f] = ++p;
                p = strchr(p, '"');
                *p++ = '\0';
            } else {
                rows[n].f[f] = p;
                p += strcspn(p, ",\r\n");
            }
            ck_assert_msg(*p == (f == 12 ? '\r' : ','), "row %d field %d", n, f);
            *p++ = '\0';
            if (f == 12)
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
                      "fingerprints_b,lines_a,lines_b,file_a,file_b,regions\n", 100) == 0);
    csv_row rows[16];
    int n = csv_rows(r.out, rows, 16);
    /* alice, bob and frank share everything; carol's rewrite and the stubs
       share nothing worth a fingerprint */
    ck_assert_int_ge(n, 3);
    for (int i = 0; i < 3; i++) {
        ck_assert_str_eq(rows[i].f[4], "1.000000");
        ck_assert_str_eq(rows[i].f[5], rows[i].f[6]);    /* shared = all of A's */
        ck_assert_str_eq(rows[i].f[6], rows[i].f[7]);
        ck_assert(strcmp(rows[i].f[2], "carol") != 0 && strcmp(rows[i].f[3], "carol") != 0);
        ck_assert_int_eq(atoi(rows[i].f[1]), i + 1);
    }
    /* identical: the same lines matched in both files */
    const csv_row *same = row_of(rows, n, "alice", "frank");
    ck_assert_ptr_nonnull(same);
    ck_assert_str_eq(same->f[10], "alice/lab02-softmax/lab02.c");
    ck_assert_str_eq(same->f[11], "frank/lab02.c");
    ck_assert_str_eq(same->f[8], same->f[9]);
    /* each function's body from its first statement to the line before
       "return LAB_OK; }", which with the next signature is the stub's own
       text (so is the signature and its brace); the last function to its end */
    ck_assert_str_eq(same->f[12], "18-63:18-63 69-81:69-81 87-104:87-104 110-119:110-119 "
                     "126-135:126-135");
    ck_assert_str_eq(same->f[8], "97");      /* 46 + 13 + 18 + 10 + 10 */
    /* renamed and reformatted: the same regions on other lines */
    const csv_row *ren = row_of(rows, n, "alice", "bob");
    ck_assert_ptr_nonnull(ren);
    ck_assert_str_eq(ren->f[12], "18-63:10-52 69-81:58-72 87-104:78-99 110-119:105-116 "
                     "126-135:122-131");
    ck_assert_str_eq(ren->f[9], "102");      /* 43 + 15 + 22 + 12 + 10 */
    /* the independent rewrite: low, after every copy */
    for (int i = 3; i < n; i++) {
        ck_assert(strcmp(rows[i].f[2], "carol") == 0 || strcmp(rows[i].f[3], "carol") == 0);
        ck_assert_msg(atof(rows[i].f[4]) < 0.05, "rewrite pair Jaccard %s", rows[i].f[4]);
    }
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
                                 "the stub's own text); 3\npairs share fingerprints:\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "     1    1.000      87       97      102  alice ~ bob\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "  #1 alice ~ bob: Jaccard 1.000, 87 shared "
                                 "fingerprints, 5 regions\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "region 1, "));
    ck_assert_ptr_nonnull(strstr(r.out, "alice/lab02-softmax/lab02.c lines 18-63 ~ bob/lab02.c "
                                 "lines 10-52\n"));
    /* side by side: line 18 of alice's beside line 10 of bob's (a tab is 4 spaces) */
    ck_assert_ptr_nonnull(strstr(r.out, "       18      if (rows < 0 || n < 1) {             |"
                                 "    10      if (nrow < 0x0 || len < 01)\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "more lines (--out FILE writes them all)"));
    ck_assert_ptr_null(strstr(r.out, "#2 "));               /* --detail 1 */
    ck_assert_ptr_null(strstr(r.out, "\n     4 "));         /* 3 pairs only */
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
                                 "beyond the stub's own text); 3 pairs share fingerprints.\n"));
    ck_assert_ptr_nonnull(strstr(text, "| 1 | alice | bob | 1.000 | 87 | 97 | 102 |\n"));
    ck_assert_ptr_nonnull(strstr(text, "### 2. alice ~ frank"));
    ck_assert_ptr_null(strstr(text, "### 3."));
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
    ck_assert_ptr_nonnull(strstr(r.out, "Lab 3 (lab03-learned): 0 files; 0 pairs share"));
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
    put_tree_file("@cmd/lab02-softmax/lab02.c", "solutions/lab02-softmax/lab02.c");
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
   ranks first, and the whole run stays within a CPU-time budget (CPU, not wall
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
    ck_assert_str_eq(rows[0].f[2], "s150");
    ck_assert_str_eq(rows[0].f[3], "s299");
    ck_assert_str_eq(rows[0].f[4], "1.000000");
    ck_assert_msg(cpu < 5.0, "300 students took %.2f s of CPU time", cpu);
    free_result(&r);
    free(kept);
    free(src[0]);
    free(src[1]);
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
    tcase_add_test(tc, csv_cells_a_spreadsheet_would_run_stay_text);
    suite_add_tcase(s, tc);
    return s;
}
