/* inspect.c: a stopped test child's memory, judged from outside (inspect.h). */
#include "confined/inspect.h"
#include "base/protocol.h"
#include "base/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static void blocks_add(gr_blocks *b, uintptr_t start, uintptr_t end)
{
    if (b->n > 0 && b->at[b->n - 1][1] == start) {
        b->at[b->n - 1][1] = end;        /* one block split by its protections */
        return;
    }
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->at = gr_xrealloc(b->at, b->cap * sizeof *b->at);
    }
    b->at[b->n][0] = start;
    b->at[b->n][1] = end;
    b->n++;
}

/* Private writable memory outside both regions: not a block, not a buffer,
   not the stack (which grows by itself). */
static void other_add(gr_blocks *b, const char *line, uintptr_t start, uintptr_t end)
{
    const char *perms = strchr(line, ' ');     /* "rw-p": after the range */
    if (!perms || strlen(perms) < 5 || perms[2] != 'w' || perms[4] != 'p' || strstr(line, "[stack]"))
        return;
    if (end <= PROTO_BUF_REGION || start >= PROTO_HEAP_REGION + PROTO_HEAP_BYTES) {
        b->other_bytes += end - start;
        b->other_maps++;
    }
}

int gr_inspect_blocks_read(pid_t pid, gr_blocks *out)
{
    memset(out, 0, sizeof *out);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        uintptr_t start, end;
        if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR, &start, &end) != 2 || start >= end)
            ;                            /* not a mapping's line */
        else if (start >= PROTO_HEAP_REGION && end <= PROTO_HEAP_REGION + PROTO_HEAP_BYTES)
            blocks_add(out, start, end);
        else
            other_add(out, line, start, end);
        while (!strchr(line, '\n') && fgets(line, sizeof line, f))
            ;                            /* the rest of a long line (a path) */
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        gr_inspect_blocks_free(out);
        errno = EIO;
        return -1;
    }
    return 0;
}

void gr_inspect_blocks_free(gr_blocks *b)
{
    free(b->at);
    memset(b, 0, sizeof *b);
}

/* Are the len bytes at the child's address the pattern below buffer buf
   (proto_slack_byte), as the child put them? 1 yes, 0 no (or gone: a slack
   unmapped is not as it was), -1 with errno when the kernel refuses the read. */
static int slack_is(pid_t pid, uintptr_t at, size_t len, int buf)
{
    size_t off = 0;
    unsigned char got_bytes[4096];
    while (len > 0) {
        size_t n = len < sizeof got_bytes ? len : sizeof got_bytes;
        struct iovec local = {got_bytes, n}, remote = {(void *)at, n};
        ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
        if (got < 0 && (errno == EFAULT || errno == ENOMEM))
            return 0;
        if (got < 0)
            return -1;
        if ((size_t)got != n)
            return 0;
        for (size_t i = 0; i < n; i++, off++)
            if (got_bytes[i] != proto_slack_byte(buf, off))
                return 0;
        at += n;
        len -= n;
    }
    return 1;
}

/* The slack below each buffer's data, where the child put proto_slack_byte's pattern. */
static int check_below(pid_t pid, const size_t *buf_bytes, int n_bufs, size_t pg, gr_inspection *out)
{
    uintptr_t cursor = PROTO_BUF_REGION;
    for (int i = 0; i < n_bufs; i++) {
        uintptr_t lo = cursor + pg, data = proto_buf_next(&cursor, buf_bytes[i], pg);
        int ok = slack_is(pid, lo, data - lo, i);
        if (ok < 0)
            return -1;
        out->below |= !ok;
    }
    return 0;
}

static int was_live(const gr_blocks *before, uintptr_t start, uintptr_t end)
{
    size_t lo = 0, hi = before->n;
    while (lo < hi) {                     /* maps lists mappings in address order */
        size_t mid = lo + (hi - lo) / 2;
        if (before->at[mid][0] < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < before->n && before->at[lo][0] == start && before->at[lo][1] == end;
}

/* What the call left, from the mappings alone: the blocks live now that were
   not before it (a mapping of no block's shape leaks all of it), and the
   growth of the memory taken without malloc. */
static void count_leaks(const gr_blocks *now, const gr_blocks *before, size_t pg, gr_inspection *out)
{
    for (size_t i = 0; i < now->n; i++) {
        uintptr_t start = now->at[i][0], end = now->at[i][1];
        if (was_live(before, start, end))
            continue;
        size_t n = proto_block_size(start, end, pg);
        out->leak_bytes += n != SIZE_MAX ? n : end - start;
        out->leak_blocks++;
    }
    if (now->other_bytes > before->other_bytes) {
        out->leak_bytes += now->other_bytes - before->other_bytes;
        out->leak_blocks += now->other_maps > before->other_maps ? now->other_maps - before->other_maps : 1;
    }
}

int gr_inspect_yama_blocks(const char *scope_text, unsigned euid)
{
    int scope = scope_text ? atoi(scope_text) : 0;
    return scope >= 3 || (scope == 2 && euid != 0) ? scope : 0;
}

void gr_inspect(pid_t pid, const size_t *buf_bytes, int n_bufs, const gr_blocks *before,
                gr_inspection *out)
{
    memset(out, 0, sizeof *out);
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    gr_blocks now;
    if (gr_inspect_blocks_read(pid, &now) != 0) {
        out->unreadable = errno ? errno : EIO;
        return;
    }
    count_leaks(&now, before, pg, out);
    if (check_below(pid, buf_bytes, n_bufs, pg, out) != 0) {
        int e = errno ? errno : EIO;
        out->below = 0;
        if (e == EPERM || e == EACCES)
            out->slack_unread = e;       /* Yama above 1: the mappings alone still say the leaks */
        else
            out->unreadable = e;
    }
    gr_inspect_blocks_free(&now);
}
