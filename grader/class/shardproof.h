/* shardproof.h: a shard's results proved before attnlab merge joins them.
 *
 * A shard's folder comes back from a cluster node or a colleague's machine:
 * anyone who can write it could edit a results.json ("every test passed,
 * max_score 900"). Merge therefore trusts nothing in it that it can rebuild:
 *   - the secret given to merge (ATTNLAB_SECRET) must be the one run.txt
 *     records (by its keyed digest), and every results.json must carry an
 *     HMAC-SHA256 under it (report_json.c): no one without the secret can
 *     write a file that verifies;
 *   - the rubrics merge loads itself (the course's, or --rubrics DIR as the
 *     batch had) must be those run.txt records, and each student's tests and
 *     maxima are rebuilt from them: every test of the rubric present once,
 *     its maximum the rubric's points, its visibility the rubric's, and no
 *     test the rubric does not have.
 * Each refusal names the file and the difference.
 */
#ifndef GR_SHARDPROOF_H
#define GR_SHARDPROOF_H

#include <stddef.h>

#include "class/run.h"
#include "base/labmod.h"
#include "base/result.h"
#include "base/rubric.h"

typedef struct gr_shard_proof {
    const char *secret;
    int have[GR_N_LABS];
    gr_rubric rubric[GR_N_LABS];
} gr_shard_proof;

/* Check secret and the rubrics of root (or the folder rubrics) against run,
   and load the rubrics into p (free with gr_shardproof_free). 0, or -1
   with err saying what differs and what to give merge. */
int gr_shardproof_load(gr_shard_proof *p, const gr_run *run, const char *root,
                        const char *rubrics, const char *secret, char *err, size_t errlen);

/* 0 when the results.json at path is signed under p's secret and r (read
   from it) holds exactly the rubrics' tests with their maxima; -1 with why. */
int gr_shardproof_check(const gr_shard_proof *p, const char *path, const gr_report *r,
                         char *why, size_t whylen);

void gr_shardproof_free(gr_shard_proof *p);

#endif
