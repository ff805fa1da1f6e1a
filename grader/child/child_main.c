/* child_main.c: the child's side of one test call, linked into every test
 * executable (with the student's object, the lab's dispatch and the support
 * RNG/tensor code; never libattn).
 *
 * What it does, in order:
 *   before main   (.preinit_array, so before any constructor of the student's)
 *                 record the stack bounds, install the fault handler on an
 *                 alternate stack, read the heap limit, and stack one more
 *                 seccomp filter that forbids execve/execveat from now on;
 *   main          read the request from fd 3 strictly, place every buffer in
 *                 its own mapping between two PROT_NONE guard pages (the data
 *                 ends exactly at the upper guard, so one element past the end
 *                 faults; the slack below the data holds a canary), call
 *                 child_dispatch, check the canaries below the buffers and
 *                 after the student's heap blocks, write the response on fd 4
 *                 in one writev loop, _exit(0).
 *
 * Memory: the student's object is linked with --wrap=malloc,calloc,realloc,
 * free,aligned_alloc,posix_memalign, so every allocation comes through the
 * __wrap_ functions below, which count live bytes (plus the student's static
 * data, passed in by the build as the absolute symbol child_student_static_bytes)
 * against ATTNLAB_HEAP_LIMIT. Going over returns NULL and raises a flag; a
 * crash or a return with the flag raised exits PROTO_EXIT_OUT_OF_MEMORY. The
 * count lives in the student's memory, so it only names the verdict precisely
 * for code that plays fair: the limit itself is the kernel's (the sandbox's
 * RLIMIT_DATA), and a NULL from the C library raises the flag too.
 *
 * Compiled without sanitizers and without the stack protector, linked
 * statically: the sandbox's seccomp filter then covers every instruction.
 * Nothing here may allocate with malloc (the student's heap is measured).
 */
#include "dispatch.h"

#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <ucontext.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

/* ---- memory accounting ------------------------------------------------------ */

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__real_aligned_alloc(size_t align, size_t n);
int __real_posix_memalign(void **pp, size_t align, size_t n);

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t count, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
void *__wrap_aligned_alloc(size_t align, size_t n);
int __wrap_posix_memalign(void **pp, size_t align, size_t n);

/* The build links with --defsym=child_student_static_bytes=N: the address of this
   symbol IS the size of the student's code and static data. Weak, so a link
   without it (tests of the test child itself) reads 0. */
extern char child_student_static_bytes[] __attribute__((weak));

static size_t heap_limit = SIZE_MAX;     /* bytes the student may hold, static data included */
static size_t heap_live;                 /* usable bytes of live allocations + static data */
static int heap_ready;
static volatile sig_atomic_t heap_over;  /* an allocation was refused */

/* Parse ATTNLAB_HEAP_LIMIT once. Lazy, because allocations can happen before
   main (constructors, stdio); the .preinit_array hook calls it first anyway. */
static void heap_init(void)
{
    if (heap_ready)
        return;
    heap_ready = 1;
    heap_live = (size_t)(uintptr_t)child_student_static_bytes;
    const char *s = getenv("ATTNLAB_HEAP_LIMIT");
    if (!s || !*s)
        return;                          /* run by hand, outside the grader: no limit */
    size_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (SIZE_MAX - 9) / 10) {
            v = SIZE_MAX;
            break;
        }
        v = v * 10 + (size_t)(*s - '0');
    }
    heap_limit = v;
}

/* May n more bytes be allocated? If not, raise the flag (the test will end in
   "out of memory" whatever the student does with the NULL). */
static int child_started;                 /* the .preinit_array hook has run */

static int heap_allow(size_t n)
{
    heap_init();
    if (heap_live > heap_limit || n > heap_limit - heap_live) {
        /* Before the test child's hook only the C library's own start-up allocates
           (a few hundred bytes); refusing it would crash start-up before any
           handler exists. Only the student's static data can be that big. */
        if (!child_started)
            _exit(PROTO_EXIT_OUT_OF_MEMORY);
        heap_over = 1;
        return 0;
    }
    return 1;
}

