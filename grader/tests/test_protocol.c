/* test_protocol.c: the parent's half of the wire format (protocol.c).
 *
 * Requests are checked byte for byte against a layout computed by hand;
 * responses are built by hand the way the child writes them, then damaged in
 * every way the strict parser promises to notice: wrong magic, cut short at
 * every length, trailing bytes, a wrong buffer count or element count, a wrong
 * end magic. (The child's half is tested by test_sandbox.c.)
 * A request's bound (what the sandbox reads back) is checked by hand, and
 * against what each lab's solution, run in the sandbox, writes for each
 * function of the lab.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "confined/build.h"
#include "confined/sandbox.h"
#include "confined/workdir.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "base/protocol.h"
#include "base/rubric.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

/* The call used throughout: fn 7, ints {2, -3}, reals {0.5},
   bufs: W (OUT f32, 3), Q (IN f32, 2), idx (INOUT i32, 2), mask (IN u8, 3). */
static const float q_data[2] = {1.5f, -2.0f};
static int32_t idx_data[2] = {10, -20};
static const uint8_t mask_data[3] = {1, 0, 1};

static proto_call sample_call(void)
{
    proto_call c;
    memset(&c, 0, sizeof c);
    c.fn = 7;
    c.n_ints = 2;
    c.ints[0] = 2;
    c.ints[1] = -3;
    c.n_reals = 1;
    c.reals[0] = 0.5;
    c.n_bufs = 4;
    c.bufs[0] = (proto_buf){PROTO_F32, PROTO_OUT, 3, NULL};
    c.bufs[1] = (proto_buf){PROTO_F32, PROTO_IN, 2, (void *)(uintptr_t)q_data};
    c.bufs[2] = (proto_buf){PROTO_I32, PROTO_INOUT, 2, idx_data};
    c.bufs[3] = (proto_buf){PROTO_U8, PROTO_IN, 3, (void *)(uintptr_t)mask_data};
    return c;
}

/* ---- building responses by hand, as the child writes them --------------------------- */

typedef struct bytes {
    unsigned char b[512];
    size_t n;
} bytes;

static void add(bytes *x, const void *p, size_t n)
{
    ck_assert_uint_le(x->n + n, sizeof x->b);
    memcpy(x->b + x->n, p, n);
    x->n += n;
}

static void add_u32(bytes *x, uint32_t v) { add(x, &v, 4); }
static void add_u64(bytes *x, uint64_t v) { add(x, &v, 8); }

static const float w_out[3] = {0.7054f, 0.2595f, 0.0351f};   /* the course's worked row */
static const int32_t idx_out[2] = {11, -19};

/* A correct response to sample_call with status st:
   4 magic + 4 status + 4 n(=2)
   + W:   8 count + 3*4 data = 20
   + idx: 8 count + 2*4 data = 16
   + 4 end magic                       = 12 + 20 + 16 + 4 = 52 bytes. */
static bytes good_response(int32_t st)
{
    bytes x = {{0}, 0};
    add_u32(&x, PROTO_RESPONSE_MAGIC);
    add(&x, &st, 4);
    add_u32(&x, 2);
    add_u64(&x, 3);
    add(&x, w_out, sizeof w_out);
    add_u64(&x, 2);
    add(&x, idx_out, sizeof idx_out);
    add_u32(&x, PROTO_END_MAGIC);
    return x;
}

/* ---- tests ------------------------------------------------------------------------------ */

START_TEST(kind_sizes)
{
    ck_assert_uint_eq(proto_kind_size(PROTO_F32), 4);
    ck_assert_uint_eq(proto_kind_size(PROTO_I32), 4);
    ck_assert_uint_eq(proto_kind_size(PROTO_U8), 1);
    ck_assert_uint_eq(proto_kind_size((proto_kind)0), 0);
    ck_assert_uint_eq(proto_kind_size((proto_kind)4), 0);
}
END_TEST

