/* test_tensor.c: sup_tensor_alloc/free, the print format students see
 * (sup_tensor_print, sup_print_matrix), and sup_error's sentences. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labsup.h"
#include "sup_internal.h"

Suite *test_suite(void);

/* Everything a print call writes, as a malloc'd string. */
typedef void (*print_fn)(FILE *f, const void *arg);

static char *capture(print_fn fn, const void *arg)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    fn(f, arg);
    long len = ftell(f);
    ck_assert_int_ge(len, 0);
    rewind(f);
    char *s = calloc((size_t)len + 1, 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(fread(s, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    return s;
}

static void print_tensor_named(FILE *f, const void *t)
{
    sup_tensor_print(f, "W", t);
}

/* ---- allocation ---------------------------------------------------------------- */

START_TEST(alloc_shape_size_and_zeros)
{
    int shape[3] = { 2, 3, 4 };
    sup_tensor *t = sup_tensor_alloc(3, shape);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->ndim, 3);
    ck_assert_int_eq(t->shape[0], 2);
    ck_assert_int_eq(t->shape[1], 3);
    ck_assert_int_eq(t->shape[2], 4);
    ck_assert_int_eq(t->size, 24);               /* 2 * 3 * 4 */
    for (long n = 0; n < t->size; n++)
        ck_assert_msg(t->data[n] == 0.0f, "element %ld is %g, not 0", n, (double)t->data[n]);
    /* The data is writable end to end (ASan would catch a short allocation). */
    for (long n = 0; n < t->size; n++)
        t->data[n] = (float)n;
    ck_assert_msg(t->data[23] == 23.0f, "element 23 is %g after writing 23", (double)t->data[23]);
    sup_tensor_free(t);
    sup_tensor_free(NULL);                       /* documented as fine */
}
END_TEST

START_TEST(alloc_rejects_bad_ndim)
{
    int shape[5] = { 1, 1, 1, 1, 1 };
    ck_assert_ptr_null(sup_tensor_alloc(0, shape));
    ck_assert_ptr_nonnull(strstr(sup_error(), "ndim is 0; a tensor has 1 to 4 dimensions"));
    ck_assert_ptr_null(sup_tensor_alloc(SUP_MAX_DIMS + 1, shape));
    ck_assert_ptr_nonnull(strstr(sup_error(), "ndim is 5"));
}
END_TEST

START_TEST(alloc_rejects_bad_sizes)
{
    int zero[2] = { 2, 0 }, neg[1] = { -3 };
    ck_assert_ptr_null(sup_tensor_alloc(2, zero));
    ck_assert_str_eq(sup_error(),
                     "sup_tensor_alloc: shape[1] is 0; every size must be at least 1");
    ck_assert_ptr_null(sup_tensor_alloc(1, neg));
    ck_assert_ptr_nonnull(strstr(sup_error(), "shape[0] is -3"));
    ck_assert_ptr_null(sup_tensor_alloc(2, NULL));
    ck_assert_ptr_nonnull(strstr(sup_error(), "shape is NULL"));
}
END_TEST

/* INT_MAX^4 floats overflow any long: refused with a sentence, never a wrapped size. */
START_TEST(alloc_rejects_overflowing_shape)
{
    int huge[4] = { INT_MAX, INT_MAX, INT_MAX, INT_MAX };
    ck_assert_ptr_null(sup_tensor_alloc(4, huge));
    ck_assert_ptr_nonnull(strstr(sup_error(), "more floats than memory can address"));
}
END_TEST

/* ---- printing --------------------------------------------------------------------- */

/* The worked row's weights, then a row with -inf and nan: every column is as
   wide as the widest number ("0.7054", 6 characters), non-finite values spelled out. */
START_TEST(print_matrix_with_inf_and_nan)
{
    int shape[2] = { 2, 3 };
    sup_tensor *t = sup_tensor_alloc(2, shape);
    const float v[6] = { 0.7054f, 0.2595f, 0.0351f, 0.0f, -INFINITY, NAN };
    memcpy(t->data, v, sizeof v);
    char *s = capture(print_tensor_named, t);
    ck_assert_str_eq(s, "W (2, 3):\n"
                        "[[0.7054, 0.2595, 0.0351],\n"
                        " [0.0000,   -inf,    nan]]\n");
    free(s);
    sup_tensor_free(t);
}
END_TEST

/* 1-D: one line; a negative number widens every column to 7 ("-1.0000"). */
START_TEST(print_vector_worked_row)
{
    int shape[1] = { 4 };
    sup_tensor *t = sup_tensor_alloc(1, shape);
    const float v[4] = { 2.0f, 1.0f, -1.0f, 0.5f };
    memcpy(t->data, v, sizeof v);
    char *s = capture(print_tensor_named, t);
    ck_assert_str_eq(s, "W (4):\n[ 2.0000,  1.0000, -1.0000,  0.5000]\n");
    free(s);
    sup_tensor_free(t);
}
END_TEST

/* 3-D: the matrices are separated by a blank line and indented under the '['. */
START_TEST(print_three_dims_blank_line_between_matrices)
{
    int shape[3] = { 2, 2, 2 };
    sup_tensor *t = sup_tensor_alloc(3, shape);
    for (int n = 0; n < 8; n++)
        t->data[n] = (float)n;
    char *s = capture(print_tensor_named, t);
    ck_assert_str_eq(s, "W (2, 2, 2):\n"
                        "[[[0.0000, 1.0000],\n"
                        "  [2.0000, 3.0000]],\n"
                        "\n"
                        " [[4.0000, 5.0000],\n"
                        "  [6.0000, 7.0000]]]\n");
    free(s);
    sup_tensor_free(t);
}
END_TEST

/* Rounding is to 4 decimals of the float as stored: 1/3 -> 0.3333, 2/3 -> 0.6667,
   12345.67891f is stored as 12345.6787109375 -> 12345.6787 (width 10 for all). */
START_TEST(print_rounds_to_four_decimals)
{
    int shape[1] = { 3 };
    sup_tensor *t = sup_tensor_alloc(1, shape);
    t->data[0] = 1.0f / 3.0f;
    t->data[1] = 2.0f / 3.0f;
    t->data[2] = 12345.67891f;
    char *s = capture(print_tensor_named, t);
    ck_assert_str_eq(s, "W (3):\n[    0.3333,     0.6667, 12345.6787]\n");
    free(s);
    sup_tensor_free(t);
}
END_TEST

static void print_matrix_2x3(FILE *f, const void *x)
{
    sup_print_matrix(f, "W", x, 2, 3);
}

/* A plain float array prints exactly like the tensor of the same shape. */
START_TEST(print_matrix_matches_tensor_print)
{
    const float v[6] = { 0.7054f, 0.2595f, 0.0351f, 0.0f, -INFINITY, NAN };
    int shape[2] = { 2, 3 };
    sup_tensor *t = sup_tensor_alloc(2, shape);
    memcpy(t->data, v, sizeof v);
    char *a = capture(print_matrix_2x3, v);
    char *b = capture(print_tensor_named, t);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    sup_tensor_free(t);
}
END_TEST

START_TEST(print_null_says_so)
{
    char *s = capture(print_tensor_named, NULL);
    ck_assert_str_eq(s, "W: (no tensor: NULL or not from sup_tensor_alloc)\n");
    free(s);
}
END_TEST

/* ---- errors ------------------------------------------------------------------------- */

/* A message longer than the 1 KiB buffer is cut, still NUL-terminated. */
START_TEST(error_long_message_is_cut)
{
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sup_set_error("%s", big);
    ck_assert_uint_eq(strlen(sup_error()), 1023);
    sup_set_error("short: %d", 7);
    ck_assert_str_eq(sup_error(), "short: 7");
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("sup_tensor");
    TCase *tc = tcase_create("alloc");
    tcase_add_test(tc, alloc_shape_size_and_zeros);
    tcase_add_test(tc, alloc_rejects_bad_ndim);
    tcase_add_test(tc, alloc_rejects_bad_sizes);
    tcase_add_test(tc, alloc_rejects_overflowing_shape);
    suite_add_tcase(s, tc);

    tc = tcase_create("print");
    tcase_add_test(tc, print_matrix_with_inf_and_nan);
    tcase_add_test(tc, print_vector_worked_row);
    tcase_add_test(tc, print_three_dims_blank_line_between_matrices);
    tcase_add_test(tc, print_rounds_to_four_decimals);
    tcase_add_test(tc, print_matrix_matches_tensor_print);
    tcase_add_test(tc, print_null_says_so);
    suite_add_tcase(s, tc);

    tc = tcase_create("error");
    tcase_add_test(tc, error_long_message_is_cut);
    suite_add_tcase(s, tc);
    return s;
}
