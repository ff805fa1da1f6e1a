/* child_main.c: the child's side of one test call, linked into every test
 * executable (with the student's object, the lab's dispatch and the support
 * RNG/tensor code; never libattn).
 *
 * What it does, in order:
 *   before main   (.preinit_array, so before any constructor of the student's)
 *                 record the stack bounds, install the fault handler on an
 *                 alternate stack, read the heap limit, and stack one more
 *                 seccomp filter that forbids execve/execveat from now on;
 *   main          say it is ready on fd 4, read the request from fd 3
 *                 strictly, place every buffer where protocol.h says (its
 *                 data ends exactly at a PROT_NONE guard page, so one element
 *                 past the end faults; the slack below the data holds a
 *                 canary), call child_dispatch, write the response on fd 4 in
 *                 one writev loop, and stop itself (SIGSTOP): the parent then
 *                 judges leaks, heap overflows and writes below the buffers
 *                 from outside (protocol.h), and kills it.
 *
 * Memory: the student's object is linked with --wrap=malloc,calloc,realloc,
 * free,aligned_alloc,posix_memalign, so every allocation comes through the
 * __wrap_ functions below, which give each block a mapping of its own in the
 * heap region, and count live bytes (plus the student's static data, passed in
 * by the build as the absolute symbol child_student_static_bytes) against
 * ATTNLAB_HEAP_LIMIT. Going over returns NULL and raises a flag; a crash or a
 * return with the flag raised exits PROTO_EXIT_OUT_OF_MEMORY. The count lives
 * in the student's memory, so it only names the verdict precisely for code
 * that plays fair: the limit itself is the kernel's (the sandbox's
 * RLIMIT_DATA), and a refused mapping raises the flag too.
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

void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

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
static size_t heap_live;                 /* requested bytes of live blocks + static data */
static size_t page;                      /* the page size */
static int heap_ready;
static volatile sig_atomic_t heap_over;  /* an allocation was refused */
static volatile sig_atomic_t blocks_over; /* ... for more than PROTO_MAX_BLOCKS blocks */

/* Parse ATTNLAB_HEAP_LIMIT once. Lazy, because allocations can happen before
   main (the C library's start-up, constructors); the .preinit_array hook
   calls it first anyway. */