/* malloc_usable_size, not the requested size: then memory can be freed by a
   path that did not count it (the C library's own allocations) without
   corrupting anything; the count only errs by a few bytes per block. NULL from
   the C library means the kernel refused the memory (RLIMIT_DATA): over the
   limit, whatever the count says. */
static void heap_add(void *p)
{
    if (p)
        heap_live += malloc_usable_size(p);
    else
        heap_over = 1;
}

static void heap_sub(void *p)
{
    if (!p)
        return;
    size_t u = malloc_usable_size(p);
    heap_live = heap_live > u ? heap_live - u : 0;
}

/* ---- heap canaries: a write past the end of a student's block ------------------
 * Each block of the student's gets CANARY_BYTES more than asked for, and the
 * bytes from the requested end to the usable end hold a canary byte. The block is
 * remembered (pointer and requested size) in a fixed table, checked when it
 * is freed or reallocated and, for the blocks still live, after the call
 * returns: a changed byte is an overflow the C library alone may never see
 * (it lands in the block's slack). Reported as the C library reports heap
 * corruption: a line on stderr and SIGABRT.
 * The canary byte differs from block to block (0x70..0x7F in turn, in the
 * order of allocation, so a run is repeatable): read as a float, int or double
 * it is huge (1e29 to 3e38), so a read one past the end poisons a sum instead
 * of adding a tiny value, and reading past the ends of two blocks at once
 * (O_post[n] - O_pre[n]) does not cancel out. */
/* The slack below the call's buffers holds slack_byte() (see guarded). */
#define MALLOC_FILL 0xFF                 /* every float and double of it a NaN */
#define CANARY_BYTES 16
#define CANARY_SLOTS 4096                /* blocks tracked at once; more go unchecked */
static struct { void *p; size_t n; unsigned char in_call, byte; } canary_tab[CANARY_SLOTS];
static unsigned canary_count;            /* blocks given a canary so far */
static int in_call;                      /* the student's function is running */

static size_t canary_slot(const void *p)
{
    return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15u >> 52 & (CANARY_SLOTS - 1);
}

static void canary_set(void *p, size_t n, int from_call)
{
    if (!p || !child_started)
        return;
    size_t u = malloc_usable_size(p);
    unsigned char byte = (unsigned char)(0x70 | (canary_count++ & 0x0F));
    if (u > n)
        memset((unsigned char *)p + n, byte, u - n);
    for (size_t k = 0, i = canary_slot(p); k < 64; k++, i = (i + 1) & (CANARY_SLOTS - 1))
        if (!canary_tab[i].p) {
            canary_tab[i].p = p;
            canary_tab[i].n = n;
            canary_tab[i].in_call = (unsigned char)from_call;
            canary_tab[i].byte = byte;
            return;
        }
}

static void canary_fail(size_t n)
{
    static const char msg[] = "heap overflow: a write past the end of a malloc'd block\n";
    (void)n;
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
    abort();
}

static void canary_check_block(const void *p, size_t n, unsigned char byte)
{
    size_t u = malloc_usable_size((void *)(uintptr_t)p);
    for (size_t k = n; k < u; k++)
        if (((const unsigned char *)p)[k] != byte)
            canary_fail(n);
}

/* Forget p (being freed or moved), checking its canary first. Returns whether
   it was allocated during the call (a block moved by realloc keeps its origin). */
static int canary_take(const void *p)
{
    if (!p)
        return in_call;
    for (size_t k = 0, i = canary_slot(p); k < 64; k++, i = (i + 1) & (CANARY_SLOTS - 1))
        if (canary_tab[i].p == p) {
            canary_check_block(p, canary_tab[i].n, canary_tab[i].byte);
            canary_tab[i].p = NULL;
            return canary_tab[i].in_call;
        }
    return in_call;
}

