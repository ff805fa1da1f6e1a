/* test_seed.c: SipHash-2-4 against the reference vectors, and the properties
 * the per-student seeds promise: reproducible, and different whenever the
 * secret, the student, the lab or the test differs. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/seed.h"
#include "base/util.h"

Suite *test_suite(void);

/* The reference vectors of SipHash-2-4 (vectors.h of the reference code, the
   table in the SipHash paper's appendix): key 00 01 .. 0f, message 00 01 ..
   (n-1) for n = 0..63, each output as a 64-bit number. */
static const uint64_t sip_vectors[64] = {
    0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a, 0x85676696d7fb7e2d,
    0xcf2794e0277187b7, 0x18765564cd99a68d, 0xcbc9466e58fee3ce, 0xab0200f58b01d137,
    0x93f5f5799a932462, 0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
    0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee, 0xa129ca6149be45e5,
    0x3f2acc7f57c29bdb, 0x699ae9f52cbe4794, 0x4bc1b3f0968dd39c, 0xbb6dc91da77961bd,
    0xbed65cf21aa2ee98, 0xd0f2cbb02e3b67c7, 0x93536795e3a33e88, 0xa80c038ccd5ccec8,
    0xb8ad50c6f649af94, 0xbce192de8a85b8ea, 0x17d835b85bbb15f3, 0x2f2e6163076bcfad,
    0xde4daaaca71dc9a5, 0xa6a2506687956571, 0xad87a3535c49ef28, 0x32d892fad841c342,
    0x7127512f72f27cce, 0xa7f32346f95978e3, 0x12e0b01abb051238, 0x15e034d40fa197ae,
    0x314dffbe0815a3b4, 0x027990f029623981, 0xcadcd4e59ef40c4d, 0x9abfd8766a33735c,
    0x0e3ea96b5304a7d0, 0xad0c42d6fc585992, 0x187306c89bc215a9, 0xd4a60abcf3792b95,
    0xf935451de4f21df2, 0xa9538f0419755787, 0xdb9acddff56ca510, 0xd06c98cd5c0975eb,
    0xe612a3cb9ecba951, 0xc766e62cfcadaf96, 0xee64435a9752fe72, 0xa192d576b245165a,
    0x0a8787bf8ecb74b2, 0x81b3e73d20b49b6f, 0x7fa8220ba3b2ecea, 0x245731c13ca42499,
    0xb78dbfaf3a8d83bd, 0xea1ad565322a1a0b, 0x60e61c23a3795013, 0x6606d7e446282b93,
    0x6ca4ecb15c5f91e1, 0x9f626da15c9625f3, 0xe51b38608ef25f57, 0x958a324ceb064572,
};

/* One loop index per message length n = 0..63: covers the empty message, every
   tail length 0..7 and messages of several whole words. */
START_TEST(siphash_reference_vector)
{
    unsigned char key[16], msg[64];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)i;
    for (int i = 0; i < 64; i++)
        msg[i] = (unsigned char)i;
    int n = _i;
    uint64_t got = gr_siphash24(key, msg, (size_t)n);
    ck_assert_msg(got == sip_vectors[n],
                  "SipHash-2-4 of %d bytes: expected %016llx, got %016llx", n,
                  (unsigned long long)sip_vectors[n], (unsigned long long)got);
}
END_TEST

/* The one example worked through in the paper (Appendix A): 15 bytes. */
START_TEST(siphash_paper_example)
{
    unsigned char key[16], msg[15];
    for (int i = 0; i < 16; i++)
        key[i] = (unsigned char)i;
    for (int i = 0; i < 15; i++)
        msg[i] = (unsigned char)i;
    ck_assert(gr_siphash24(key, msg, 15) == UINT64_C(0xa129ca6149be45e5));
}
END_TEST

START_TEST(seed_is_reproducible)
{
    uint64_t a = gr_seed("s3cret", "alice", 2, "softmax_random");
    uint64_t b = gr_seed("s3cret", "alice", 2, "softmax_random");
    ck_assert(a == b);
    /* a fresh copy of each string, so nothing depends on pointers */
    char *sec = strdup("s3cret"), *stu = strdup("alice"), *tst = strdup("softmax_random");
    ck_assert(gr_seed(sec, stu, 2, tst) == a);
    free(sec); free(stu); free(tst);
}
END_TEST

START_TEST(seed_changes_with_every_field)
{
    uint64_t base = gr_seed("s3cret", "alice", 2, "softmax_random");
    ck_assert(gr_seed("s3cres", "alice", 2, "softmax_random") != base);  /* secret */
    ck_assert(gr_seed("s3cret", "alicf", 2, "softmax_random") != base);  /* student */
    ck_assert(gr_seed("s3cret", "alice", 3, "softmax_random") != base);  /* lab */
    ck_assert(gr_seed("s3cret", "alice", -2, "softmax_random") != base); /* lab sign */
    ck_assert(gr_seed("s3cret", "alice", 2, "softmax_randon") != base);  /* test */
    ck_assert(gr_seed("s3cret", "alice", 2, "softmax_random ") != base); /* one more byte */
    ck_assert(gr_seed("", "alice", 2, "softmax_random") != base);
}
END_TEST

/* Length prefixes make the encoding unambiguous: moving a byte from the end of
   one field to the start of the next gives a different message. */
START_TEST(seed_fields_do_not_run_together)
{
    ck_assert(gr_seed("k", "ab", 1, "c") != gr_seed("k", "a", 1, "bc"));
    ck_assert(gr_seed("k", "", 1, "abc") != gr_seed("k", "abc", 1, ""));
    /* and the secret is not just prepended to the student id */
    ck_assert(gr_seed("ka", "b", 1, "c") != gr_seed("k", "ab", 1, "c"));
}
END_TEST