START_TEST(request_layout_byte_for_byte)
{
    proto_call c = sample_call();
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), 0);
    /* 4 magic + 4 fn + 4 n_ints + 2*8 + 4 n_reals + 1*8 + 4 n_bufs
       + W    16 header, no data (OUT)
       + Q    16 header + 2*4
       + idx  16 header + 2*4      (INOUT carries its input)
       + mask 16 header + 3*1
       + 4 end magic
       = 44 + 16 + 24 + 24 + 19 + 4 = 131 */
    ck_assert_uint_eq(len, 131);

    bytes want = {{0}, 0};
    add_u32(&want, PROTO_REQUEST_MAGIC);
    add_u32(&want, 7);
    add_u32(&want, 2);
    int64_t i0 = 2, i1 = -3;
    add(&want, &i0, 8);
    add(&want, &i1, 8);
    add_u32(&want, 1);
    double r0 = 0.5;
    add(&want, &r0, 8);
    add_u32(&want, 4);
    add_u32(&want, PROTO_F32); add_u32(&want, PROTO_OUT); add_u64(&want, 3);
    add_u32(&want, PROTO_F32); add_u32(&want, PROTO_IN); add_u64(&want, 2);
    add(&want, q_data, sizeof q_data);
    add_u32(&want, PROTO_I32); add_u32(&want, PROTO_INOUT); add_u64(&want, 2);
    add(&want, idx_data, sizeof idx_data);
    add_u32(&want, PROTO_U8); add_u32(&want, PROTO_IN); add_u64(&want, 3);
    add(&want, mask_data, sizeof mask_data);
    add_u32(&want, PROTO_END_MAGIC);
    ck_assert_uint_eq(want.n, 131);
    ck_assert_mem_eq(req, want.b, 131);
    free(req);
}
END_TEST

START_TEST(request_with_nothing_in_it)
{
    proto_call c;
    memset(&c, 0, sizeof c);
    unsigned char *req;
    size_t len;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), 0);
    ck_assert_uint_eq(len, 24);   /* magic, fn, three zero counts, end magic: 6 * 4 */
    free(req);
}
END_TEST

/* Each malformed call is refused, with nothing allocated. */
static void mangle(proto_call *c, int which)
{
    switch (which) {
    case 0: c->n_ints = PROTO_MAX_INTS + 1; break;
    case 1: c->n_reals = -1; break;
    case 2: c->n_bufs = PROTO_MAX_BUFS + 1; break;
    case 3: c->bufs[1].kind = (proto_kind)9; break;
    case 4: c->bufs[1].role = (proto_role)0; break;
    case 5: c->bufs[1].count = (uint64_t)PROTO_MAX_ELEMS + 1; break;
    case 6: c->bufs[1].data = NULL; break;     /* IN with elements but no data */
    }
}

START_TEST(request_refuses_malformed_calls)
{
    proto_call c = sample_call();
    mangle(&c, _i);
    unsigned char *req = (unsigned char *)&c;   /* must be reset to NULL */
    size_t len = 99;
    ck_assert_int_eq(proto_encode_request(&c, &req, &len), -1);
    ck_assert_ptr_null(req);
    ck_assert_uint_eq(len, 0);
}
END_TEST

START_TEST(response_round_trip)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    ck_assert_uint_eq(x.n, 52);
    int32_t st = 99;
    proto_buf out[PROTO_MAX_BUFS];
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, err, sizeof err), 0);
    ck_assert_int_eq(st, 0);
    ck_assert_ptr_nonnull(out[0].data);
    ck_assert_mem_eq(out[0].data, w_out, sizeof w_out);
    ck_assert_uint_eq(out[0].count, 3);
    ck_assert_int_eq(out[0].kind, PROTO_F32);
    ck_assert_ptr_null(out[1].data);                    /* IN: nothing comes back */
    ck_assert_mem_eq(out[2].data, idx_out, sizeof idx_out);
    ck_assert_ptr_null(out[3].data);
    /* the worked row's weights come back bit for bit and still sum to 1 (+- 1e-4) */
    const float *w = out[0].data;
    ck_assert_double_eq_tol((double)w[0] + (double)w[1] + (double)w[2], 1.0, 1e-4);
    proto_free_outputs(out, c.n_bufs);
    ck_assert_ptr_null(out[0].data);
    ck_assert_ptr_null(out[2].data);
}
END_TEST

START_TEST(response_status_passes_through)
{
    proto_call c = sample_call();
    bytes x = good_response(-2);    /* LAB_BAD_ARG */
    int32_t st = 0;
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, NULL, 0), 0);
    ck_assert_int_eq(st, -2);
    proto_free_outputs(out, c.n_bufs);
}
END_TEST

START_TEST(response_for_a_call_without_outputs)
{
    proto_call c = sample_call();
    c.n_bufs = 2;
    c.bufs[0] = c.bufs[1];          /* two IN buffers only */
    bytes x = {{0}, 0};
    add_u32(&x, PROTO_RESPONSE_MAGIC);
    int32_t st = -1;
    add(&x, &st, 4);
    add_u32(&x, 0);
    add_u32(&x, PROTO_END_MAGIC);
    int32_t got = 0;
    proto_buf out[PROTO_MAX_BUFS];
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &got, out, NULL, 0), 0);
    ck_assert_int_eq(got, -1);
    ck_assert_ptr_null(out[0].data);
    ck_assert_ptr_null(out[1].data);
}
END_TEST