/* After the call: every live block's canary, then one allocation so the C
   library checks the heap's own bookkeeping too. */
static void canary_check_all(void)
{
    for (size_t i = 0; i < CANARY_SLOTS; i++)
        if (canary_tab[i].p)
            canary_check_block(canary_tab[i].p, canary_tab[i].n, canary_tab[i].byte);
    __real_free(__real_malloc(4096));
}

static size_t padded(size_t n)
{
    return n > SIZE_MAX - CANARY_BYTES ? n : n + CANARY_BYTES;
}

void *__wrap_malloc(size_t n)
{
    if (!heap_allow(n)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_malloc(padded(n));
    if (p && in_call)
        memset(p, MALLOC_FILL, n);       /* what malloc gives is not zeros: a missing first value shows */
    canary_set(p, n, in_call);
    heap_add(p);
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n) || !heap_allow(n)) {
        heap_over = 1;
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_calloc(1, padded(n));
    canary_set(p, n, in_call);
    heap_add(p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    if (!p)
        return __wrap_malloc(n);
    size_t before = malloc_usable_size(p);
    heap_init();
    size_t others = heap_live > before ? heap_live - before : 0;
    if (n > 0 && (others > heap_limit || n > heap_limit - others)) {
        heap_over = 1;
        errno = ENOMEM;
        return NULL;
    }
    int from_call = canary_take(p);
    void *q = __real_realloc(p, n ? padded(n) : 0);
    if (q && n)
        canary_set(q, n, from_call);
    if (q) {
        heap_live = others;
        heap_add(q);
    } else if (n == 0) {
        heap_live = others;              /* realloc(p, 0) freed p */
    } else {
        heap_over = 1;                   /* the kernel refused the memory */
    }
    return q;
}

void __wrap_free(void *p)
{
    canary_take(p);
    heap_sub(p);
    __real_free(p);
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    if (!heap_allow(n)) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = __real_aligned_alloc(align, padded(n));
    canary_set(p, n, in_call);
    heap_add(p);
    return p;
}

int __wrap_posix_memalign(void **pp, size_t align, size_t n)
{
    if (!heap_allow(n))
        return ENOMEM;
    int rc = __real_posix_memalign(pp, align, padded(n));
    if (rc == 0) {
        canary_set(*pp, n, in_call);
        heap_add(*pp);
    }
    return rc;
}

/* ---- faults: out of memory, stack overflow, or a plain crash ------------------- */

static uintptr_t stack_top;              /* highest stack address (__libc_stack_end) */
static uintptr_t stack_low;              /* lowest address the stack may grow to */
static unsigned char alt_stack[64 * 1024];

extern void *__libc_stack_end;

#define STACK_SLACK ((uintptr_t)256 * 1024)

static uintptr_t fault_sp(void *uc_void)
{
    const ucontext_t *uc = uc_void;
#if defined(__x86_64__)
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc;
    return UINTPTR_MAX;                  /* unknown: never call it a stack overflow */
#endif
}

/* A fault is a stack overflow when the stack pointer itself has reached the
   bottom of the stack's allowed range and the faulting address is at or just
   below it (a push, a call, or a huge local array being touched). */
static int is_stack_overflow(uintptr_t addr, uintptr_t sp)
{
    if (stack_low == 0 || sp == UINTPTR_MAX)
        return 0;
    return sp < stack_low + STACK_SLACK && addr + 65536 >= sp && addr < stack_low + STACK_SLACK;
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    if (heap_over)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);   /* most likely a NULL from a refused malloc */
    if ((sig == SIGSEGV || sig == SIGBUS) && is_stack_overflow((uintptr_t)si->si_addr, fault_sp(uc)))
        _exit(PROTO_EXIT_STACK_OVERFLOW);
    /* anything else is the student's crash: let the parent see the real signal */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    raise(sig);                          /* delivered when the handler returns */
}

