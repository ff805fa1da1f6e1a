/* inspect.h: what a test child left in memory after its call, read from
 * outside it while it is stopped (the parent's side of protocol.h).
 *
 * The kernel's list of the child's mappings (/proc/PID/maps) says which heap
 * blocks are live and, from where each sits, how many bytes were asked for
 * (proto_block_size); process_vm_readv reads the slack after each block and
 * below each buffer, at addresses the parent computes itself. Nothing the
 * child keeps in its own memory is read as a record: a student can only
 * change a verdict here by leaving memory as it should be (really freeing a
 * block, really putting a byte back).
 *
 * Reading another process needs the kernel's permission: its mappings, the
 * same user (a student grading their own code) or CAP_SYS_PTRACE (a grader
 * running as root, whose children run as nobody) and a dumpable child (the
 * seccomp filter lets no child change that); its memory, the same and a Yama
 * ptrace_scope of 0 or 1 (the parent is the child's parent). Where the
 * mappings cannot be read, `unreadable` says why and nothing is known; where
 * only the memory cannot (Yama's scope 2 or 3 for a grader that is not root),
 * `slack_unread` says why, the leaks are still judged and the slack is not.
 */
#ifndef GR_INSPECT_H
#define GR_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The mappings in a child's heap region, in address order, contiguous ones
   merged (a block the student split with mprotect is still one), and the
   private writable memory it holds elsewhere (outside both regions, the
   stack aside): memory taken without malloc (the C library's own allocator
   or mmap reached by address) shows as its growth during the call. */
typedef struct gr_blocks {
    uintptr_t (*at)[2];          /* [start, end) */
    size_t n, cap;
    uint64_t other_bytes, other_maps;
} gr_blocks;

/* Read them for pid: 0, or -1 with errno (EACCES, EPERM: not allowed). */
int gr_inspect_blocks_read(pid_t pid, gr_blocks *out);

void gr_inspect_blocks_free(gr_blocks *b);

typedef struct gr_inspection {
    int below;                   /* the slack below a buffer's data is not as it was */
    uint64_t leak_bytes;         /* blocks live now that were not before the call: */
    uint64_t leak_blocks;        /*   their requested bytes and their count (and the
                                    growth of the memory taken without malloc) */
    int slack_unread;            /* not 0: errno of a refused memory read; below is
                                    not known, the leaks are (a block's overflow
                                    faults: protocol.h) */
    int unreadable;              /* not 0: errno of a refused read; nothing above is known */
} gr_inspection;

/* Does Yama keep a grader with euid `euid` from reading its test children's
   memory, given /proc/sys/kernel/yama/ptrace_scope's text (NULL: no Yama)?
   The scope that does (2: only with CAP_SYS_PTRACE, which root has; 3: never),
   or 0. */
int gr_inspect_yama_blocks(const char *scope_text, unsigned euid);

/* Judge the stopped child pid: the slack below its n_bufs buffers of
   buf_bytes[i] bytes each, and every block live now against `before` (the
   blocks live when it said it was ready, before the request). Fills out. */
void gr_inspect(pid_t pid, const size_t *buf_bytes, int n_bufs, const gr_blocks *before,
                gr_inspection *out);

#endif
