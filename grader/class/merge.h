/* merge.h: the shards of a class joined into one batch output (attnlab merge).
 *
 * Each DIR is the output of `attnlab batch ... --shard K/N` (or of a whole
 * batch, 1/1); its run.txt (shard.h) says which slice it holds and what it
 * was graded from. The merge refuses, before writing anything, folders that
 * are not batch outputs, shards graded differently (another secret, rubric,
 * course policy, roster, hand-in times, class or attnlab build), two folders
 * of one slice, a missing slice (naming it), and a results.json that is not
 * a regular file, does not name its student, holds other labs or scores
 * outside 0..max, is not signed under the secret, or whose tests and maxima
 * are not its rubric's (shardproof.h). Then it builds the class from the records and the
 * results.json files and writes it as batch does (classout.h): a merged
 * gradebook.csv is the single run's byte for byte, and so is report.md when
 * every shard graded its students in one go (its first line counts the
 * students graded in this run and read back, summed over the shards).
 *
 * OUT is written whole or not at all: everything goes into a new folder
 * beside it, renamed to OUT at the end; OUT must not exist or be empty. It
 * holds students/ID/ (results.json, feedback.txt, key), the class files,
 * the shards' regrades.log joined in time order and shard 1's rubrics.state
 * (regrade.h), and a run.txt of its own (1/1): a batch output like any other.
 * report.html's similar pairs read the students' own files: from the folder
 * the shards graded (on a file system they share with the merge) or
 * m->submissions; without one it has no similarity section, and says so.
 */
#ifndef GR_MERGE_H
#define GR_MERGE_H

#include <stdio.h>

typedef struct gr_merge_opts {
    const char *const *dirs;      /* the shards' output folders */
    int n_dirs;
    const char *out;              /* the merged output folder */
    const char *root;             /* the attnlab tree (the histogram's gnuplot script, the
                                     course's rubrics) */
    const char *rubrics;          /* --rubrics DIR as the batch had, or NULL: the course's */
    const char *secret;           /* the grading secret: every results.json's signature is
                                     checked with it (shardproof.h) */
    int bom;                      /* gradebook.csv with a UTF-8 byte order mark */
    const char *submissions;      /* the students' folders for report.html's similar pairs,
                                     or NULL: the folder the first shard's run.txt names,
                                     when it is one here */
    FILE *text;                   /* the class report as text, or NULL */
    FILE *notes;                  /* notes (no gnuplot ...) */
} gr_merge_opts;

/* Merge m->dirs into m->out. 0; GR_STATUS_BAD_INPUT (grade.h) when the shards
   are refused, GR_STATUS_FAILED when OUT cannot be written; err says why. */
int gr_merge(const gr_merge_opts *m, char *err, size_t errlen);

#endif
