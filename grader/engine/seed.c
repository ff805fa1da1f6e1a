/* seed.c: SipHash-2-4 and the per-student seeds built on it (see seed.h). */
#include "engine/seed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- SipHash-2-4 -------------------------------------------------------
 * State: four 64-bit words v0..v3 initialised from the key k0, k1 and the
 * constants "somepseudorandomlygeneratedbytes". Each 8-byte message word m
 * is absorbed with v3 ^= m, two SipRounds (the "2"), v0 ^= m. The last word
 * holds the remaining 0..7 bytes and the message length mod 256 in its top
 * byte. Finalisation: v2 ^= 0xff, four SipRounds (the "4"), fold v0^v1^v2^v3. */

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t load64_le(const unsigned char *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static void store64_le(unsigned char *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(x >> (8 * i));
}

/* One SipRound: add-rotate-xor on the four words. */
static void sipround(uint64_t v[4])
{
    v[0] += v[1]; v[1] = ROTL(v[1], 13); v[1] ^= v[0]; v[0] = ROTL(v[0], 32);
    v[2] += v[3]; v[3] = ROTL(v[3], 16); v[3] ^= v[2];
    v[0] += v[3]; v[3] = ROTL(v[3], 21); v[3] ^= v[0];
    v[2] += v[1]; v[1] = ROTL(v[1], 17); v[1] ^= v[2]; v[2] = ROTL(v[2], 32);
}

uint64_t gr_siphash24(const unsigned char key[16], const void *data, size_t len)
{
    const unsigned char *in = data;
    uint64_t k0 = load64_le(key), k1 = load64_le(key + 8);
    uint64_t v[4] = {
        k0 ^ UINT64_C(0x736f6d6570736575),   /* "somepseu" */
        k1 ^ UINT64_C(0x646f72616e646f6d),   /* "dorandom" */
        k0 ^ UINT64_C(0x6c7967656e657261),   /* "lygenera" */
        k1 ^ UINT64_C(0x7465646279746573),   /* "tedbytes" */
    };

    size_t whole = len - len % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = load64_le(in + i);
        v[3] ^= m;
        sipround(v);
        sipround(v);
        v[0] ^= m;
    }

    /* last word: the 0..7 leftover bytes, and len mod 256 in the top byte */
    uint64_t m = (uint64_t)(len & 0xff) << 56;
    for (size_t i = 0; i < len % 8; i++)
        m |= (uint64_t)in[whole + i] << (8 * i);
    v[3] ^= m;
    sipround(v);
    sipround(v);
    v[0] ^= m;

    v[2] ^= 0xff;
    for (int r = 0; r < 4; r++)
        sipround(v);
    return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* ---- seeds ------------------------------------------------------------- */

/* The fixed, public key of the key derivation: exactly 16 ASCII bytes. */
static const unsigned char kdf_key[16] = {
    'a', 't', 't', 'n', 'l', 'a', 'b', ' ', 's', 'e', 'e', 'd', ' ', 'k', 'd', 'f'
};

/* key = SipHash(kdf_key, 0x00 || secret) || SipHash(kdf_key, 0x01 || secret):
   two independent 64-bit halves, so the key has 128 bits when the secret does. */
static void derive_key(const char *secret, unsigned char key[16])
{
    size_t n = strlen(secret);
    unsigned char *msg = gr_xmalloc(n + 1);
    memcpy(msg + 1, secret, n);
    for (int half = 0; half < 2; half++) {
        msg[0] = (unsigned char)half;
        store64_le(key + 8 * half, gr_siphash24(kdf_key, msg, n + 1));
    }
    free(msg);
}

/* Append one length-prefixed field: u64 little-endian length, then the bytes. */
static size_t put_field(unsigned char *p, const char *s, size_t n)
{
    store64_le(p, (uint64_t)n);
    memcpy(p + 8, s, n);
    return 8 + n;
}

uint64_t gr_seed(const char *secret, const char *student, int lab, const char *test)
{
    if (!secret) secret = "";
    if (!student) student = "";
    if (!test) test = "";

    unsigned char key[16];
    derive_key(secret, key);

    size_t ns = strlen(student), nt = strlen(test);
    unsigned char *msg = gr_xmalloc(8 + ns + 8 + 8 + nt);
    size_t len = put_field(msg, student, ns);
    /* the lab as a signed 64-bit number, so every int has its own encoding */
    store64_le(msg + len, (uint64_t)(int64_t)lab);
    len += 8;
    len += put_field(msg + len, test, nt);

    uint64_t seed = gr_siphash24(key, msg, len);
    free(msg);
    memset(key, 0, sizeof key);
    return seed;
}

const char *gr_seed_secret_from_env(void)
{
    const char *s = getenv("ATTNLAB_SECRET");
    return (s && *s) ? s : GR_PRACTICE_SECRET;
}

const char *gr_seed_secret_load(const char *path, char *err, size_t errlen)
{
    static char *loaded;
    const char *from = path ? "--secret-file" : "ATTNLAB_SECRET_FILE";
    if (!path)
        path = getenv("ATTNLAB_SECRET_FILE");
    if (!path || !*path)
        return gr_seed_secret_from_env();
    const char *env = getenv("ATTNLAB_SECRET");
    if (env && *env) {
        gr_set_err(err, errlen, "ATTNLAB_SECRET and %s %s both give a secret; unset "
                   "ATTNLAB_SECRET", from, path);
        return NULL;
    }
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text) {
        gr_set_err(err, errlen, "%s %s: cannot read the secret: %s", from, path,
                   strerror(errno));
        return NULL;
    }
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        text[--len] = '\0';
    const char *why = len == 0 ? "is empty" : strlen(text) != len ? "holds a NUL byte" : NULL;
    if (why) {
        gr_set_err(err, errlen, "%s %s %s; put the course's secret in it", from, path, why);
        free(text);
        return NULL;
    }
    free(loaded);
    loaded = text;
    return loaded;
}

int gr_seed_secret_is_practice(const char *secret)
{
    return secret == NULL || *secret == '\0' || strcmp(secret, GR_PRACTICE_SECRET) == 0;
}

int gr_seed_secret_unfit(const char *secret, const char *student)
{
    return gr_seed_secret_is_practice(secret) && student && *student &&
           strcmp(student, GR_LOCAL_STUDENT) != 0;
}
