/* objcheck.c: the ELF checks on a student's object and test program (see objcheck.h). */
#include "confined/objcheck.h"
#include "confined/scan.h"
#include "base/util.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ELF_BYTES ((size_t)256 << 20)

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int in_list(char *const *list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

/* The whole of a regular file (no link followed), at most MAX_ELF_BYTES. */
static unsigned char *read_elf(const char *path, size_t *len)
{
    char why[64];
    char *text = NULL;
    return gr_read_regular(path, MAX_ELF_BYTES, &text, len, why, sizeof why) == 0
        ? (unsigned char *)text : NULL;
}

/* The first section whose name plain C does not make, or NULL. */
static char *foreign_section(const unsigned char *f, size_t len, const Elf64_Ehdr *eh,
                             const Elf64_Shdr *sh)
{
    if (eh->e_shstrndx == SHN_UNDEF || eh->e_shstrndx >= eh->e_shnum)
        return gr_xstrdup("(no section names)");
    const Elf64_Shdr *ss = &sh[eh->e_shstrndx];
    if (ss->sh_offset > len || ss->sh_size > len - ss->sh_offset || ss->sh_size == 0 ||
        f[ss->sh_offset + ss->sh_size - 1] != '\0')
        return gr_xstrdup("(unreadable section names)");
    const char *names = (const char *)f + ss->sh_offset;
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name >= ss->sh_size)
            return gr_xstrdup("(unreadable section name)");
        if (!gr_scan_section_allowed(names + sh[i].sh_name))
            return gr_xstrdup(names + sh[i].sh_name);
    }
    return NULL;
}

void gr_objcheck_free(gr_obj_facts *o)
{
    for (int i = 0; i < o->n_undef; i++)
        free(o->undef[i]);
    free(o->undef);
    free(o->ifunc);
    free(o->bad_section);
    memset(o, 0, sizeof *o);
}

int gr_objcheck_read(const char *path, gr_obj_facts *o)
{
    memset(o, 0, sizeof *o);
    size_t len;
    unsigned char *f = read_elf(path, &len);
    if (!f)
        return -1;
    int rc = -1;
    Elf64_Ehdr eh;
    if (len < sizeof eh)
        goto out;
    memcpy(&eh, f, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_type != ET_REL || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > len ||
        (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > len - eh.e_shoff)
        goto out;
    Elf64_Shdr *sh = gr_xmalloc((size_t)eh.e_shnum * sizeof *sh + 1);
    memcpy(sh, f + eh.e_shoff, (size_t)eh.e_shnum * sizeof *sh);
    o->bad_section = foreign_section(f, len, &eh, sh);
    for (int i = 0; i < eh.e_shnum; i++)
        if (sh[i].sh_flags & SHF_ALLOC)
            o->static_bytes += sh[i].sh_size;
    for (int i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        if (sh[i].sh_link >= eh.e_shnum || sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset ||
            sh[i].sh_entsize != sizeof(Elf64_Sym))
            goto bad;
        const Elf64_Shdr *st = &sh[sh[i].sh_link];
        if (st->sh_offset > len || st->sh_size > len - st->sh_offset || st->sh_size == 0)
            goto bad;
        const char *strtab = (const char *)f + st->sh_offset;
        if (strtab[st->sh_size - 1] != '\0')
            goto bad;
        size_t nsym = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t k = 1; k < nsym; k++) {
            Elf64_Sym sym;
            memcpy(&sym, f + sh[i].sh_offset + k * sizeof sym, sizeof sym);
            if (sym.st_name >= st->sh_size)
                goto bad;
            const char *name = strtab + sym.st_name;
            int bind = ELF64_ST_BIND(sym.st_info), type = ELF64_ST_TYPE(sym.st_info);
            if (type == STT_GNU_IFUNC && !o->ifunc)
                o->ifunc = gr_xstrdup(*name ? name : "(unnamed)");
            if (sym.st_shndx == SHN_COMMON)
                o->static_bytes += sym.st_size;
            if (sym.st_shndx == SHN_UNDEF && *name && (bind == STB_GLOBAL || bind == STB_WEAK)) {
                o->undef = gr_xrealloc(o->undef, (size_t)(o->n_undef + 1) * sizeof *o->undef);
                o->undef[o->n_undef++] = gr_xstrdup(name);
            }
        }
    }
    rc = 0;
bad:
    free(sh);
out:
    free(f);
    if (rc != 0)
        gr_objcheck_free(o);
    return rc;
}