static void heap_init(void)
{
    if (heap_ready)
        return;
    heap_ready = 1;
    page = (size_t)sysconf(_SC_PAGESIZE);
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
    if (heap_live > heap_limit || n > heap_limit - heap_live || n > PROTO_HEAP_BYTES / 2) {
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

/* ---- the heap: every block a mapping of its own ---------------------------------
 * Each block is placed in the heap region as protocol.h says, so that what is
 * allocated is the kernel's record, not ours: after the call the parent reads
 * the child's mappings (/proc/PID/maps). A block's data ends exactly where
 * its mapping does, so any read or write past its last byte faults on the
 * unmapped page after it, in a freed block or a live one: the kernel judges
 * it, not a canary in the student's memory. The only way to make a block
 * leave the kernel's record is to unmap it, which is to free it. Nothing here
 * decides a verdict but the count of live blocks and bytes, which only names
 * "out of memory" and "too many blocks" precisely for code that plays fair
 * (the kernel's RLIMIT_DATA and map count hold for the rest). */
#define MALLOC_FILL 0xFF                 /* every float and double of it a NaN */

/* The 8 bytes below block p's data (mapped at `at`): two huge finite floats,
   or one double, that differ from block to block (proto_slack_byte), so a
   value read below a block poisons what it touches, and the same read below
   two blocks (O_post[-1] - O_pre[-1]) does not cancel out. */
static unsigned char below_byte(uintptr_t at, size_t k)
{
    return proto_slack_byte((int)(at >> 12 & 0x7FFF) + PROTO_MAX_BUFS, k);
}
static uintptr_t heap_next = PROTO_HEAP_REGION;   /* the bump pointer: no address used twice */
static unsigned live_blocks;
static int in_call;                      /* the student's function is running */

/* A fresh mapping of span bytes whose first page index is code modulo
   PROTO_BLOCK_CODES, after an unmapped page; 0 when none can be had. Once
   round the region, a place may be taken by a block still live: then the
   next place is tried. */
static uintptr_t block_map(size_t span, size_t code)
{
    const uintptr_t mod = PROTO_BLOCK_CODES(page), end = PROTO_HEAP_REGION + PROTO_HEAP_BYTES;
    for (int tries = 0; tries < 4 * PROTO_MAX_BLOCKS; tries++) {
        uintptr_t first = heap_next / page;
        first += (code + mod - first % mod) % mod;
        uintptr_t at = first * page;
        if (at + span + page > end) {
            heap_next = PROTO_HEAP_REGION;   /* round again: freed blocks left room */
            continue;
        }
        heap_next = at + span + page;        /* the page after the block stays unmapped */
        void *m = mmap((void *)at, span, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (m == (void *)at)
            return at;
        if (m != MAP_FAILED)
            munmap(m, span);                 /* a kernel without MAP_FIXED_NOREPLACE */
        else if (errno != EEXIST)
            return 0;
    }
    return 0;
}

/* A new block of n bytes (zeros), or NULL with the reason flagged. */
static void *block_new(size_t n)
{
    if (!heap_allow(n)) {
        errno = ENOMEM;
        return NULL;
    }
    if (live_blocks >= PROTO_MAX_BLOCKS) {
        blocks_over = 1;
        errno = ENOMEM;
        return NULL;
    }
    size_t span = proto_block_span(n, page);
    uintptr_t at = block_map(span, proto_block_code(n, page));
    if (!at) {
        heap_over = 1;                   /* the kernel refused: RLIMIT_DATA or the map count */
        errno = ENOMEM;
        return NULL;
    }
    unsigned char *p = (unsigned char *)at + span - n;   /* the last byte against the end */
    memcpy(p - 16, &n, sizeof n);        /* for free and realloc */
    for (size_t k = 0; k < 8; k++)       /* x[-1] read from scratch poisons what it touches */
        (p - 8)[k] = below_byte(at, k);
    live_blocks++;
    heap_live += n;
    return p;
}

static int in_heap(const void *p)
{
    return (uintptr_t)p > PROTO_HEAP_REGION && (uintptr_t)p <= PROTO_HEAP_REGION + PROTO_HEAP_BYTES;
}

/* The requested size of block p, as its header says. */
static size_t block_n(const void *p)
{
    size_t n;
    memcpy(&n, (const unsigned char *)p - 16, sizeof n);
    return n;
}

static void block_free(void *p)
{
    size_t n = block_n(p);
    uintptr_t start = ((uintptr_t)p - 16) / page * page;
    size_t span = proto_block_span(n, page);
    if (n > PROTO_HEAP_BYTES || (uintptr_t)p != start + span - n) {
        static const char msg[] = "free(): a pointer malloc did not return (or its block's header overwritten)\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        abort();
    }
    for (size_t k = 0; k < 8; k++)
        if (((unsigned char *)p - 8)[k] != below_byte(start, k)) {
            /* seen in the student's memory only: said, never graded */
            static const char msg[] = "note: a write just below a malloc'd block, found when it "
                                      "was freed (not graded: fix it all the same)\n";
            ssize_t w = write(2, msg, sizeof msg - 1);
            (void)w;
            break;
        }
    munmap((void *)start, span);
    live_blocks -= live_blocks > 0;
    heap_live = heap_live > n ? heap_live - n : 0;
}

void *__wrap_malloc(size_t n)
{
    void *p = block_new(n);
    if (p && in_call)
        memset(p, MALLOC_FILL, n);       /* what malloc gives is not zeros: a missing first value shows */
    return p;
}

void *__wrap_calloc(size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) {
        heap_over = 1;
        errno = ENOMEM;
        return NULL;
    }
    return block_new(n);                 /* fresh pages are zeros */
}

void *__wrap_realloc(void *p, size_t n)
{
    if (!p)
        return __wrap_malloc(n);
    if (!in_heap(p))
        return __real_realloc(p, n);     /* the C library's own, from before the heap region */
    if (n == 0) {
        block_free(p);                   /* realloc(p, 0) frees p, as glibc's does */
        return NULL;
    }
    size_t was = block_n(p);
    heap_live = heap_live > was ? heap_live - was : 0;   /* the old block's bytes are reused */
    void *q = __wrap_malloc(n);
    heap_live += was;
    if (q) {
        memcpy(q, p, was < n ? was : n);
        block_free(p);
    }
    return q;
}

void __wrap_free(void *p)
{
    if (in_heap(p))
        block_free(p);
    else if (p)
        __real_free(p);
}

/* A block's data ends at a page boundary, so it starts aligned to the
   largest power of two dividing its size: an alignment (up to a page) is had
   by asking for a size that is its multiple. */
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    if (align == 0 || (align & (align - 1)) || align > page) {
        errno = EINVAL;
        return NULL;
    }
    size_t m = (n + align - 1) / align * align;
    return __wrap_malloc(m < n ? n : m);
}

int __wrap_posix_memalign(void **pp, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)) || align > page)
        return EINVAL;
    void *p = __wrap_aligned_alloc(align, n);
    if (!p)
        return ENOMEM;
    *pp = p;
    return 0;
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
    if (blocks_over)
        _exit(PROTO_EXIT_TOO_MANY_BLOCKS); /* most likely a NULL from a refused malloc */
    if (heap_over)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);
    if ((sig == SIGSEGV || sig == SIGBUS) && is_stack_overflow((uintptr_t)si->si_addr, fault_sp(uc)))
        _exit(PROTO_EXIT_STACK_OVERFLOW);
    uintptr_t a = (uintptr_t)si->si_addr;
    if (sig == SIGSEGV && a >= PROTO_HEAP_REGION && a < PROTO_HEAP_REGION + PROTO_HEAP_BYTES) {
        /* what the crash was, for the feedback: the verdict is the signal's */
        static const char msg[] = "heap overflow: a read or write past the end of a malloc'd "
                                  "block (or of one already freed)\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
    }
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