START_TEST(seed_null_counts_as_empty)
{
    ck_assert(gr_seed("k", NULL, 1, "t") == gr_seed("k", "", 1, "t"));
    ck_assert(gr_seed("k", "s", 1, NULL) == gr_seed("k", "s", 1, ""));
    ck_assert(gr_seed(NULL, "s", 1, "t") == gr_seed("", "s", 1, "t"));
}
END_TEST

/* Seeds of neighbouring students spread over all 64 bits: across 64 students
   every bit position is set at least once and cleared at least once. A PRF
   fails this with probability about 128 * 2^-64. */
START_TEST(seed_bits_all_vary)
{
    uint64_t ored = 0, anded = ~UINT64_C(0);
    for (int i = 0; i < 64; i++) {
        char id[16];
        snprintf(id, sizeof id, "s%02d", i);
        uint64_t s = gr_seed("s3cret", id, 1, "dot_random");
        ored |= s;
        anded &= s;
    }
    ck_assert(ored == ~UINT64_C(0));
    ck_assert(anded == 0);
}
END_TEST

START_TEST(secret_from_env)
{
    unsetenv("ATTNLAB_SECRET");
    ck_assert_str_eq(gr_seed_secret_from_env(), "attnlab-practice");
    ck_assert(gr_seed_secret_is_practice(gr_seed_secret_from_env()));

    setenv("ATTNLAB_SECRET", "", 1);   /* set but empty: the practice secret */
    ck_assert_str_eq(gr_seed_secret_from_env(), GR_PRACTICE_SECRET);

    setenv("ATTNLAB_SECRET", "course-2025-xyz", 1);
    ck_assert_str_eq(gr_seed_secret_from_env(), "course-2025-xyz");
    ck_assert(!gr_seed_secret_is_practice(gr_seed_secret_from_env()));
    /* the instructor's secret gives other seeds than the practice one */
    ck_assert(gr_seed(gr_seed_secret_from_env(), "alice", 1, "t") !=
              gr_seed(GR_PRACTICE_SECRET, "alice", 1, "t"));
    unsetenv("ATTNLAB_SECRET");
}
END_TEST

/* A file holding bytes[0..n) under /tmp; its path (malloc'd). */
static char *secret_file(const void *bytes, size_t n)
{
    char *path = gr_xstrdup("/tmp/attnlab-test-secret-XXXXXX");
    int fd = mkstemp(path);
    ck_assert(fd >= 0 && write(fd, bytes, n) == (ssize_t)n);
    close(fd);
    return path;
}

START_TEST(secret_from_a_file)
{
    char err[512];
    unsetenv("ATTNLAB_SECRET");
    unsetenv("ATTNLAB_SECRET_FILE");
    ck_assert_str_eq(gr_seed_secret_load(NULL, err, sizeof err), GR_PRACTICE_SECRET);
    /* its line ends go, as from $(cat FILE); spaces inside and before them stay */
    char *good = secret_file("course 2025 \r\n\n", 15), *other = secret_file("other\n", 6);
    ck_assert_str_eq(gr_seed_secret_load(good, err, sizeof err), "course 2025 ");
    setenv("ATTNLAB_SECRET_FILE", other, 1);   /* the command line's file wins */
    ck_assert_str_eq(gr_seed_secret_load(good, err, sizeof err), "course 2025 ");
    ck_assert_str_eq(gr_seed_secret_load(NULL, err, sizeof err), "other");
    setenv("ATTNLAB_SECRET", "x", 1);          /* two secrets: refused, naming both */
    ck_assert_ptr_null(gr_seed_secret_load(NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "ATTNLAB_SECRET and ATTNLAB_SECRET_FILE") && strstr(err, other),
                  "%s", err);
    unsetenv("ATTNLAB_SECRET_FILE");
    ck_assert_str_eq(gr_seed_secret_load(NULL, err, sizeof err), "x");   /* no file: the variable */
    unsetenv("ATTNLAB_SECRET");
    char *empty = secret_file("\n\n", 2), *nul = secret_file("ab\0cd", 5);
    static const char *const says[] = {"is empty", "holds a NUL byte", "cannot read the secret"};
    const char *paths[] = {empty, nul, "/nonexistent/attnlab-secret"};
    for (int i = 0; i < 3; i++) {
        ck_assert_ptr_null(gr_seed_secret_load(paths[i], err, sizeof err));
        ck_assert_msg(strstr(err, says[i]) && strstr(err, paths[i]) && strstr(err, "--secret-file"),
                      "%s", err);
    }
    char *made[] = {good, other, empty, nul};
    for (int i = 0; i < 4; i++) {
        unlink(made[i]);
        free(made[i]);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("seed");
    TCase *tc = tcase_create("siphash");
    tcase_add_loop_test(tc, siphash_reference_vector, 0, 64);
    tcase_add_test(tc, siphash_paper_example);
    suite_add_tcase(s, tc);

    tc = tcase_create("seed");
    tcase_add_test(tc, seed_is_reproducible);
    tcase_add_test(tc, seed_changes_with_every_field);
    tcase_add_test(tc, seed_fields_do_not_run_together);
    tcase_add_test(tc, seed_null_counts_as_empty);
    tcase_add_test(tc, seed_bits_all_vary);
    tcase_add_test(tc, secret_from_env);
    tcase_add_test(tc, secret_from_a_file);
    suite_add_tcase(s, tc);
    return s;
}