/* Arithmetic helpers of libgcc the compiler calls on its own (128-bit division,
   complex multiplication, float conversions ...). They make no system calls. */
static const char *const libgcc_prefixes[] = {
    "__mul", "__div", "__udiv", "__mod", "__umod", "__pow", "__fix", "__float", "__neg",
    "__add", "__sub", "__cmp", "__ucmp", "__ash", "__lsh", "__clz", "__ctz", "__ffs",
    "__popcount", "__parity", "__bswap", "__extend", "__trunc", "__eq", "__ne", "__ge",
    "__gt", "__le", "__lt", "__unord", NULL
};

static int rubric_allows(const gr_rubric *r, const char *name)
{
    return in_list(r->allowed_symbols, r->n_symbols, name);
}

/* Names the compiler writes for the student (fortified or C99 variants, calls
   it substitutes) count as the function the student wrote. */
int gr_objcheck_symbol_allowed(const gr_rubric *r, const char *sym)
{
    if (starts_with(sym, "lab_"))
        return 1;                         /* the lab's own functions: the link decides */
    /* what the compiler emits on its own (struct copies, zeroing loops) and the
       streams printf's substitutes name; the support code is in the rubric */
    if (!strcmp(sym, "memcpy") || !strcmp(sym, "memset") || !strcmp(sym, "memmove") ||
        !strcmp(sym, "stdout") || !strcmp(sym, "stderr") || !strcmp(sym, "_GLOBAL_OFFSET_TABLE_"))
        return 1;
    if (rubric_allows(r, sym))
        return 1;
    for (int i = 0; libgcc_prefixes[i]; i++)
        if (starts_with(sym, libgcc_prefixes[i]) && isdigit((unsigned char)sym[strlen(sym) - 1]))
            return 1;

    char base[128];
    size_t n = strlen(sym);
    /* __printf_chk -> printf (fortified builds), __isoc99_sscanf -> sscanf */
    if (n > 6 && n < sizeof base && starts_with(sym, "__") && !strcmp(sym + n - 4, "_chk")) {
        memcpy(base, sym + 2, n - 6);
        base[n - 6] = '\0';
        return gr_objcheck_symbol_allowed(r, base);
    }
    if (starts_with(sym, "__isoc99_") || starts_with(sym, "__isoc23_"))
        return gr_objcheck_symbol_allowed(r, sym + 9);
    if (!strcmp(sym, "__errno_location"))
        return rubric_allows(r, "errno");

    /* calls the compiler substitutes for the one written */
    if ((!strcmp(sym, "puts") || !strcmp(sym, "putchar")) && rubric_allows(r, "printf"))
        return 1;
    if (!strcmp(sym, "putc") && rubric_allows(r, "putchar"))
        return 1;                         /* putchar(c) of a variable c becomes putc(c, stdout) */
    if ((!strcmp(sym, "fputs") || !strcmp(sym, "fputc") || !strcmp(sym, "putc") ||
         !strcmp(sym, "fwrite")) && rubric_allows(r, "fprintf"))
        return 1;
    if (!strcmp(sym, "calloc") && rubric_allows(r, "malloc"))
        return 1;                         /* malloc + memset becomes calloc */
    if (!strcmp(sym, "sincos") && rubric_allows(r, "sin") && rubric_allows(r, "cos"))
        return 1;
    if (!strcmp(sym, "sincosf") && rubric_allows(r, "sinf") && rubric_allows(r, "cosf"))
        return 1;
    if ((!strcmp(sym, "strcpy") || !strcmp(sym, "stpcpy")) && rubric_allows(r, "sprintf"))
        return 1;
    return 0;
}