static void install_fault_handler(void)
{
    stack_top = (uintptr_t)__libc_stack_end;
    if (stack_top == 0)
        stack_top = (uintptr_t)__builtin_frame_address(0);
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < stack_top)
        stack_low = stack_top - (uintptr_t)rl.rlim_cur;

    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = alt_stack;
    ss.ss_size = sizeof alt_stack;
    sigaltstack(&ss, NULL);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
}

/* ---- no exec after start-up ------------------------------------------------------- */

/* The sandbox's filter allows exactly one execve (its own, of this file). This
   second filter, stacked on top, forbids execve and execveat for the rest of the
   process's life. Filters can only be added, never removed, and the strictest
   answer wins. Outside the sandbox (no no_new_privs) it fails harmlessly. */
static void forbid_exec(void)
{
#if defined(__x86_64__)
    const uint32_t arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    const uint32_t arch = AUDIT_ARCH_AARCH64;
#else
    return;
#endif
#if defined(__x86_64__) || defined(__aarch64__)
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof code / sizeof code[0]), code};
    /* prctl, not syscall(): syscall() must stay out of the link (objcheck.h) */
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
#endif
}

/* Runs before every constructor of the student's (child_main.o is linked first,
   so its .preinit_array entry comes first), and before main. */
static void child_preinit(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    forbid_exec();
    install_fault_handler();
    heap_init();
    if (heap_live > heap_limit)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);   /* the student's static arrays alone are too big */
    child_started = 1;
}

__attribute__((used, section(".preinit_array")))
static void (*const child_preinit_entry)(int, char **, char **) = child_preinit;

/* ---- the request ---------------------------------------------------------------- */

static void bad_request(void)
{
    _exit(PROTO_EXIT_BAD_REQUEST);
}

/* Read exactly n bytes from the request pipe, or die as a bad request. */
static void rd(void *dst, size_t n)
{
    unsigned char *p = dst;
    while (n > 0) {
        ssize_t got = read(PROTO_FD_REQUEST, p, n > (1u << 30) ? (1u << 30) : n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            bad_request();
        p += got;
        n -= (size_t)got;
    }
}

static uint32_t rd_u32(void)
{
    uint32_t v;
    rd(&v, sizeof v);
    return v;
}

static uint64_t rd_u64(void)
{
    uint64_t v;
    rd(&v, sizeof v);
    return v;
}

static size_t kind_size(uint32_t kind)
{
    switch (kind) {
    case PROTO_F32: return sizeof(float);
    case PROTO_I32: return sizeof(int32_t);
    case PROTO_U8:  return sizeof(uint8_t);
    default:        return 0;
    }
}

/* The canary byte at offset off of buffer buf's slack. Each 4-byte word
   below an array is a different number, its top byte 0x70..0x7F and the bit
   under it clear, so any float, int or double read there (little-endian) is
   huge and finite (1e29 to 2e38) and poisons what it touches. Because the
   words differ from place to place and from buffer to buffer, a write below
   one array of a value read below another (lse[-1] from S[-n..-1]) or from
   further down (x[-1] = x[-2]) changes the slack too. */
static unsigned char slack_byte(int buf, size_t off)
{
    uint32_t h = (uint32_t)(off / 4) * 2654435761u ^ (uint32_t)(buf + 1) * 2246822519u;
    h ^= h >> 15;
    uint32_t word = 0x70000000u | (h & 0x0F7FFFFFu);
    return (unsigned char)(word >> (8 * (off % 4)));
}

/* A mapping of bytes whose data ends exactly at a PROT_NONE page and starts
   after another one: writing one element past the end (or a page before the
   start) faults instead of silently landing in something else. buf numbers
   the slack's canary. */
static void *guarded(size_t bytes, int buf)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t data = (bytes + pg - 1) / pg * pg;
    unsigned char *base = mmap(NULL, data + 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);
    if (data > 0 && mprotect(base + pg, data, PROT_READ | PROT_WRITE) != 0)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);
    for (size_t k = 0; k < data - bytes; k++)  /* the slack below the data: checked after the call */
        base[pg + k] = slack_byte(buf, k);
    return base + pg + data - bytes;
}

