/* seed.h: per-student seeds for generated test inputs.
 *
 * Every randomized test input is drawn from a seed made of four things: the
 * instructor's secret, the student id, the lab number and the test name. The
 * same four always give the same seed, so a regrade reproduces a student's
 * numbers exactly; change any one and the seed changes, so each student gets
 * their own inputs.
 *
 * The seed is a keyed pseudo-random function, SipHash-2-4 (Aumasson and
 * Bernstein, "SipHash: a fast short-input PRF", 2012). Its 128-bit key is
 * derived from the secret, so a student who reads this file, the rubric and
 * the grader's source but not the secret cannot predict hidden inputs.
 *
 *   key  = SipHash(K_kdf, 0x00 || secret) || SipHash(K_kdf, 0x01 || secret)
 *          (K_kdf is the fixed public 16 bytes "attnlab seed kdf")
 *   seed = SipHash(key, u64(len student) || student
 *                       || u64(lab)
 *                       || u64(len test) || test)
 *          (u64 = 8 bytes little-endian; the lengths make the encoding
 *           unambiguous: student "ab" + test "c" is not student "a" + test "bc")
 *
 * Instructors: set ATTNLAB_SECRET to a long random string of your own (for
 * example `head -c 32 /dev/urandom | base64`) wherever you grade, and keep it
 * out of the student kit. Without it attnlab uses the public practice secret
 * "attnlab-practice", which is fine for practice and useless for hidden tests.
 */
#ifndef GR_SEED_H
#define GR_SEED_H

#include <stddef.h>
#include <stdint.h>

/* The public secret used when ATTNLAB_SECRET is unset or empty. */
#define GR_PRACTICE_SECRET "attnlab-practice"

/* SipHash-2-4 of data[0..len) under the 16-byte key, as in the reference
   implementation (key and message words read little-endian). */
uint64_t gr_siphash24(const unsigned char key[16], const void *data, size_t len);

/* The seed of one test for one student: a keyed hash of (student, lab, test)
   under a key derived from secret. NULL strings count as empty. */
uint64_t gr_seed(const char *secret, const char *student, int lab, const char *test);

/* The grading secret: ATTNLAB_SECRET when set and non-empty, otherwise
   GR_PRACTICE_SECRET. The string belongs to the environment or is static. */
const char *gr_seed_secret_from_env(void);

/* The grading secret of a command that takes --secret-file: the contents of
   the file path (--secret-file), or of ATTNLAB_SECRET_FILE's file when path
   is NULL, without its trailing line ends (as $(cat FILE) gives it); with
   neither, gr_seed_secret_from_env(). A file keeps the secret off every command
   line (ps) and out of a job's saved environment. NULL with err set when the
   file is missing, unreadable, empty or holds a NUL byte, or when
   ATTNLAB_SECRET is set too (two secrets: which one graded?). The string
   stays valid until the next call. */
const char *gr_seed_secret_load(const char *path, char *err, size_t errlen);

/* 1 when secret is the public practice secret (hidden inputs are predictable). */
int gr_seed_secret_is_practice(const char *secret);

/* The student id of a run nobody named (attnlab grade without --student). */
#define GR_LOCAL_STUDENT "local"

/* 1 when a named student (any id but GR_LOCAL_STUDENT) is graded with the
   practice secret: the grade is recorded against inputs anyone can compute. */
int gr_seed_secret_unfit(const char *secret, const char *student);

/* The warning to print when gr_seed_secret_unfit holds (one line, no newline). */
#define GR_PRACTICE_WARNING \
    "warning: grading a named student with the public practice secret: anyone can " \
    "compute these inputs, hidden ones included; set ATTNLAB_SECRET to the course's " \
    "secret (the results are marked practice_secret)"

#endif