/* The buffers' pages, at the addresses protocol.h gives (proto_buf_next), so
   the parent checks the slack below each buffer's data itself, after the
   call: the data ends exactly at a PROT_NONE page and starts after another
   one, so writing one element past the end (or a page before the start)
   faults instead of silently landing in something else; the slack below the
   data holds proto_slack_byte's pattern for buffer buf. */
static uintptr_t buf_cursor = PROTO_BUF_REGION;

static void *map_at(uintptr_t at, size_t bytes, int prot)
{
    void *m = mmap((void *)at, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m != (void *)at)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);
    return m;
}

static void *guarded(size_t bytes, int buf)
{
    if (buf_cursor == PROTO_BUF_REGION)
        map_at(buf_cursor, page, PROT_NONE);           /* the first buffer's lower guard */
    uintptr_t lo = buf_cursor + page;
    unsigned char *data = (unsigned char *)proto_buf_next(&buf_cursor, bytes, page);
    if (buf_cursor > lo)
        map_at(lo, buf_cursor - lo, PROT_READ | PROT_WRITE);
    map_at(buf_cursor, page, PROT_NONE);               /* the upper guard, the next one's lower */
    for (unsigned char *q = (unsigned char *)lo; q < data; q++)   /* checked by the parent */
        *q = proto_slack_byte(buf, (size_t)(q - (unsigned char *)lo));
    return data;
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

int main(void)
{
    /* constructors have run: what is allocated now is not the call's */
    static uint32_t ready = PROTO_READY_MAGIC;
    struct iovec hello = {&ready, sizeof ready};
    write_all(&hello, 1);

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
    if (blocks_over)
        _exit(PROTO_EXIT_TOO_MANY_BLOCKS);
    if (heap_over)
        _exit(PROTO_EXIT_OUT_OF_MEMORY);

    /* whatever the student printed goes out before the answer (it is only ever
       shown as an excerpt; nothing in it is parsed) */
    fflush(NULL);
    write_response(&call, status);
    /* the parent judges what the call left in memory (protocol.h), then ends us */
    raise(SIGSTOP);
    _exit(PROTO_EXIT_OK);
}
