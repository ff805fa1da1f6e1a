/* test_compare.c: how a wrong answer's first mismatch is named (compare.c):
 * the index in the shape of the function's array, as its contract spells it.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compare.h"
#include "base/labmod.h"

Suite *test_suite(void);

static const gr_lab_module no_windows = {0};

/* The message for element k of a 24-float output shaped by set(). */
static char *name_of(void (*set)(gr_case *), long k)
{
    gr_case c;
    memset(&c, 0, sizeof c);
    gr_case_add_f32(&c, PROTO_OUT, 24);
    float *want = gr_case_expect(&c, 0);
    gr_case_set_name(&c, 0, "W");
    set(&c);
    float got[24];
    memcpy(got, want, sizeof got);
    got[k] = 1.0f;
    void *g[PROTO_MAX_BUFS] = {got};
    gr_mismatch m = {0, k, 1, 24};
    gr_strbuf out = {0};
    gr_compare_explain(&no_windows, &c, g, &m, &out);
    gr_case_free(&c);
    return gr_sb_take(&out);
}

static void flat(gr_case *c) { (void)c; }
static void two_d(gr_case *c) { gr_case_set_shape2(c, 0, 4, 6); }
static void three_d(gr_case *c) { gr_case_set_shape(c, 0, 2, 3, 4); }
static void four_d(gr_case *c) { gr_case_set_shape4(c, 0, 2, 3, 2, 2); }

START_TEST(index_in_the_arrays_shape)
{
    char *s = name_of(flat, 17);
    ck_assert_msg(strstr(s, "the first is W[17]:"), "%s", s);
    free(s);
    s = name_of(two_d, 17);                    /* (4, 6): row 2, column 5 */
    ck_assert_msg(strstr(s, "the first is W[2][5]:"), "%s", s);
    free(s);
    s = name_of(three_d, 17);                  /* (2, 3, 4): 17 = 1*12 + 1*4 + 1 */
    ck_assert_msg(strstr(s, "the first is W[1][1][1]:"), "%s", s);
    free(s);
    s = name_of(four_d, 17);                   /* (B 2, H 3, 2, 2): plane 4 = b 1, h 1; 17 % 4 = 1 */
    ck_assert_msg(strstr(s, "the first is W[1][1][0][1]:"), "%s", s);
    free(s);
}
END_TEST

/* One value is named alone: "*n_masked_rows", never "*n_masked_rows[0]". */
START_TEST(one_value_has_no_index)
{
    gr_case c;
    memset(&c, 0, sizeof c);
    gr_case_add_f32(&c, PROTO_OUT, 1);
    gr_case_add_f32(&c, PROTO_OUT, 3);
    gr_case_set_names(&c, "*n_masked_rows", "H", NULL);
    gr_strbuf out = {0};
    gr_compare_index_name(&out, &c, 0, 0);
    ck_assert_str_eq(out.s, "*n_masked_rows");
    free(out.s);
    memset(&out, 0, sizeof out);
    gr_compare_index_name(&out, &c, 1, 0);
    ck_assert_str_eq(out.s, "H[0]");                 /* one of three: indexed */
    free(out.s);
    gr_case_free(&c);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("names");
    tcase_add_test(tc, index_in_the_arrays_shape);
    tcase_add_test(tc, one_value_has_no_index);
    suite_add_tcase(s, tc);
    return s;
}
