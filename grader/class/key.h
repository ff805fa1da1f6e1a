/* key.h: the key of a student's grade, what batch reuses a results.json by.
 *
 * A key is everything a grade follows from (attnlab itself, the labs asked
 * for, and for each the rubric, the contract header and the student's file
 * as found now), hashed, then keyed with the secret and the id as every seed
 * is (seed.h), so a key tells nothing of the secret. A results.json is only
 * reused under the same key. The side key leaves the rubrics and contract
 * headers out: when only it holds, only they changed (regrade.h).
 *
 * The key file, OUT/students/ID/key, written last after results.json:
 *   attnlab key 1       the format
 *   full HEX            the key
 *   side HEX            the side key
 * A results.json with no key file (an attnlab from before keys, or a run
 * stopped between the two writes) is graded again.
 */
#ifndef GR_KEY_H
#define GR_KEY_H

#include <stddef.h>
#include "class/batch_opts.h"
#include "engine/intake.h"
#include "base/util.h"

/* The digest a key is made of: two SipHash-2-4 values of data under fixed
   public keys, as 32 hex digits (malloc'd). */
char *gr_key_digest(const char *data, size_t len);

/* The digest of the running attnlab program (malloc'd): a rebuilt grader may
   grade otherwise. Read once a process. */
char *gr_key_program(void);

/* Lab lab's rubric and contract header, tagged with their lengths, into m:
   what every key of the lab covers besides the student's file. */
void gr_key_lab_files(gr_strbuf *m, const gr_batch_opts *o, int lab);

/* The key (side 0) or side key (side 1) of student id, whose folder is dir
   and whose lab files intake found, under o and the program digest
   (gr_key_program), as 16 hex digits (malloc'd). */
char *gr_key_make(const gr_batch_opts *o, const char *program, const char *id, const char *dir,
                  const gr_intake *intake, int side);

/* The key file's text for key and side key (malloc'd). */
char *gr_key_file_text(const char *key, const char *side);

/* Whether the key file at path holds key as its key (side 0) or side key
   (side 1): 1, or 0 with why. */
int gr_key_holds(const char *path, int side, const char *key, char *why, size_t whylen);

#endif
