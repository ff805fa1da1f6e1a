/* test_yaml.c: YAML tensor I/O. Reading the fixtures in lib/tests/data/
 * (every error with its exact file:line:column), writing then reading back
 * the same bits (-inf, inf, nan and -0 included), the written text itself,
 * and that a failed write leaves an existing file exactly as it was. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "labsup.h"

Suite *test_suite(void);

/* ---- helpers ---------------------------------------------------------------------- */

/* Path of a fixture in lib/tests/data/, found from the working directory (the
   tree's root, as `make test-unit` runs), from this file's compiled path, or
   by walking up from the test executable (build/lib/tests/). */
static const char *fixture(const char *name)
{
    static char path[PATH_MAX];
    char base[PATH_MAX];

    int n = snprintf(path, sizeof path, "lib/tests/data/%s", name);
    if (n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0)
        return path;

    snprintf(base, sizeof base, "%s", __FILE__);
    char *slash = strrchr(base, '/');
    if (slash) {
        *slash = '\0';
        n = snprintf(path, sizeof path, "%s/data/%s", base, name);
        if (n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0)
            return path;
    }

    ssize_t len = readlink("/proc/self/exe", base, sizeof base - 1);
    if (len > 0) {
        base[len] = '\0';
        for (int up = 0; up < 6 && (slash = strrchr(base, '/')) != NULL; up++) {
            *slash = '\0';
            n = snprintf(path, sizeof path, "%s/lib/tests/data/%s", base, name);
            if (n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0)
                return path;
        }
    }
    ck_abort_msg("fixture lib/tests/data/%s not found; run the test from the tree's root", name);
    return NULL;
}

