/* shard.h: a class graded in slices on many machines (attnlab batch --shard
 * K/N); each slice's output is a batch output (run.h) that attnlab merge
 * joins (merge.h).
 *
 * The slicing rule: student ID is in shard 1 + (h(ID) mod N), h the
 * SipHash-2-4 of the id's bytes under the fixed key "attnlab shard 1\0"
 * (gr_shard_of). A student's shard follows from their id and N alone: not
 * from which other folders a machine sees, the roster, the locale or the
 * order of a directory listing, so N machines given the same N agree on
 * who is whose without talking to each other, and a merge can check every
 * student is where the rule puts them.
 */
#ifndef GR_SHARD_H
#define GR_SHARD_H

#include <stddef.h>

/* Read "K/N" (1 <= K <= N <= GR_SHARD_MAX) into *k and *n. 0, or -1 with err
   saying what to give. */
#define GR_SHARD_MAX 100000
int gr_shard_parse(const char *spec, int *k, int *n, char *err, size_t errlen);

/* The shard (1..n) of student id among n. */
int gr_shard_of(const char *id, int n);

/* 1 when id is in slice k of n (always when n is 0 or 1). */
int gr_shard_has(int k, int n, const char *id);

#endif