/* After the call: the slack between each buffer's lower guard page and its
   first element is untouched, else the student wrote below the buffer (the
   guard page sits a page below, so only a write further down faults). Ends
   like a write past the end: SIGSEGV. */
static void check_below(const proto_call *call)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < call->n_bufs; i++) {
        const unsigned char *d = call->bufs[i].data;
        const unsigned char *page = (const unsigned char *)((uintptr_t)d & ~(uintptr_t)(pg - 1));
        for (const unsigned char *q = page; q < d; q++) {
            if (*q != slack_byte(i, (size_t)(q - page))) {
                static const char msg[] = "a write below the first element of an array argument\n";
                ssize_t w = write(2, msg, sizeof msg - 1);
                (void)w;
                raise(SIGSEGV);
            }
        }
    }
}

static void read_request(proto_call *call)
{
    memset(call, 0, sizeof *call);
    if (rd_u32() != PROTO_REQUEST_MAGIC)
        bad_request();
    call->fn = rd_u32();
    uint32_t n = rd_u32();
    if (n > PROTO_MAX_INTS)
        bad_request();
    call->n_ints = (int)n;
    for (uint32_t i = 0; i < n; i++)
        call->ints[i] = (int64_t)rd_u64();
    n = rd_u32();
    if (n > PROTO_MAX_REALS)
        bad_request();
    call->n_reals = (int)n;
    for (uint32_t i = 0; i < n; i++)
        rd(&call->reals[i], sizeof(double));
    n = rd_u32();
    if (n > PROTO_MAX_BUFS)
        bad_request();
    call->n_bufs = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        proto_buf *b = &call->bufs[i];
        uint32_t kind = rd_u32(), role = rd_u32();
        uint64_t count = rd_u64();
        size_t es = kind_size(kind);
        if (es == 0 || role < PROTO_IN || role > PROTO_INOUT || count > (uint64_t)PROTO_MAX_ELEMS)
            bad_request();
        b->kind = (proto_kind)kind;
        b->role = (proto_role)role;
        b->count = count;
        size_t bytes = (size_t)count * es;
        b->data = guarded(bytes, (int)i);
        if (role == PROTO_IN || role == PROTO_INOUT) {
            rd(b->data, bytes);
        } else if (kind == PROTO_F32) {
            /* an element the student never writes comes back as it was
               filled, and shows (protocol.h) */
            float *f = b->data;
            for (uint64_t k = 0; k < count; k++)
                f[k] = proto_out_fill(k);
        } else {
            memset(b->data, 0x5A, bytes);
        }
    }
    if (rd_u32() != PROTO_END_MAGIC)
        bad_request();
    /* exactly the end: one more byte is a malformed request */
    unsigned char extra;
    ssize_t got;
    do {
        got = read(PROTO_FD_REQUEST, &extra, 1);
    } while (got < 0 && errno == EINTR);
    if (got != 0)
        bad_request();
}

int64_t child_elems(int64_t a, int64_t b, int64_t c)
{
    return (a > 0 ? a : 0) * (b > 0 ? b : 0) * (c > 0 ? c : 0);
}

int child_holds(const proto_buf *b, int64_t n)
{
    return (int64_t)b->count >= (n > 0 ? n : 0);
}

int child_call_shape(const proto_call *call, int n_ints, int n_reals, const char *kinds)
{
    if (!call || !kinds || call->n_ints != n_ints || call->n_reals != n_reals)
        return 0;
    size_t nk = strlen(kinds);
    if (nk != (size_t)call->n_bufs)
        return 0;
    for (size_t i = 0; i < nk; i++) {
        proto_kind want;
        switch (kinds[i]) {
        case 'f': want = PROTO_F32; break;
        case 'i': want = PROTO_I32; break;
        case 'u': want = PROTO_U8; break;
        default:  return 0;
        }
        if (call->bufs[i].kind != want)
            return 0;
    }
    return 1;
}