/* A fresh private folder for files a test writes. */
static char *make_temp_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = malloc(PATH_MAX);
    ck_assert_ptr_nonnull(dir);
    snprintf(dir, PATH_MAX, "%s/attnlab-test-yaml-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

/* Remove the temporary folder and what is in it (one level, as tests make it). */
static void remove_temp_dir(char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[PATH_MAX];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
    free(dir);
}

/* Number of entries in a folder, "." and ".." aside. */
static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *s = calloc((size_t)len + 1, 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(fread(s, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return s;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static sup_tensor *tensor_of(int ndim, const int *shape, const float *v)
{
    sup_tensor *t = sup_tensor_alloc(ndim, shape);
    ck_assert_ptr_nonnull(t);
    memcpy(t->data, v, (size_t)t->size * sizeof(float));
    return t;
}

/* Same shape and the same bits in every element (so nan == nan, -0 != 0). */
static void assert_same_tensor(const sup_tensor *a, const sup_tensor *b)
{
    ck_assert_int_eq(a->ndim, b->ndim);
    for (int k = 0; k < a->ndim; k++)
        ck_assert_int_eq(a->shape[k], b->shape[k]);
    ck_assert_int_eq(a->size, b->size);
    for (long n = 0; n < a->size; n++)
        ck_assert_msg(memcmp(&a->data[n], &b->data[n], sizeof(float)) == 0 ||
                      (isnan(a->data[n]) && isnan(b->data[n])),
                      "element %ld: wrote %.9g, read back %.9g", n,
                      (double)a->data[n], (double)b->data[n]);
}

/* ---- reading -------------------------------------------------------------------------- */

START_TEST(read_worked_row_flow_style)
{
    sup_tensor *t = sup_yaml_read_tensor(fixture("good.yaml"), "scores");
    ck_assert_msg(t != NULL, "%s", sup_error());
    ck_assert_int_eq(t->ndim, 2);
    ck_assert_int_eq(t->shape[0], 1);
    ck_assert_int_eq(t->shape[1], 4);
    const float want[4] = { 2.0f, 1.0f, -1.0f, 0.5f };
    for (int j = 0; j < 4; j++)
        ck_assert_msg(t->data[j] == want[j], "score %d: %g", j, (double)t->data[j]);
    sup_tensor_free(t);

    t = sup_yaml_read_tensor(fixture("good.yaml"), "masked");
    ck_assert_msg(t != NULL, "%s", sup_error());
    ck_assert(isinf(t->data[3]) && t->data[3] < 0);    /* -.inf is the padding key */
    sup_tensor_free(t);
}
END_TEST

/* Block sequences read the same as flow ones; "0" is a valid float. */
START_TEST(read_block_style)
{
    sup_tensor *t = sup_yaml_read_tensor(fixture("good.yaml"), "weights");
    ck_assert_msg(t != NULL, "%s", sup_error());
    ck_assert_int_eq(t->ndim, 1);
    ck_assert_int_eq(t->size, 4);
    ck_assert(t->data[0] == 0.7054f && t->data[1] == 0.2595f);
    ck_assert(t->data[2] == 0.0351f && t->data[3] == 0.0f);
    /* The worked row's weights sum to 1 within their 4-decimal rounding. */
    double sum = (double)t->data[0] + (double)t->data[1] + (double)t->data[2];
    ck_assert_double_eq_tol(sum, 1.0, 1e-4);
    sup_tensor_free(t);
}
END_TEST

/* Every spelling of a non-finite value, and strtod's own forms. */
START_TEST(read_special_values)
{
    sup_tensor *t = sup_yaml_read_tensor(fixture("good.yaml"), "special");
    ck_assert_msg(t != NULL, "%s", sup_error());
    ck_assert_int_eq(t->size, 9);
    for (int j = 0; j < 3; j++)                        /* .inf +.inf .Inf */
        ck_assert_msg(isinf(t->data[j]) && t->data[j] > 0, "value %d", j);
    ck_assert(isinf(t->data[3]) && t->data[3] < 0);    /* -.INF */
    ck_assert(isnan(t->data[4]) && isnan(t->data[5])); /* .NaN, nan */
    ck_assert(isinf(t->data[6]) && t->data[6] < 0);    /* -inf */
    ck_assert(t->data[7] == 1e-3f);                    /* 1e-3 */
    ck_assert(t->data[8] == 16.0f);                    /* 0x10 = 16 */
    sup_tensor_free(t);
}
END_TEST

/* One table row per broken fixture: the tensor asked for and the exact
   message after "path". Columns count from 1, as an editor shows them. */
static const struct {
    const char *file;
    const char *want;
} read_errors[] = {
    { "bad_unknown_key.yaml",   /* line 3 is "  shap: [2, 3]": the key starts at column 3 */
      ":3:3: unknown key \"shap\" in tensor 'Q'; did you mean \"shape\"?" },
    { "bad_count.yaml",         /* "  data: [" puts '[' at column 9; 5 values, 2 * 3 = 6 needed */
      ":3:9: tensor 'Q' has 5 data values but its shape [2, 3] needs 6" },
    { "bad_number.yaml",        /* "  data: [2.0, 1.0, " is 19 characters: -1.O starts at 20 */
      ":6:20: '-1.O' in the data of 'Q' is not a number (write e.g. 0.5, -2, 1e-3, .inf, "
      "-.inf or .nan)" },
    { "bad_size_zero.yaml",     /* "  shape: [2, " is 13 characters */
      ":2:14: size 0 in the shape of 'Q' must be at least 1" },
    { "bad_size_word.yaml",
      ":2:14: size 'three' in the shape of 'Q' is not a whole number" },
    { "bad_shape_scalar.yaml",  /* "  shape: " is 9 characters */
      ":2:10: the shape of 'Q' must be a list of sizes like [2, 3], found a single value" },
    { "bad_too_many_dims.yaml",
      ":2:10: the shape of 'Q' has 5 sizes; a tensor has 1 to 4" },
    { "bad_quoted.yaml",        /* the quote itself starts the node, at column 10 */
      ":3:10: '1.0' in the data of 'Q' is quoted, so YAML reads it as text; write numbers "
      "without quotes" },
    { "bad_nested.yaml",
      ":3:10: the data of 'Q' must be a flat list of numbers, found a list inside it" },
    { "bad_range.yaml",         /* "  data: [1.0, " is 14 characters */
      ":3:15: 1e39 in the data of 'Q' is outside the float range (about +-3.4e38); write "
      ".inf or -.inf if you mean infinity" },
    { "bad_missing_data.yaml",  /* the tensor's mapping starts at line 2, column 3 */
      ":2:3: tensor 'Q' has no data; add data: [...] with one number per element" },
    { "bad_duplicate.yaml",
      ":4:1: tensor 'Q' is defined twice (first at line 1); rename or remove one" },
    { "bad_root.yaml",
      ":1:1: the file should map tensor names to tensors (Q: ...), found a list" },
    { "bad_two_docs.yaml",      /* the second document's mapping starts after "---" */
      ":5:1: a second YAML document starts here; put all tensors in one mapping" },
    { "bad_syntax.yaml",        /* libyaml notices the missing ']' at "data", line 3 column 7 */
      ":3:7: YAML syntax error: did not find expected ',' or ']' (while parsing a flow "
      "sequence, which starts at line 2)" },
    { "bad_utf8.yaml",          /* byte 0xff after "Q: " (3 characters) */
      ":1:4: the file is not UTF-8 text (invalid leading UTF-8 octet); save it as UTF-8" },
    { "empty.yaml",
      ": the file is empty; it should map names to tensors, e.g. "
      "\"Q: {shape: [2], data: [1.0, 2.0]}\"" },
    { "good.yaml",              /* a valid file without the tensor asked for */
      ": no tensor named 'Q' (the file has: scores, masked, weights, special)" },
};

START_TEST(read_error_names_line_and_column)
{
    const char *path = fixture(read_errors[_i].file);
    sup_tensor *t = sup_yaml_read_tensor(path, "Q");
    ck_assert_msg(t == NULL, "%s was read without an error", read_errors[_i].file);
    char want[PATH_MAX + 512];
    int n = snprintf(want, sizeof want, "%s%s", path, read_errors[_i].want);
    ck_assert(n > 0 && (size_t)n < sizeof want);
    ck_assert_str_eq(sup_error(), want);
}
END_TEST

/* An error in any tensor of the file is reported, whichever one is asked for:
   K is fine in bad_number.yaml, but Q (line 6) is not. */
START_TEST(read_checks_every_tensor)
{
    sup_tensor *t = sup_yaml_read_tensor(fixture("bad_number.yaml"), "K");
    ck_assert_ptr_null(t);
    ck_assert_ptr_nonnull(strstr(sup_error(), ":6:20: '-1.O'"));
}
END_TEST

START_TEST(read_missing_file_and_folder)
{
    ck_assert_ptr_null(sup_yaml_read_tensor("/nonexistent/attnlab/x.yaml", "Q"));
    ck_assert_str_eq(sup_error(),
                     "/nonexistent/attnlab/x.yaml: cannot open: No such file or directory");
    char *dir = make_temp_dir();
    ck_assert_ptr_null(sup_yaml_read_tensor(dir, "Q"));
    ck_assert_ptr_nonnull(strstr(sup_error(), ": is a folder, not a YAML file"));
    remove_temp_dir(dir);
}
END_TEST

/* ---- writing ---------------------------------------------------------------------------- */

/* Write two tensors, read both back: the same shape and the same bits,
   including -inf, inf, nan, -0, the largest and smallest floats, and values
   whose shortest decimal needs all 9 digits. */
START_TEST(write_then_read_round_trips)
{
    char *dir = make_temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/tensors.yaml", dir);

    int sq[2] = { 3, 4 }, sk[1] = { 4 };
    const float q[12] = { 2.0f, 1.0f, -1.0f, 0.5f,
                          -INFINITY, INFINITY, NAN, -0.0f,
                          3.4028235e38f, 1.17549435e-38f, 1.4e-45f, 0.1f + 0.2f };
    const float k[4] = { 0.7054f, 0.2595f, 0.0351f, 1.0f / 3.0f };
    sup_tensor *tq = tensor_of(2, sq, q), *tk = tensor_of(1, sk, k);
    const char *names[2] = { "Q", "K" };
    const sup_tensor *tensors[2] = { tq, tk };
    ck_assert_msg(sup_yaml_write_tensors(path, names, tensors, 2) == 0, "%s", sup_error());

    sup_tensor *rq = sup_yaml_read_tensor(path, "Q");
    ck_assert_msg(rq != NULL, "%s", sup_error());
    sup_tensor *rk = sup_yaml_read_tensor(path, "K");
    ck_assert_msg(rk != NULL, "%s", sup_error());
    assert_same_tensor(tq, rq);
    assert_same_tensor(tk, rk);
    ck_assert(signbit(rq->data[7]));                   /* -0 kept its sign */
    ck_assert_int_eq(count_entries(dir), 1);           /* no temporary file left */

    sup_tensor_free(tq);
    sup_tensor_free(tk);
    sup_tensor_free(rq);
    sup_tensor_free(rk);
    remove_temp_dir(dir);
}
END_TEST

/* The text itself: a comment, the shape, the data broken after each row of the
   last axis, the fewest digits that read back the same float, always a decimal
   point (so YAML 1.1 readers such as PyYAML see floats), YAML's .nan / -.inf. */
START_TEST(write_exact_text)
{
    char *dir = make_temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/w.yaml", dir);
    int shape[2] = { 2, 3 };
    const float v[6] = { 1.0f, 0.7054f, 1e10f, 2.5e-7f, NAN, -INFINITY };
    sup_tensor *t = tensor_of(2, shape, v);
    const char *names[1] = { "W" };
    const sup_tensor *tensors[1] = { t };
    ck_assert_msg(sup_yaml_write_tensors(path, names, tensors, 1) == 0, "%s", sup_error());
    char *text = read_all(path);
    ck_assert_str_eq(text, "# tensors written by attnlab (sup_yaml_write_tensors)\n"
                           "W:\n"
                           "  shape: [2, 3]\n"
                           "  data: [1.0, 0.7054, 1.0e+10,\n"
                           "         2.5e-07, .nan, -.inf]\n");
    free(text);
    sup_tensor_free(t);
    remove_temp_dir(dir);
}
END_TEST

/* Replacing a file keeps its permissions. */
START_TEST(write_keeps_mode_of_replaced_file)
{
    char *dir = make_temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/m.yaml", dir);
    write_text(path, "old\n");
    ck_assert_int_eq(chmod(path, 0600), 0);
    int shape[1] = { 1 };
    const float v[1] = { 1.0f };
    sup_tensor *t = tensor_of(1, shape, v);
    const char *names[1] = { "x" };
    const sup_tensor *tensors[1] = { t };
    ck_assert_int_eq(sup_yaml_write_tensors(path, names, tensors, 1), 0);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0600);
    sup_tensor_free(t);
    remove_temp_dir(dir);
}
END_TEST

static const char old_text[] = "# an earlier result the student wants to keep\n"
                               "Q:\n  shape: [1]\n  data: [42.0]\n";

/* Bad arguments are refused before anything touches the disk: the existing
   file keeps its text and no temporary file is left. */
START_TEST(write_bad_arguments_leave_file_untouched)
{
    char *dir = make_temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/keep.yaml", dir);
    write_text(path, old_text);

    int shape[1] = { 2 };
    const float v[2] = { 1.0f, 2.0f };
    sup_tensor *good = tensor_of(1, shape, v);
    sup_tensor broken = *good;
    broken.size = 3;                                   /* does not match shape [2] */

    const char *names[2] = { "A", "B" };
    const sup_tensor *tensors[2] = { good, &broken };
    ck_assert_int_eq(sup_yaml_write_tensors(path, names, tensors, 2), -1);
    ck_assert_str_eq(sup_error(), "sup_yaml_write_tensors: tensor 'B' says size 3 but its "
                                  "shape holds 2; allocate it with sup_tensor_alloc");

    const char *bad_names[] = { "yes", "1abc", "a b", "" };
    for (int i = 0; i < 4; i++) {
        const char *one[1] = { bad_names[i] };
        ck_assert_int_eq(sup_yaml_write_tensors(path, one, tensors, 1), -1);
        ck_assert_ptr_nonnull(strstr(sup_error(), "cannot be a tensor name"));
    }
    const char *twice[2] = { "A", "A" };
    const sup_tensor *both[2] = { good, good };
    ck_assert_int_eq(sup_yaml_write_tensors(path, twice, both, 2), -1);
    ck_assert_ptr_nonnull(strstr(sup_error(), "the name 'A' is given twice"));
    ck_assert_int_eq(sup_yaml_write_tensors(path, names, tensors, 0), -1);

    char *text = read_all(path);
    ck_assert_str_eq(text, old_text);
    free(text);
    ck_assert_int_eq(count_entries(dir), 1);
    sup_tensor_free(good);
    remove_temp_dir(dir);
}
END_TEST

/* A write that fails half-way (here: the file size limit is hit after 4 KiB
   of a ~100 KiB tensor, so write() fails with EFBIG) must leave the existing
   file as it was and remove its temporary file. */
START_TEST(write_failing_midway_leaves_file_untouched)
{
    char *dir = make_temp_dir();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/keep.yaml", dir);
    write_text(path, old_text);

    int shape[2] = { 100, 100 };
    sup_tensor *t = sup_tensor_alloc(2, shape);
    for (long n = 0; n < t->size; n++)
        t->data[n] = 1.0f / (float)(n + 3);            /* ~10 characters each */
    const char *names[1] = { "Q" };
    const sup_tensor *tensors[1] = { t };

    struct rlimit old, small;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    small = old;
    small.rlim_cur = 4096;
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);   /* get EFBIG, not a signal */
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = sup_yaml_write_tensors(path, names, tensors, 1);
    char err[1024];
    snprintf(err, sizeof err, "%s", sup_error());
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, old_handler);

    ck_assert_int_eq(rc, -1);
    ck_assert_ptr_nonnull(strstr(err, "File too large; the file was left as it was"));
    char *text = read_all(path);
    ck_assert_str_eq(text, old_text);
    free(text);
    ck_assert_int_eq(count_entries(dir), 1);           /* the temporary file is gone */
    sup_tensor_free(t);
    remove_temp_dir(dir);
}
END_TEST

START_TEST(write_into_missing_folder_says_so)
{
    int shape[1] = { 1 };
    const float v[1] = { 1.0f };
    sup_tensor *t = tensor_of(1, shape, v);
    const char *names[1] = { "x" };
    const sup_tensor *tensors[1] = { t };
    ck_assert_int_eq(sup_yaml_write_tensors("/nonexistent/attnlab/out.yaml", names,
                                            tensors, 1), -1);
    ck_assert_str_eq(sup_error(), "cannot write '/nonexistent/attnlab/out.yaml': No such "
                                  "file or directory (does the folder exist, and may you "
                                  "write in it?)");
    sup_tensor_free(t);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sup_yaml");
    TCase *tc = tcase_create("read");
    tcase_add_test(tc, read_worked_row_flow_style);
    tcase_add_test(tc, read_block_style);
    tcase_add_test(tc, read_special_values);
    tcase_add_loop_test(tc, read_error_names_line_and_column, 0,
                        (int)(sizeof read_errors / sizeof read_errors[0]));
    tcase_add_test(tc, read_checks_every_tensor);
    tcase_add_test(tc, read_missing_file_and_folder);
    suite_add_tcase(s, tc);

    tc = tcase_create("write");
    tcase_add_test(tc, write_then_read_round_trips);
    tcase_add_test(tc, write_exact_text);
    tcase_add_test(tc, write_keeps_mode_of_replaced_file);
    tcase_add_test(tc, write_bad_arguments_leave_file_untouched);
    tcase_add_test(tc, write_failing_midway_leaves_file_untouched);
    tcase_add_test(tc, write_into_missing_folder_says_so);
    suite_add_tcase(s, tc);
    return s;
}