/* Cut short at every length from 0 to 51 bytes: every one is refused and
   nothing leaks out (the outputs stay NULL, the status untouched). */
START_TEST(response_cut_short_anywhere)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    int32_t st = 1234;
    proto_buf out[PROTO_MAX_BUFS];
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, (size_t)_i, &c, &st, out, err, sizeof err), -1);
    ck_assert_int_eq(st, 1234);
    for (int i = 0; i < c.n_bufs; i++)
        ck_assert_ptr_null(out[i].data);
    ck_assert_msg(strstr(err, "bad response") != NULL, "err: %s", err);
}
END_TEST

START_TEST(response_with_trailing_bytes)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    add_u32(&x, 0);                  /* anything at all after the end magic */
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "4 trailing bytes") != NULL, "err: %s", err);
}
END_TEST

START_TEST(response_with_bad_magic)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    uint32_t bad = PROTO_REQUEST_MAGIC;   /* the other side's magic */
    memcpy(x.b, &bad, 4);
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "magic") != NULL, "err: %s", err);
}
END_TEST

START_TEST(response_with_bad_end_magic)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    x.b[x.n - 1] ^= 0xff;
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "end magic") != NULL, "err: %s", err);
    ck_assert_ptr_null(out[0].data);   /* freed again on the way out */
}
END_TEST

START_TEST(response_with_wrong_buffer_count)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    uint32_t three = 3;               /* the call has 2 OUT/INOUT buffers */
    memcpy(x.b + 8, &three, 4);
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "3 output buffers, the call has 2") != NULL, "err: %s", err);
}
END_TEST

START_TEST(response_with_wrong_element_count)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    uint64_t four = 4;                /* W has 3 elements */
    memcpy(x.b + 12, &four, 8);
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "buffer 0 has 4 elements, the call has 3") != NULL, "err: %s", err);
}
END_TEST

/* A huge claimed count must not be trusted into a huge allocation. */
START_TEST(response_with_absurd_count)
{
    proto_call c = sample_call();
    bytes x = good_response(0);
    uint64_t huge = UINT64_MAX;
    memcpy(x.b + 12, &huge, 8);
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    ck_assert_int_eq(proto_decode_response(x.b, x.n, &c, &st, out, NULL, 0), -1);
    ck_assert_ptr_null(out[0].data);
}
END_TEST

START_TEST(response_null_bytes)
{
    proto_call c = sample_call();
    proto_buf out[PROTO_MAX_BUFS];
    int32_t st;
    char err[200] = "";
    ck_assert_int_eq(proto_decode_response(NULL, 0, &c, &st, out, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "too short") != NULL, "err: %s", err);
}
END_TEST

/* ---- a request's bound ------------------------------------------------------------------ */

/* sample_call's request, malloc'd, *len bytes. */
static unsigned char *sample_request(size_t *len)
{
    proto_call c = sample_call();
    unsigned char *req;
    ck_assert_int_eq(proto_encode_request(&c, &req, len), 0);
    return req;
}

START_TEST(bound_of_the_sample_call)
{
    proto_call c = sample_call();
    size_t len;
    unsigned char *req = sample_request(&len);
    proto_bound b;
    ck_assert_int_eq(proto_request_bound(req, len, &b), 0);
    ck_assert_uint_eq(b.response_bytes, 52);       /* good_response's 52 bytes */
    ck_assert_uint_eq(b.response_bytes, good_response(0).n);
    ck_assert_uint_eq(proto_response_bytes(&c), 52);
    ck_assert_int_eq(b.n_bufs, 4);
    const size_t want[4] = {12, 8, 8, 3};          /* 3 f32, 2 f32, 2 i32, 3 u8 */
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(b.buf_bytes[i], want[i]);
    free(req);
}
END_TEST

/* A request cut at any length, one byte longer, or with a role or kind out
   of range has no bound. */
START_TEST(bound_refuses_malformed_requests)
{
    size_t len;
    unsigned char *req = sample_request(&len);
    proto_bound b;
    for (size_t cut = 0; cut < len; cut++)
        ck_assert_msg(proto_request_bound(req, cut, &b) == -1, "cut at %zu of %zu", cut, len);
    unsigned char *longer = gr_xmalloc(len + 1);
    memcpy(longer, req, len);
    longer[len] = 0;
    ck_assert_int_eq(proto_request_bound(longer, len + 1, &b), -1);
    free(longer);
    size_t first_buf = 4 + 4 + 4 + 2 * 8 + 4 + 8 + 4;   /* kind, role of bufs[0] */
    uint32_t bad = 9;
    memcpy(req + first_buf + 4, &bad, 4);
    ck_assert_int_eq(proto_request_bound(req, len, &b), -1);
    memcpy(req + first_buf, &bad, 4);
    ck_assert_int_eq(proto_request_bound(req, len, &b), -1);
    ck_assert_int_eq(proto_request_bound(NULL, 0, &b), -1);
    free(req);
}
END_TEST

