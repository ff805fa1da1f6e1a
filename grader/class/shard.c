/* shard.c: the slicing rule (see shard.h). */
#include "class/shard.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/seed.h"
#include "base/util.h"

int gr_shard_parse(const char *spec, int *k, int *n, char *err, size_t errlen)
{
    const char *slash = spec ? strchr(spec, '/') : NULL;
    char *end1 = NULL, *end2 = NULL;
    long kk = -1, nn = -1;
    if (slash && spec[0] >= '0' && spec[0] <= '9' && slash[1] >= '0' && slash[1] <= '9') {
        kk = strtol(spec, &end1, 10);
        nn = strtol(slash + 1, &end2, 10);
    }
    if (!slash || end1 != slash || !end2 || *end2) {
        gr_set_err(err, errlen, "--shard takes K/N, the K-th of N slices of the class "
                   "(--shard 2/4), not '%s'", spec ? spec : "");
        return -1;
    }
    if (nn < 1 || nn > GR_SHARD_MAX)
        gr_set_err(err, errlen, "--shard %s: N, the number of shards, is from 1 to %d", spec,
                   GR_SHARD_MAX);
    else if (kk < 1)
        gr_set_err(err, errlen, "--shard %s: K counts from 1 (a Kubernetes JOB_COMPLETION_INDEX "
                   "counts from 0: give $((JOB_COMPLETION_INDEX + 1))/%ld)", spec, nn);
    else if (kk > nn)
        gr_set_err(err, errlen, "--shard %s: K is at most N, here %ld", spec, nn);
    if (nn < 1 || nn > GR_SHARD_MAX || kk < 1 || kk > nn)
        return -1;
    *k = (int)kk;
    *n = (int)nn;
    return 0;
}

int gr_shard_of(const char *id, int n)
{
    static const unsigned char key[16] = "attnlab shard 1";
    uint64_t h = gr_siphash24(key, id, strlen(id));
    return n > 1 ? (int)(h % (uint64_t)n) + 1 : 1;
}

int gr_shard_has(int k, int n, const char *id)
{
    return n <= 1 || gr_shard_of(id, n) == k;
}
