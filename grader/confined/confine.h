/* confine.h: the kernel's walls around every program that reads student text.
 *
 * The preprocessor, compiler, assembler, linker and objcopy run on text a
 * student wrote, so they run as a student's code would: confined by the
 * kernel, in layers, so that a trick nobody has thought of yet still reaches
 * nothing. Each layer is used where this machine offers it:
 *
 *   identity    uid and gid nobody (65534), no supplementary groups, when the
 *               grader runs as root
 *   namespace   a private mount namespace (a user namespace first when not
 *               root) whose root holds only the toolchain's folders read-only,
 *               /dev/null and the tool's own work folder; no /proc, no /tmp,
 *               no grader tree, no other submission; a network namespace
 *               with no interfaces
 *   landlock    the same view enforced again by Landlock: read and execute
 *               beneath the toolchain's folders, read and write beneath the
 *               work folder, nothing else; no TCP (ABI 4), no signals or
 *               abstract sockets outside the tool's own processes (ABI 6)
 *   seccomp     no ptrace, no sockets, no mounts, no namespaces, no kernel
 *               keyrings, BPF, io_uring or module loading
 *   rlimits     CPU, address space, file size, no core dumps; always on, with
 *               the wall-clock kill of the tool's process group (tool.h)
 *
 * A machine or container that lacks a layer gets the others; which layers
 * were active is reported (gr_confine_describe) in results.json and by the
 * grader's progress lines. ATTNLAB_CONFINE_DISABLE="namespace,landlock,..."
 * turns layers off, to try a weaker machine's grading on a strong one.
 */
#ifndef GR_CONFINE_H
#define GR_CONFINE_H

#include <stddef.h>
#include "base/util.h"

/* What this machine offers (gr_confine_probe) or what one plan uses. */
typedef struct gr_confine_layers {
    int identity;        /* 1: tools run as nobody (the grader is root) */
    int namespace;       /* 1: private mount and network namespaces */
    int landlock_abi;    /* Landlock ABI version in use, 0: none */
    int seccomp;         /* 1: the toolchain's system-call deny-list */
} gr_confine_layers;

/* The layers this machine offers, probed once (a throwaway child tries each),
   less those named in ATTNLAB_CONFINE_DISABLE. */
const gr_confine_layers *gr_confine_probe(void);

/* Append the active layers as one line, e.g.
   "nobody, mount+net namespace, Landlock ABI 7, seccomp, rlimits". */
void gr_confine_describe(const gr_confine_layers *l, gr_strbuf *out);

/* Everything a confined child needs, made by the parent before fork. */
typedef struct gr_confine gr_confine;

/* Prepare confinement for tools that run in work_dir (made writable for user
   nobody when the grader is root) and see nothing else but the toolchain,
   with the layers in want that this machine offers (want NULL: all it offers).
   NULL with err when the grader cannot set it up (its own fault). */
gr_confine *gr_confine_new(const char *work_dir, const gr_confine_layers *want, char *err,
                           size_t errlen);

/* The layers this plan applies. */
const gr_confine_layers *gr_confine_layers_of(const gr_confine *c);

/* In the child, after fork and before exec: apply every layer of c. 0, or the
   failing step's name (a static string) with errno set. Async-signal-safe. */
const char *gr_confine_enter(const gr_confine *c);

void gr_confine_free(gr_confine *c);

/* A Landlock ruleset for a test child: no filesystem access at all but reading
   and executing the one program exe, no TCP, no signals or abstract sockets
   outside. Its fd (close-on-exec), or -1 when Landlock is not available here. */
int gr_confine_landlock_only_exec(const char *exe);

/* Enforce such a ruleset in the calling process (after no_new_privs): 0 or -1. */
int gr_confine_landlock_enforce(int ruleset_fd);

#endif