static int name_in(const char *name, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

const char *gr_objcheck_symbol_reason(const char *sym)
{
    static const char *const files[] = {
        "fopen", "fopen64", "freopen", "fdopen", "fclose", "fread", "fgets", "fgetc", "getc",
        "fscanf", "open", "open64", "openat", "creat", "read", "write", "close", "remove",
        "rename", "unlink", "mkdir", "rmdir", "opendir", "readdir", "stat", "lstat", "fstat",
        "access", "tmpfile", "tmpnam", "mkstemp", "chdir", "chmod", "truncate", "ftruncate",
        "dlopen", "getenv", "secure_getenv", NULL
    };
    static const char *const procs[] = {
        "fork", "vfork", "system", "popen", "pclose", "execl", "execle", "execlp", "execv",
        "execve", "execvp", "execvpe", "fexecve", "posix_spawn", "posix_spawnp", "clone",
        "daemon", "wait", "waitpid", "kill", "pthread_create", "thrd_create", "atexit",
        "at_quick_exit", "exit", "_exit", "_Exit", "quick_exit", "abort", "signal",
        "sigaction", "raise", "sleep", "usleep", "nanosleep", "alarm", NULL
    };
    static const char *const net[] = {
        "socket", "connect", "bind", "listen", "accept", "send", "sendto", "sendmsg", "recv",
        "recvfrom", "recvmsg", "getaddrinfo", "gethostbyname", NULL
    };
    static const char *const raw[] = {
        "syscall", "ioctl", "prctl", "ptrace", "mmap", "munmap", "mprotect", "sbrk", "brk",
        "seccomp", "setrlimit", "prlimit", NULL
    };
    if (starts_with(sym, "sup_yaml_"))
        return "the YAML support code is not linked into graded code: the grader's sandbox "
               "allows no file access";
    if (name_in(sym, files))
        return "the grader's sandbox allows no file access";
    if (name_in(sym, procs))
        return "the grader's sandbox allows no new processes, signals, sleeping or leaving early";
    if (name_in(sym, net))
        return "the grader's sandbox allows no network";
    if (name_in(sym, raw))
        return "the grader's sandbox allows no direct system calls or memory mapping";
    return NULL;
}
/* Functions no lab needs and that would let code reach the kernel without the
   checks above (raw system calls, new programs or processes, loading code): a
   test program holding one is refused. None is in a clean link: the test child and
   the C library's parts the labs use do not call them. An early, clear message,
   not the wall: the seccomp allow-list holds the system calls themselves
   (objcheck.h). */
static const char *const escape_hatches[] = {
    "syscall", "execve", "execveat", "fexecve", "execv", "execvp", "execvpe", "execl", "execlp",
    "execle", "fork", "vfork", "clone", "clone3", "system", "popen", "posix_spawn", "posix_spawnp",
    "ptrace", "kill", "pidfd_send_signal", "mount", "unshare", NULL
};   /* not dlopen: static glibc always holds it (for iconv), and no file can be opened */

/* The first global or weak function of escape_hatches the program defines, or
   NULL; "" when its symbol table cannot be read. */
static const char *hatch_in(const unsigned char *f, size_t len, const Elf64_Ehdr *eh)
{
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
        (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff)
        return "";
    for (int i = 0; i < eh->e_shnum; i++) {
        Elf64_Shdr sh, st;
        memcpy(&sh, f + eh->e_shoff + (size_t)i * sizeof sh, sizeof sh);
        if (sh.sh_type != SHT_SYMTAB)
            continue;
        if (sh.sh_link >= eh->e_shnum || sh.sh_offset > len || sh.sh_size > len - sh.sh_offset ||
            sh.sh_entsize != sizeof(Elf64_Sym))
            return "";
        memcpy(&st, f + eh->e_shoff + (size_t)sh.sh_link * sizeof st, sizeof st);
        if (st.sh_offset > len || st.sh_size > len - st.sh_offset || st.sh_size == 0 ||
            f[st.sh_offset + st.sh_size - 1] != '\0')
            return "";
        const char *strtab = (const char *)f + st.sh_offset;
        for (size_t k = 1; k < sh.sh_size / sizeof(Elf64_Sym); k++) {
            Elf64_Sym sym;
            memcpy(&sym, f + sh.sh_offset + k * sizeof sym, sizeof sym);
            int bind = ELF64_ST_BIND(sym.st_info);
            if (sym.st_name >= st.sh_size || sym.st_shndx == SHN_UNDEF ||
                ELF64_ST_TYPE(sym.st_info) != STT_FUNC || (bind != STB_GLOBAL && bind != STB_WEAK))
                continue;
            for (int h = 0; escape_hatches[h]; h++)
                if (strcmp(strtab + sym.st_name, escape_hatches[h]) == 0)
                    return escape_hatches[h];
        }
    }
    return NULL;
}

/* One program header's verdict: 0, or -1 with why (an interpreter, dynamic
   linking, an executable stack or writable code). */
static int check_segment(const Elf64_Phdr *ph, char *why, size_t whylen)
{
    if (ph->p_type == PT_INTERP || ph->p_type == PT_DYNAMIC) {
        snprintf(why, whylen, "the linked test program asks for %s",
                 ph->p_type == PT_INTERP ? "a program interpreter" : "dynamic linking");
        return -1;
    }
    if (ph->p_type == PT_GNU_STACK && (ph->p_flags & PF_X)) {
        snprintf(why, whylen, "the linked test program asks for an executable stack (a nested "
                 "function whose address is taken makes one: write an ordinary function)");
        return -1;
    }
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && (ph->p_flags & PF_W)) {
        snprintf(why, whylen, "the linked test program has memory both writable and executable");
        return -1;
    }
    return 0;
}

