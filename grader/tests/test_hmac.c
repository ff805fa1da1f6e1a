/* test_hmac.c: SHA-256 against FIPS 180-4's examples and HMAC-SHA256 against
 * RFC 4231's test cases, the signature's building blocks (hmac.h). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/hmac.h"

Suite *test_suite(void);

static void hex_of(const uint8_t *b, char out[GR_HMAC_HEX + 1])
{
    for (int i = 0; i < GR_SHA256_BYTES; i++) {
        out[2 * i] = "0123456789abcdef"[b[i] >> 4];
        out[2 * i + 1] = "0123456789abcdef"[b[i] & 15];
    }
    out[GR_HMAC_HEX] = '\0';
}

START_TEST(sha256_matches_the_standard)
{
    static const struct { const char *msg, *digest; } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        /* 448 bits: the padding needs a second block */
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    uint8_t d[GR_SHA256_BYTES];
    char hex[GR_HMAC_HEX + 1];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        gr_sha256(v[i].msg, strlen(v[i].msg), d);
        hex_of(d, hex);
        ck_assert_str_eq(hex, v[i].digest);
    }
    /* a million 'a' */
    char *a = malloc(1000000);
    memset(a, 'a', 1000000);
    gr_sha256(a, 1000000, d);
    hex_of(d, hex);
    ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}
END_TEST

START_TEST(hmac_matches_rfc_4231)
{
    unsigned char k20[20], kaa20[20], kaa131[131], dd50[50];
    memset(k20, 0x0b, sizeof k20);
    memset(kaa20, 0xaa, sizeof kaa20);
    memset(kaa131, 0xaa, sizeof kaa131);
    memset(dd50, 0xdd, sizeof dd50);
    static const char big[] = "This is a test using a larger than block-size key and a larger "
                              "than block-size data. The key needs to be hashed before being "
                              "used by the HMAC algorithm.";
    const struct { const void *key; size_t klen; const void *msg; size_t mlen; const char *mac; } v[] = {
        {k20, 20, "Hi There", 8,
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
        {"Jefe", 4, "what do ya want for nothing?", 28,
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
        {kaa20, 20, dd50, 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
        {kaa131, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
        {kaa131, 131, big, sizeof big - 1,
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
    };
    char hex[GR_HMAC_HEX + 1];
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        gr_hmac_sha256_hex(v[i].key, v[i].klen, v[i].msg, v[i].mlen, hex);
        ck_assert_msg(strcmp(hex, v[i].mac) == 0, "case %zu: %s", i + 1, hex);
    }
}
END_TEST

START_TEST(equal_secret_compares_every_byte)
{
    ck_assert(gr_hmac_equal("abcdef", "abcdef", 6));
    ck_assert(!gr_hmac_equal("abcdef", "abcdeg", 6));
    ck_assert(!gr_hmac_equal("xbcdef", "abcdef", 6));
    ck_assert(gr_hmac_equal("a", "b", 0));
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("hmac");
    TCase *tc = tcase_create("hmac");
    tcase_add_test(tc, sha256_matches_the_standard);
    tcase_add_test(tc, hmac_matches_rfc_4231);
    tcase_add_test(tc, equal_secret_compares_every_byte);
    suite_add_tcase(s, tc);
    return s;
}
