/* hmac.c: SHA-256 and HMAC-SHA256 (see hmac.h). */
#include "engine/hmac.h"

#include <string.h>

typedef struct sha256 {
    uint32_t h[8];
    uint8_t block[64];
    size_t used;                 /* bytes in block */
    uint64_t bits;               /* message length so far */
} sha256;

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into the state (FIPS 180-4 section 6.2.2). */
static void compress(uint32_t h[8], const uint8_t b[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)b[4 * t] << 24 | (uint32_t)b[4 * t + 1] << 16 |
               (uint32_t)b[4 * t + 2] << 8 | b[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = bb;
        bb = a;
        a = t1 + t2;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

static void sha_init(sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->used = 0;
    s->bits = 0;
}

static void sha_update(sha256 *s, const void *data, size_t len)
{
    const uint8_t *p = data;
    s->bits += (uint64_t)len * 8;
    while (len > 0) {
        size_t take = 64 - s->used < len ? 64 - s->used : len;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        len -= take;
        if (s->used == 64) {
            compress(s->h, s->block);
            s->used = 0;
        }
    }
}

/* The padding (a 1 bit, zeros, the length in bits) and the digest. */
static void sha_final(sha256 *s, uint8_t out[GR_SHA256_BYTES])
{
    uint64_t bits = s->bits;
    static const uint8_t one = 0x80, zero = 0;
    sha_update(s, &one, 1);
    while (s->used != 56)
        sha_update(s, &zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)(bits >> (56 - 8 * i));
    sha_update(s, len, 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}

void gr_sha256(const void *data, size_t len, uint8_t out[GR_SHA256_BYTES])
{
    sha256 s;
    sha_init(&s);
    sha_update(&s, data, len);
    sha_final(&s, out);
}

void gr_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                    uint8_t out[GR_SHA256_BYTES])
{
    uint8_t k[64] = {0}, pad[64], inner[GR_SHA256_BYTES];
    if (key_len > 64)
        gr_sha256(key, key_len, k);          /* a long key is hashed first (RFC 2104) */
    else if (key_len > 0)
        memcpy(k, key, key_len);
    sha256 s;
    for (int i = 0; i < 64; i++)
        pad[i] = k[i] ^ 0x36;
    sha_init(&s);
    sha_update(&s, pad, 64);
    sha_update(&s, msg, msg_len);
    sha_final(&s, inner);
    for (int i = 0; i < 64; i++)
        pad[i] = k[i] ^ 0x5c;
    sha_init(&s);
    sha_update(&s, pad, 64);
    sha_update(&s, inner, sizeof inner);
    sha_final(&s, out);
}

void gr_hmac_sha256_hex(const void *key, size_t key_len, const void *msg, size_t msg_len,
                        char hex[GR_HMAC_HEX + 1])
{
    uint8_t mac[GR_SHA256_BYTES];
    gr_hmac_sha256(key, key_len, msg, msg_len, mac);
    for (int i = 0; i < GR_SHA256_BYTES; i++) {
        hex[2 * i] = "0123456789abcdef"[mac[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[mac[i] & 15];
    }
    hex[GR_HMAC_HEX] = '\0';
}

int gr_hmac_equal(const void *a, const void *b, size_t n)
{
    const volatile uint8_t *x = a, *y = b;
    uint8_t diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (uint8_t)(x[i] ^ y[i]);
    return diff == 0;
}