int gr_objcheck_exe(const char *path, unsigned long long *writable, char *why, size_t whylen)
{
    size_t len;
    unsigned char *f = read_elf(path, &len);
    Elf64_Ehdr eh;
    int rc = -1, stack_seen = 0;
    *writable = 0;
    if (!f || len < sizeof eh) {
        snprintf(why, whylen, "the linked test program cannot be read");
        goto out;
    }
    memcpy(&eh, f, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_type != ET_EXEC || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phoff > len ||
        (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr) > len - eh.e_phoff) {
        snprintf(why, whylen, "the linked test program is not a static ELF64 executable");
        goto out;
    }
    const uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < eh.e_phnum; i++) {
        Elf64_Phdr ph;
        memcpy(&ph, f + eh.e_phoff + (size_t)i * sizeof ph, sizeof ph);
        if (check_segment(&ph, why, whylen) != 0)
            goto out;
        stack_seen |= ph.p_type == PT_GNU_STACK;
        /* what the kernel maps for it (and RLIMIT_DATA counts), padding included,
           and its thread-local data, which static glibc takes with sbrk before
           main (a refusal there exits 127 before any of the test child runs) */
        if (((ph.p_type == PT_LOAD && (ph.p_flags & PF_W)) || ph.p_type == PT_TLS) &&
            ph.p_memsz < ((uint64_t)1 << 46))
            *writable += (ph.p_memsz + ph.p_vaddr % pg + pg - 1) / pg * pg;
    }
    if (!stack_seen) {
        snprintf(why, whylen, "the linked test program does not say its stack is not executable");
        goto out;
    }
    const char *hatch = hatch_in(f, len, &eh);
    if (hatch && *hatch) {
        snprintf(why, whylen, "the linked test program holds %s(), which graded code may not "
                 "reach", hatch);
        goto out;
    }
    if (hatch) {
        snprintf(why, whylen, "the linked test program's symbol table cannot be read");
        goto out;
    }
    rc = 0;
out:
    free(f);
    return rc;
}