/* ---- the response ----------------------------------------------------------------- */

static void write_all(struct iovec *iov, int n)
{
    while (n > 0) {
        ssize_t w = writev(PROTO_FD_RESPONSE, iov, n > IOV_MAX ? IOV_MAX : n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(PROTO_EXIT_BAD_REQUEST);   /* the parent went away: nothing to report to */
        size_t done = (size_t)w;
        while (n > 0 && done >= iov->iov_len) {
            done -= iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + done;
            iov->iov_len -= done;
        }
    }
}

static void write_response(const proto_call *call, int32_t status)
{
    static uint32_t head[3], tail;
    static uint64_t counts[PROTO_MAX_BUFS];
    struct iovec iov[2 + 2 * PROTO_MAX_BUFS + 1];
    int n = 0;
    uint32_t nout = 0;
    for (int i = 0; i < call->n_bufs; i++)
        nout += call->bufs[i].role != PROTO_IN;
    head[0] = PROTO_RESPONSE_MAGIC;
    memcpy(&head[1], &status, sizeof status);
    head[2] = nout;
    iov[n++] = (struct iovec){head, sizeof head};
    for (int i = 0; i < call->n_bufs; i++) {
        const proto_buf *b = &call->bufs[i];
        if (b->role == PROTO_IN)
            continue;
        counts[i] = b->count;
        iov[n++] = (struct iovec){&counts[i], sizeof counts[i]};
        size_t bytes = (size_t)b->count * kind_size(b->kind);
        if (bytes)
            iov[n++] = (struct iovec){b->data, bytes};
    }
    tail = PROTO_END_MAGIC;
    iov[n++] = (struct iovec){&tail, sizeof tail};
    write_all(iov, n);
}

/* ---- leaks: scratch memory still held when the call returns ---------------------
 * Every lab's contract says scratch memory is freed before returning. A tracked
 * block allocated during the call and still live after it breaks that rule;
 * its requested bytes and the block count go back to the parent in a leak
 * record on the response pipe (protocol.h), which names the verdict. Blocks
 * from before the call (a constructor's) are the student's business. stdout
 * gets a static buffer before the call, so printing allocates nothing. */
static void leak_report(void)
{
    uint64_t rec_bytes = 0, rec_blocks = 0;
    for (size_t i = 0; i < CANARY_SLOTS; i++)
        if (canary_tab[i].p && canary_tab[i].in_call) {
            rec_bytes += canary_tab[i].n;
            rec_blocks++;
        }
    if (rec_blocks == 0)
        return;
    static uint32_t head, tail;
    static uint64_t body[2];
    head = PROTO_LEAK_MAGIC;
    body[0] = rec_bytes;
    body[1] = rec_blocks;
    tail = PROTO_END_MAGIC;
    struct iovec iov[3] = {{&head, sizeof head}, {body, sizeof body}, {&tail, sizeof tail}};
    fflush(NULL);
    write_all(iov, 3);
    _exit(PROTO_EXIT_LEAKED);
}

int main(void)
{
    static proto_call call;
    read_request(&call);

    /* printing during the call must not look like a leak: stdout's buffer is
       static (stderr is unbuffered) */
    static char out_buf[BUFSIZ];
    setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);

    int no_such_call = 0;
    in_call = 1;
    int32_t status = child_dispatch(&call, &no_such_call);
    in_call = 0;
    if (no_such_call)
        _exit(PROTO_EXIT_NO_SUCH_CALL);
    if (heap_over)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);
    check_below(&call);
    canary_check_all();
    leak_report();

    /* whatever the student printed goes out before the answer (it is only ever
       shown as an excerpt; nothing in it is parsed) */
    fflush(NULL);
    write_response(&call, status);
    _exit(PROTO_EXIT_OK);
}