/* Run c in lab's solution and check the response is the bound, byte for byte. */
static void check_bound(const char *exe, const gr_rubric_test *t, const gr_case *c)
{
    unsigned char *req;
    size_t len;
    char err[512] = "";
    ck_assert_int_eq(proto_encode_request(&c->call, &req, &len), 0);
    proto_bound b;
    ck_assert_int_eq(proto_request_bound(req, len, &b), 0);
    ck_assert_uint_eq(b.response_bytes, proto_response_bytes(&c->call));
    gr_sandbox_result run;
    ck_assert_msg(gr_sandbox_run(exe, req, len, &t->limits, &run, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(run.response_len == b.response_bytes, "%s: the solution wrote %zu bytes, "
                  "the bound is %zu", t->name, run.response_len, b.response_bytes);
    gr_sandbox_result_free(&run);
    free(req);
}

/* For each function of lab _i + 1 (its first rubric test), the solution's
   response is exactly as long as the request's bound. */
START_TEST(bound_is_what_each_solution_writes)
{
    int lab = _i + 1;
    char err[512] = "";
    char *path = gr_layout_rubric(".", lab), *src = gr_layout_solution(".", lab);
    char *objects = fk_child_dir(), *work = gr_workdir_make("bound", err, sizeof err);
    ck_assert_msg(work != NULL, "%s", err);
    gr_rubric r;
    ck_assert_msg(gr_rubric_load(path, &r, err, sizeof err) == 0, "%s", err);
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    gr_paths paths = {.root = ".", .child_dir = objects, .work_dir = work};
    gr_build built;
    ck_assert_msg(gr_build_lab(&r, mod->dir, src, &paths, &built, err, sizeof err) == 0, "%s", err);
    ck_assert_msg(built.ok, "lab %d's solution does not build: %s", lab, built.message);
    uint32_t seen[64] = {0};
    int n_seen = 0;
    for (int k = 0; k < r.n_tests; k++) {
        gr_case c;
        memset(&c, 0, sizeof c);
        ck_assert_msg(mod->make_case(&r.tests[k], 1, &c, err, sizeof err) == 0, "%s", err);
        int fresh = 1;
        for (int j = 0; j < n_seen; j++)
            fresh &= seen[j] != c.call.fn;
        if (fresh && n_seen < 64) {
            seen[n_seen++] = c.call.fn;
            check_bound(built.exe, &r.tests[k], &c);
        }
        gr_case_free(&c);
    }
    ck_assert_int_gt(n_seen, 0);
    gr_build_free(&built);
    gr_rubric_free(&r);
    gr_workdir_remove(work);
    free(objects);
    free(src);
    free(path);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("requests");
    tcase_add_test(tc, kind_sizes);
    tcase_add_test(tc, request_layout_byte_for_byte);
    tcase_add_test(tc, request_with_nothing_in_it);
    tcase_add_loop_test(tc, request_refuses_malformed_calls, 0, 7);
    suite_add_tcase(s, tc);

    tc = tcase_create("responses");
    tcase_add_test(tc, response_round_trip);
    tcase_add_test(tc, response_status_passes_through);
    tcase_add_test(tc, response_for_a_call_without_outputs);
    tcase_add_loop_test(tc, response_cut_short_anywhere, 0, 52);
    tcase_add_test(tc, response_with_trailing_bytes);
    tcase_add_test(tc, response_with_bad_magic);
    tcase_add_test(tc, response_with_bad_end_magic);
    tcase_add_test(tc, response_with_wrong_buffer_count);
    tcase_add_test(tc, response_with_wrong_element_count);
    tcase_add_test(tc, response_with_absurd_count);
    tcase_add_test(tc, response_null_bytes);
    suite_add_tcase(s, tc);

    tc = tcase_create("bounds");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bound_of_the_sample_call);
    tcase_add_test(tc, bound_refuses_malformed_requests);
    tcase_add_loop_test(tc, bound_is_what_each_solution_writes, 0, GR_N_LABS);
    suite_add_tcase(s, tc);
    return s;
}
