/* hmac.h: SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for results that
 * prove who wrote them.
 *
 * A shard's results.json carries an HMAC keyed by the grading secret over its
 * content (report_json.c), so attnlab merge can tell a file batch wrote from
 * one edited afterwards: without the secret no one can make a signature that
 * verifies. seed.h's SipHash keys the inputs; it is a 64-bit PRF, short for a
 * signature a forger may try offline, so signatures take the 256-bit HMAC.
 * Checked against the FIPS 180-4 and RFC 4231 test vectors (test_hmac.c).
 */
#ifndef GR_HMAC_H
#define GR_HMAC_H

#include <stddef.h>
#include <stdint.h>

#define GR_SHA256_BYTES 32
#define GR_HMAC_HEX (2 * GR_SHA256_BYTES)   /* hex digits of a signature */

/* out = SHA-256 of len bytes at data. */
void gr_sha256(const void *data, size_t len, uint8_t out[GR_SHA256_BYTES]);

/* out = HMAC-SHA256 of msg under key (any length). */
void gr_hmac_sha256(const void *key, size_t key_len, const void *msg, size_t msg_len,
                    uint8_t out[GR_SHA256_BYTES]);

/* The same, as GR_HMAC_HEX lowercase hex digits and a NUL in hex. */
void gr_hmac_sha256_hex(const void *key, size_t key_len, const void *msg, size_t msg_len,
                        char hex[GR_HMAC_HEX + 1]);

/* 1 when the a and b hold the same n bytes, in time that does not depend on
   where they differ (a signature compared byte by byte leaks how much of a
   guess was right). */
int gr_hmac_equal(const void *a, const void *b, size_t n);

#endif
