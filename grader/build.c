/* build.c: turn one student source file into a sandboxable test executable
 * (see build.h for the steps and their verdicts).
 *
 * Everything happens in a private directory under paths->work_dir:
 *
 *   labNN.c          a copy of the student's file, alone (nothing else of theirs
 *                    is reachable by #include "...")
 *   inc/labNN.h      pristine copies of the contract header and labsup.h
 *   inc/labsup.h
 *   labNN.i          the preprocessed source, checked for inline assembly
 *   labNN.o          the compiled object, checked for external symbols
 *   labNN.local.o    the same object with every global but lab_* made local,
 *                    so student code cannot replace a C library or stub function
 *                    (getenv, malloc_usable_size, write ...) that the stub relies on
 *   labNN-test       the static test executable
 *
 * The rules are checked on what the compiler sees, not on what the text looks
 * like: #include lines are read after trigraphs, line splices and comments are
 * handled, and cross-checked against the preprocessor's own record; symbols are
 * read from the object's ELF symbol table. Tools run by fork/exec, never through
 * a shell, with a time limit (tool.h) and their output trimmed for a person to read.
 */
#include "build.h"
#include "tool.h"
#include "util.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOOL_SECONDS     60                  /* each compiler or linker run */
#define TOOL_LOG_BYTES   (64 * 1024)         /* output kept from a tool */
#define LOG_LINES        20                  /* a trimmed log: at most this many lines */
#define LOG_BYTES        2048                /* ... and this many bytes */
#define MAX_SOURCE_BYTES (4L * 1024 * 1024)  /* a lab file is a few hundred lines */

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* ---- trimming a log for a person ------------------------------------------------ */

static void replace_all(gr_strbuf *out, const char *s, const char *from, const char *to)
{
    size_t fl = strlen(from);
    for (;;) {
        const char *hit = fl ? strstr(s, from) : NULL;
        if (!hit) {
            gr_sb_append(out, s);
            return;
        }
        gr_sb_appendn(out, s, (size_t)(hit - s));
        gr_sb_append(out, to);
        s = hit + fl;
    }
}

/* The first LOG_LINES lines / LOG_BYTES bytes of log, with the private paths
   rewritten to the names the student knows. NULL when log is empty. */
static char *trim_log(const char *log, const char *priv, const char *stub_dir)
{
    if (!log || !*log)
        return NULL;
    char *pinc = gr_xasprintf("%s/inc/", priv);
    char *pdir = gr_xasprintf("%s/", priv);
    char *sdir = gr_xasprintf("%s/", stub_dir ? stub_dir : "");
    gr_strbuf a = {0}, b = {0}, c = {0};
    replace_all(&a, log, pinc, "");
    replace_all(&b, a.s ? a.s : "", pdir, "");
    replace_all(&c, b.s ? b.s : "", sdir, "");
    char *text = gr_sb_take(&c);
    free(a.s);
    free(b.s);
    free(pinc);
    free(pdir);
    free(sdir);

    /* whole lines only, up to LOG_LINES of them and LOG_BYTES in all */
    gr_strbuf out = {0};
    const char *s = text;
    int shown = 0, total = 0;
    for (const char *t = text; *t; t++)
        total += *t == '\n' || t[1] == '\0';
    while (*s && shown < LOG_LINES) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
        if (out.len + n > LOG_BYTES && shown > 0)
            break;
        if (out.len + n > LOG_BYTES)
            n = LOG_BYTES - out.len;          /* one enormous first line: cut it */
        gr_sb_appendn(&out, s, n);
        if (out.s[out.len - 1] != '\n')
            gr_sb_append(&out, "\n");
        shown++;
        s += nl ? (size_t)(nl - s) + 1 : strlen(s);
    }
    if (total > shown)
        gr_sb_printf(&out, "... (%d more line%s)\n", total - shown, total - shown == 1 ? "" : "s");
    free(text);
    return gr_sb_take(&out);
}

/* ---- step 1: #include lines ----------------------------------------------------------- */

typedef struct src_char {
    char c;
    int line;          /* 1-based line in the student's file */
} src_char;

typedef struct src_text {
    src_char *v;
    size_t n;
} src_text;

static void push(src_text *t, char c, int line)
{
    t->v[t->n].c = c;
    t->v[t->n].line = line;
    t->n++;
}

/* Translation phases 1 and 2, as the compiler runs them in C11 mode: trigraphs
   (??= is #), then backslash-newline splices (GCC also splices when spaces come
   between the backslash and the newline). */
static src_text phases_1_2(const char *s, size_t len)
{
    src_text t1 = {gr_xmalloc((len + 1) * sizeof(src_char)), 0};
    int line = 1;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c == '?' && i + 2 < len && s[i + 1] == '?') {
            const char *from = "=()/'<>!-", *to = "#[]\\^{}|~";
            const char *hit = s[i + 2] ? strchr(from, s[i + 2]) : NULL;
            if (hit) {
                push(&t1, to[hit - from], line);
                i += 2;
                continue;
            }
        }
        push(&t1, c, line);
        if (c == '\n')
            line++;
    }
    src_text t2 = {gr_xmalloc((t1.n + 1) * sizeof(src_char)), 0};
    for (size_t i = 0; i < t1.n; i++) {
        if (t1.v[i].c == '\\') {
            size_t j = i + 1;
            while (j < t1.n && (t1.v[j].c == ' ' || t1.v[j].c == '\t' || t1.v[j].c == '\r'))
                j++;
            if (j < t1.n && t1.v[j].c == '\n') {
                i = j;
                continue;
            }
        }
        t2.v[t2.n++] = t1.v[i];
    }
    free(t1.v);
    return t2;
}

/* Phase 3, as far as directives care: comments become one space (a block
   comment's newlines go with it, so a directive continues after it), string
   and character literals are kept whole (a quote or comment marker inside one
   means nothing), and an unterminated literal ends at the end of its line. */
static src_text strip_comments(const src_text *in)
{
    src_text out = {gr_xmalloc((in->n + 1) * sizeof(src_char)), 0};
    size_t i = 0;
    while (i < in->n) {
        char c = in->v[i].c;
        char d = i + 1 < in->n ? in->v[i + 1].c : '\0';
        if (c == '/' && d == '*') {
            int line = in->v[i].line;
            i += 2;
            while (i < in->n && !(in->v[i].c == '*' && i + 1 < in->n && in->v[i + 1].c == '/'))
                i++;
            i = i < in->n ? i + 2 : i;
            push(&out, ' ', line);
        } else if (c == '/' && d == '/') {
            while (i < in->n && in->v[i].c != '\n')
                i++;
            push(&out, ' ', in->v[i < in->n ? i : in->n - 1].line);
        } else if (c == '"' || c == '\'') {
            out.v[out.n++] = in->v[i++];
            while (i < in->n && in->v[i].c != c && in->v[i].c != '\n') {
                if (in->v[i].c == '\\' && i + 1 < in->n && in->v[i + 1].c != '\n')
                    out.v[out.n++] = in->v[i++];
                out.v[out.n++] = in->v[i++];
            }
            if (i < in->n && in->v[i].c == c)
                out.v[out.n++] = in->v[i++];
        } else {
            out.v[out.n++] = in->v[i++];
        }
    }
    return out;
}

typedef struct include_line {
    char *name;        /* as written between <> or "", or the rest of the line */
    int line;
    int computed;      /* #include MACRO: not checkable */
} include_line;

typedef struct directive_scan {
    include_line *inc;
    int n_inc;
    int line_directive;   /* line of a #line or "# 12 "file"" directive, or 0 */
} directive_scan;

static int is_hspace(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

/* Find every #include (and #include_next, #import) and any #line directive in
   the student's source, directive by directive as the preprocessor sees them. */
static void scan_directives(const char *src, size_t len, directive_scan *ds)
{
    memset(ds, 0, sizeof *ds);
    src_text t = phases_1_2(src, len);
    src_text u = strip_comments(&t);
    free(t.v);

    size_t i = 0;
    while (i < u.n) {
        size_t eol = i;
        while (eol < u.n && u.v[eol].c != '\n')
            eol++;
        int line = u.v[i].line;
        size_t k = i;
        while (k < eol && is_hspace(u.v[k].c))
            k++;
        int hash = 0;
        if (k < eol && u.v[k].c == '#') {
            hash = 1;
            k++;
        } else if (k + 1 < eol && u.v[k].c == '%' && u.v[k + 1].c == ':') {
            hash = 1;            /* the digraph %: is # */
            k += 2;
        }
        if (hash) {
            line = u.v[k - 1].line;
            while (k < eol && is_hspace(u.v[k].c))
                k++;
            char word[32];
            size_t w = 0;
            while (k < eol && (isalnum((unsigned char)u.v[k].c) || u.v[k].c == '_') && w + 1 < sizeof word)
                word[w++] = u.v[k++].c;
            word[w] = '\0';
            if (w > 0 && isdigit((unsigned char)word[0])) {
                if (!ds->line_directive)
                    ds->line_directive = line;
            } else if (strcmp(word, "line") == 0) {
                if (!ds->line_directive)
                    ds->line_directive = line;
            } else if (strcmp(word, "include") == 0 || strcmp(word, "include_next") == 0 ||
                       strcmp(word, "import") == 0) {
                while (k < eol && is_hspace(u.v[k].c))
                    k++;
                gr_strbuf name = {0};
                int computed = 1;
                if (k < eol && (u.v[k].c == '<' || u.v[k].c == '"')) {
                    char close = u.v[k].c == '<' ? '>' : '"';
                    size_t e = k + 1;
                    while (e < eol && u.v[e].c != close)
                        e++;
                    if (e < eol) {
                        computed = 0;
                        for (size_t q = k + 1; q < e; q++)
                            gr_sb_appendn(&name, &u.v[q].c, 1);
                    }
                }
                if (computed)
                    for (size_t q = k; q < eol && name.len < 80; q++)
                        gr_sb_appendn(&name, &u.v[q].c, 1);
                ds->inc = gr_xrealloc(ds->inc, (size_t)(ds->n_inc + 1) * sizeof *ds->inc);
                ds->inc[ds->n_inc].name = gr_sb_take(&name);
                ds->inc[ds->n_inc].line = line;
                ds->inc[ds->n_inc].computed = computed;
                ds->n_inc++;
            }
        }
        i = eol + 1;
    }
    free(u.v);
}

static void free_scan(directive_scan *ds)
{
    for (int i = 0; i < ds->n_inc; i++)
        free(ds->inc[i].name);
    free(ds->inc);
    memset(ds, 0, sizeof *ds);
}

static int in_list(char *const *list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

static void join_list(gr_strbuf *b, char *const *list, int n, const char *first, const char *second)
{
    gr_sb_printf(b, "%s, %s", first, second);
    for (int i = 0; i < n; i++)
        if (list[i] && strcmp(list[i], first) != 0 && strcmp(list[i], second) != 0)
            gr_sb_printf(b, ", %s", list[i]);
}

/* ---- step 2b: the preprocessed source ------------------------------------------------------ */

/* What the preprocessor's output says about the student's own lines: how many
   files they include directly, and the first use of inline assembly. */
typedef struct pp_facts {
    int direct_includes;
    int asm_line;          /* 0: none */
    char asm_word[16];
} pp_facts;

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void scan_preprocessed(const char *text, const char *source, pp_facts *pf)
{
    memset(pf, 0, sizeof *pf);
    char cur[PATH_MAX] = "";
    int line = 0;
    const char *s = text;
    while (*s) {
        const char *eol = strchr(s, '\n');
        size_t n = eol ? (size_t)(eol - s) : strlen(s);
        if (n > 1 && s[0] == '#' && s[1] == ' ' && isdigit((unsigned char)s[2])) {
            /* linemarker: # LINE "FILE" FLAGS */
            char *end;
            long ln = strtol(s + 2, &end, 10);
            const char *q = end;
            while (*q == ' ')
                q++;
            if (*q == '"') {
                const char *nameend = q + 1;
                while (nameend < s + n && *nameend != '"')
                    nameend++;
                char name[PATH_MAX];
                size_t nl = (size_t)(nameend - (q + 1));
                if (nl >= sizeof name)
                    nl = sizeof name - 1;
                memcpy(name, q + 1, nl);
                name[nl] = '\0';
                int entering = 0;
                for (const char *f = nameend + 1; f < s + n; f++)
                    if (f[0] == '1' && f[-1] == ' ' && (f + 1 == s + n || f[1] == ' '))
                        entering = 1;
                /* "<built-in>" and "<command-line>" are not files (clang enters
                   <built-in> from the main file before its first line) */
                if (entering && name[0] != '<' && strcmp(cur, source) == 0)
                    pf->direct_includes++;
                snprintf(cur, sizeof cur, "%s", name);
                line = (int)ln;
            }
        } else if (n > 0 && s[0] == '#') {
            line++;           /* #pragma and friends still take a line */
        } else {
            if (strcmp(cur, source) == 0 && !pf->asm_line) {
                /* look for asm keywords outside literals */
                for (size_t k = 0; k < n; k++) {
                    char c = s[k];
                    if (c == '"' || c == '\'') {
                        for (k++; k < n && s[k] != c; k++)
                            if (s[k] == '\\')
                                k++;
                        continue;
                    }
                    if (is_ident(c) && (k == 0 || !is_ident(s[k - 1]))) {
                        size_t e = k;
                        while (e < n && is_ident(s[e]))
                            e++;
                        size_t wl = e - k;
                        if ((wl == 3 && memcmp(s + k, "asm", 3) == 0) ||
                            (wl == 5 && memcmp(s + k, "__asm", 5) == 0) ||
                            (wl == 7 && memcmp(s + k, "__asm__", 7) == 0)) {
                            pf->asm_line = line;
                            memcpy(pf->asm_word, s + k, wl);
                            pf->asm_word[wl] = '\0';
                            break;
                        }
                        k = e - 1;
                    }
                }
            }
            line++;
        }
        s += n + (eol ? 1 : 0);
    }
}

/* ---- step 3: the object's symbols ---------------------------------------------------------- */

typedef struct obj_facts {
    char **undef;          /* undefined global/weak symbols */
    int n_undef;
    char *ifunc;           /* the first GNU indirect function defined, or NULL */
    unsigned long long static_bytes;   /* code and data the object brings (SHF_ALLOC sections) */
} obj_facts;

static void free_obj(obj_facts *o)
{
    for (int i = 0; i < o->n_undef; i++)
        free(o->undef[i]);
    free(o->undef);
    free(o->ifunc);
    memset(o, 0, sizeof *o);
}

/* Read an ELF64 relocatable object's symbol table. 0, or -1 if it is not one. */
static int read_object(const char *path, obj_facts *o)
{
    memset(o, 0, sizeof *o);
    size_t len;
    unsigned char *f = (unsigned char *)gr_read_file(path, &len);
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
        free_obj(o);
    return rc;
}

/* Support functions linked into every test child (labsup.h minus YAML). */
static const char *const support_symbols[] = {
    "sup_rng_seed", "sup_rng_u64", "sup_rng_uniform", "sup_rng_normal", "sup_rng_fill_normal",
    "sup_rng_fill_uniform", "sup_tensor_alloc", "sup_tensor_free", "sup_tensor_print",
    "sup_print_matrix", "sup_error", NULL
};

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

/* Is the external symbol sym allowed for this lab? Names the compiler writes
   for the student (fortified or C99 variants, calls it substitutes) count as
   the function the student wrote. */
static int symbol_allowed(const gr_rubric *r, const char *sym)
{
    if (starts_with(sym, "lab_"))
        return 1;                         /* the lab's own functions: the link decides */
    if (!strcmp(sym, "memcpy") || !strcmp(sym, "memset") || !strcmp(sym, "memmove") ||
        !strcmp(sym, "stdout") || !strcmp(sym, "stderr") || !strcmp(sym, "_GLOBAL_OFFSET_TABLE_"))
        return 1;
    for (int i = 0; support_symbols[i]; i++)
        if (!strcmp(sym, support_symbols[i]))
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
        return symbol_allowed(r, base);
    }
    if (starts_with(sym, "__isoc99_") || starts_with(sym, "__isoc23_"))
        return symbol_allowed(r, sym + 9);
    if (!strcmp(sym, "__errno_location"))
        return rubric_allows(r, "errno");

    /* calls the compiler substitutes for the one written */
    if ((!strcmp(sym, "puts") || !strcmp(sym, "putchar")) && rubric_allows(r, "printf"))
        return 1;
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

/* Why a symbol is refused, as the end of a sentence. */
static const char *symbol_reason(const char *sym)
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

/* ---- the whole build ------------------------------------------------------------------------ */

static int copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = gr_read_file(from, &len);
    if (!data)
        return -1;
    int rc = gr_write_file_atomic(to, data, len);
    free(data);
    return rc;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The environment tools run with: the grader's PATH, the C locale (messages
   the grader can rewrite and students can search for), our private TMPDIR. */
typedef struct tool_env {
    char *vars[5];
} tool_env;

static void make_env(tool_env *te, const char *priv)
{
    const char *path = getenv("PATH");
    const char *home = getenv("HOME");
    int n = 0;
    te->vars[n++] = gr_xasprintf("PATH=%s", path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
    te->vars[n++] = gr_xstrdup("LC_ALL=C");
    te->vars[n++] = gr_xasprintf("TMPDIR=%s", priv);
    if (home)
        te->vars[n++] = gr_xasprintf("HOME=%s", home);
    te->vars[n] = NULL;
}

static void free_env(tool_env *te)
{
    for (int i = 0; te->vars[i]; i++)
        free(te->vars[i]);
}

static void fail_with(gr_build *out, gr_verdict v, char *message, char *log)
{
    out->ok = 0;
    out->verdict = v;
    out->message = message;
    out->log = log;
}

/* ---- the build context: what the steps share ------------------------------------------------ */

/* How a step ended. */
typedef enum step_outcome {
    STEP_OK,        /* go on with the next step */
    STEP_VERDICT,   /* out holds a verdict for the student: gr_build_lab returns 0 */
    STEP_FAIL       /* the grader itself failed, err says why: gr_build_lab returns -1 */
} step_outcome;

typedef struct build_ctx {
    /* the call */
    const gr_rubric *r;
    const char *lab_dir_name;
    const char *src;            /* the student's file, as the caller named it */
    gr_paths paths;             /* the caller's paths made absolute: tools run inside priv */
    char root_abs[PATH_MAX], stub_abs[PATH_MAX], work_abs[PATH_MAX];
    gr_build *out;
    char *err;
    size_t errlen;

    /* derived from it before any step */
    char tag[16];               /* labNN */
    char *source;               /* the rubric's source file name, or labNN.c */
    char *contract;             /* labNN.h */
    char *cc;                   /* the C compiler: $ATTNLAB_CC or cc */
    char *stub_objs[5];         /* the grader's objects linked with the student's, NULL-ended */
    char *hdr_from, *sup_from;  /* the pristine contract header and labsup.h in the tree */

    /* made by the steps */
    char *text;                 /* prepare: the student's file */
    size_t text_len;
    char *priv;                 /* prepare: the private directory */
    char *inc;                  /* prepare: priv/inc, the pristine headers */
    tool_env te;                /* prepare: the environment tools run with */
    directive_scan ds;          /* check_includes: the #include and #line directives */
    char *ofile;                /* compile_object: labNN.o, relative to priv */
    obj_facts of;               /* check_symbols: the object's symbols and size */
    char *exe;                  /* link_executable: the test executable */
} build_ctx;

/* Fill c from the call: absolute paths, the lab's file names, the compiler, the
   grader's own files to look for. 0, or -1 (err set, nothing to free) when a
   path cannot be resolved. */
static int ctx_init(build_ctx *c, const gr_rubric *r, const char *lab_dir_name, const char *src,
                    const gr_paths *paths, gr_build *out, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->lab_dir_name = lab_dir_name;
    c->src = src;
    c->out = out;
    c->err = err;
    c->errlen = errlen;
    if (!realpath(paths->root, c->root_abs) || !realpath(paths->stub_dir, c->stub_abs) ||
        !realpath(paths->work_dir, c->work_abs)) {
        gr_set_err(err, errlen, "build: cannot resolve the tree %s, stub folder %s or work folder %s: %s",
                   paths->root, paths->stub_dir, paths->work_dir, strerror(errno));
        return -1;
    }
    c->paths = (gr_paths){c->root_abs, c->stub_abs, c->work_abs};
    snprintf(c->tag, sizeof c->tag, "lab%02d", r->lab);
    c->source = r->source && *r->source ? gr_xstrdup(r->source) : gr_xasprintf("%s.c", c->tag);
    c->contract = gr_xasprintf("%s.h", c->tag);
    const char *cc = getenv("ATTNLAB_CC");
    c->cc = gr_xstrdup(cc && *cc ? cc : "cc");
    c->stub_objs[0] = gr_xasprintf("%s/stub_main.o", c->paths.stub_dir);
    c->stub_objs[1] = gr_xasprintf("%s/%s_dispatch.o", c->paths.stub_dir, c->tag);
    c->stub_objs[2] = gr_xasprintf("%s/sup_rng.o", c->paths.stub_dir);
    c->stub_objs[3] = gr_xasprintf("%s/sup_tensor.o", c->paths.stub_dir);
    c->stub_objs[4] = NULL;
    c->hdr_from = gr_xasprintf("%s/labs/%s/%s", c->paths.root, lab_dir_name, c->contract);
    c->sup_from = gr_xasprintf("%s/lib/labsup.h", c->paths.root);
    return 0;
}

static void ctx_free(build_ctx *c)
{
    free_env(&c->te);
    free_scan(&c->ds);
    free_obj(&c->of);
    for (int i = 0; c->stub_objs[i]; i++)
        free(c->stub_objs[i]);
    free(c->source);
    free(c->contract);
    free(c->cc);
    free(c->hdr_from);
    free(c->sup_from);
    free(c->text);
    free(c->priv);
    free(c->inc);
    free(c->ofile);
    free(c->exe);
}

/* Run a tool (no shell, found on PATH) in the private directory with the tools'
   environment, killed after TOOL_SECONDS; the caller frees tr->log, its raw
   output (the first TOOL_LOG_BYTES). 0, or -1 when it could not be started
   (errno set). */
static int run_in_priv(const build_ctx *c, const char *const argv[], gr_tool_run *tr)
{
    const gr_tool_opts o = {.cwd = c->priv, .env = c->te.vars, .seconds = TOOL_SECONDS,
                            .log_bytes = TOOL_LOG_BYTES, .path_search = 1};
    return gr_run_tool(argv, &o, tr);
}

/* A tool's output trimmed for the student (trim_log), or NULL. */
static char *shown_log(const build_ctx *c, const char *raw)
{
    return trim_log(raw, c->priv, c->paths.stub_dir);
}

/* Run the C compiler on the student's file (doing: "preprocess" or "compile"):
   STEP_FAIL when it cannot be started, a GR_COMPILE_ERROR verdict with its first
   errors when it fails or takes too long, else STEP_OK with its trimmed output
   (warnings) in *log, or NULL. */
static step_outcome compile_student(build_ctx *c, const char *const argv[], const char *doing,
                                    char **log)
{
    *log = NULL;
    gr_tool_run tr;
    if (run_in_priv(c, argv, &tr) != 0) {
        gr_set_err(c->err, c->errlen, "build: cannot run the C compiler '%s': %s", c->cc, strerror(errno));
        return STEP_FAIL;
    }
    char *shown = shown_log(c, tr.log);
    free(tr.log);
    if (!gr_tool_ok(&tr)) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  tr.timed_out
                      ? gr_xasprintf("%s took longer than %d s to %s; look for macros that expand "
                                     "without end.", c->source, TOOL_SECONDS, doing)
                      : gr_xasprintf("%s does not compile. The compiler's first errors are below "
                                     "(file:line:column: what is wrong); fix the first one, then "
                                     "grade again.", c->source),
                  shown);
        return STEP_VERDICT;
    }
    *log = shown;
    return STEP_OK;
}

/* ---- the steps, in order ---------------------------------------------------------------------- */

/* Check that the grader's own stub objects and pristine headers exist (STEP_FAIL
   if not) and that the student's file is there and of a lab file's size (a
   GR_COMPILE_ERROR verdict if not), then copy it with the headers into a fresh
   private directory. */
static step_outcome prepare(build_ctx *c)
{
    if (strchr(c->source, '/')) {
        gr_set_err(c->err, c->errlen, "build: the rubric's source '%s' must be a file name, not a path",
                   c->source);
        return STEP_FAIL;
    }

    /* the grader's own pieces must be there before we judge a student */
    for (int i = 0; c->stub_objs[i]; i++) {
        if (!file_exists(c->stub_objs[i])) {
            gr_set_err(c->err, c->errlen, "build: %s is missing; build the grader first (make)",
                       c->stub_objs[i]);
            return STEP_FAIL;
        }
    }
    if (!file_exists(c->hdr_from) || !file_exists(c->sup_from)) {
        gr_set_err(c->err, c->errlen,
                   "build: the contract header %s or %s is missing from the attnlab tree",
                   c->hdr_from, c->sup_from);
        return STEP_FAIL;
    }

    /* the student's file */
    struct stat sst;
    if (stat(c->src, &sst) == 0 && S_ISREG(sst.st_mode) && sst.st_size > MAX_SOURCE_BYTES) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("%s is %lld bytes; a lab file is a few hundred lines. Submit the "
                               "source file itself.", c->source, (long long)sst.st_size), NULL);
        return STEP_VERDICT;
    }
    c->text = gr_read_file(c->src, &c->text_len);
    if (!c->text) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("cannot read %s (%s): put your %s in the lab's folder and grade again.",
                               c->src, strerror(errno), c->source), NULL);
        return STEP_VERDICT;
    }

    /* the private directory */
    c->priv = gr_xasprintf("%s/build-%s-XXXXXX", c->paths.work_dir, c->tag);
    if (!mkdtemp(c->priv)) {
        gr_set_err(c->err, c->errlen, "build: cannot make a directory under %s: %s", c->paths.work_dir,
                   strerror(errno));
        return STEP_FAIL;
    }
    c->inc = gr_xasprintf("%s/inc", c->priv);
    char *hdr_to = gr_xasprintf("%s/%s", c->inc, c->contract);
    char *sup_to = gr_xasprintf("%s/labsup.h", c->inc);
    char *src_to = gr_xasprintf("%s/%s", c->priv, c->source);
    int copied = mkdir(c->inc, 0755) == 0 && copy_file(c->hdr_from, hdr_to) == 0 &&
                 copy_file(c->sup_from, sup_to) == 0 &&
                 gr_write_file_atomic(src_to, c->text, c->text_len) == 0;
    int saved = errno;
    free(hdr_to);
    free(sup_to);
    free(src_to);
    if (!copied) {
        gr_set_err(c->err, c->errlen, "build: cannot copy the sources into %s: %s", c->priv,
                   strerror(saved));
        return STEP_FAIL;
    }
    make_env(&c->te, c->priv);
    return STEP_OK;
}

/* Step 1: every #include must name the contract, labsup.h or a header the rubric
   allows, and there must be no #line (it would blur what comes from where); a
   GR_FORBIDDEN_CALL verdict naming each offending line if not. */
static step_outcome check_includes(build_ctx *c)
{
    const gr_rubric *r = c->r;
    scan_directives(c->text, c->text_len, &c->ds);
    gr_strbuf msg = {0};
    int bad = 0;
    for (int i = 0; i < c->ds.n_inc; i++) {
        const include_line *il = &c->ds.inc[i];
        if (il->computed) {
            gr_sb_printf(&msg, "%s:%d: #include %s: the grader cannot check an #include written "
                         "with a macro; write the header's name, e.g. #include <math.h>.\n",
                         c->source, il->line, il->name);
            bad++;
        } else if (strcmp(il->name, c->contract) != 0 && strcmp(il->name, "labsup.h") != 0 &&
                   !in_list(r->allowed_headers, r->n_headers, il->name)) {
            gr_sb_printf(&msg, "%s:%d: #include <%s> is not allowed in this lab; remove it.\n",
                         c->source, il->line, il->name);
            bad++;
        }
    }
    if (c->ds.line_directive) {
        gr_sb_printf(&msg, "%s:%d: #line directives are not allowed in graded code; remove it.\n",
                     c->source, c->ds.line_directive);
        bad++;
    }
    if (!bad)
        return STEP_OK;
    gr_sb_append(&msg, "Headers this lab allows: ");
    join_list(&msg, r->allowed_headers, r->n_headers, c->contract, "labsup.h");
    gr_sb_append(&msg, ".");
    fail_with(c->out, GR_FORBIDDEN_CALL, gr_sb_take(&msg), NULL);
    return STEP_VERDICT;
}

/* The preprocessor's own view of the student's lines must show no inline
   assembly and no included file that step 1 did not see as an #include line;
   GR_FORBIDDEN_CALL if it does (GR_COMPILE_ERROR if the file does not preprocess). */
static step_outcome preprocess_checks(build_ctx *c)
{
    char *ifile = gr_xasprintf("%s.i", c->tag);
    const char *argv[] = {c->cc, "-std=c11", "-E", "-U_FORTIFY_SOURCE",
                          "-I", c->inc, c->source, "-o", ifile, NULL};
    char *log;
    step_outcome s = compile_student(c, argv, "preprocess", &log);
    free(log);
    if (s != STEP_OK) {
        free(ifile);
        return s;
    }
    char *ipath = gr_xasprintf("%s/%s", c->priv, ifile);
    free(ifile);
    char *pre = gr_read_file(ipath, NULL);
    unlink(ipath);
    free(ipath);
    if (!pre) {
        gr_set_err(c->err, c->errlen, "build: the preprocessor wrote no output in %s", c->priv);
        return STEP_FAIL;
    }
    pp_facts pf;
    scan_preprocessed(pre, c->source, &pf);
    free(pre);
    if (pf.asm_line) {
        fail_with(c->out, GR_FORBIDDEN_CALL,
                  gr_xasprintf("%s:%d: inline assembly (%s) is not allowed in graded code: write "
                               "the lab in C.", c->source, pf.asm_line, pf.asm_word), NULL);
        return STEP_VERDICT;
    }
    if (pf.direct_includes > c->ds.n_inc) {
        fail_with(c->out, GR_FORBIDDEN_CALL,
                  gr_xasprintf("%s includes %d file(s) the grader could not find as #include "
                               "lines; write each as #include <name.h> at the start of its own "
                               "line.", c->source, pf.direct_includes - c->ds.n_inc), NULL);
        return STEP_VERDICT;
    }
    return STEP_OK;
}

/* Step 2: the student's file, alone in the private directory, must compile
   against the pristine headers into labNN.o; a GR_COMPILE_ERROR verdict with the
   compiler's first errors if not (its warnings, if any, are kept in out->log). */
static step_outcome compile_object(build_ctx *c)
{
    c->ofile = gr_xasprintf("%s.o", c->tag);
    const char *argv[] = {c->cc, "-std=c11", "-O2", "-fno-stack-protector",
                          "-fno-common", "-U_FORTIFY_SOURCE",
                          "-fdiagnostics-color=never",
                          "-Werror=implicit-function-declaration", "-I", c->inc,
                          "-c", c->source, "-o", c->ofile, NULL};
    char *log;
    step_outcome s = compile_student(c, argv, "compile", &log);
    if (s == STEP_OK)
        c->out->log = log;                /* warnings, if any, are worth showing */
    return s;
}

/* Step 3: every external symbol of the object must be allowed (symbol_allowed)
   and none may be an indirect function; a GR_FORBIDDEN_CALL verdict naming each
   offending symbol if not. */
static step_outcome check_symbols(build_ctx *c)
{
    const gr_rubric *r = c->r;
    const obj_facts *of = &c->of;
    char *opath = gr_xasprintf("%s/%s", c->priv, c->ofile);
    int ok = read_object(opath, &c->of);
    free(opath);
    if (ok != 0) {
        gr_set_err(c->err, c->errlen,
                   "build: cannot read the symbol table of %s/%s (not an ELF64 object)", c->priv,
                   c->ofile);
        return STEP_FAIL;
    }
    gr_strbuf msg = {0};
    int bad = 0;
    for (int i = 0; i < of->n_undef; i++) {
        const char *sym = of->undef[i];
        int seen = 0;
        for (int k = 0; k < i; k++)
            seen |= strcmp(of->undef[k], sym) == 0;
        if (seen || symbol_allowed(r, sym))
            continue;
        const char *why = symbol_reason(sym);
        if (why)
            gr_sb_printf(&msg, "%s is not allowed in this lab: %s.\n", sym, why);
        else
            gr_sb_printf(&msg, "%s is not allowed in this lab: it is not among the library "
                         "functions the handout lists.\n", sym);
        bad++;
    }
    if (of->ifunc) {
        gr_sb_printf(&msg, "%s is declared as an indirect function (ifunc), which runs before "
                     "the grader's checks; write an ordinary function.\n", of->ifunc);
        bad++;
    }
    if (!bad)
        return STEP_OK;
    gr_sb_append(&msg, "Remove those calls. Library functions this lab allows: ");
    if (r->n_symbols == 0)
        gr_sb_append(&msg, "none beyond memcpy, memset, memmove and the sup_ support code");
    for (int i = 0; i < r->n_symbols; i++)
        gr_sb_printf(&msg, "%s%s", i ? ", " : "", r->allowed_symbols[i]);
    gr_sb_append(&msg, ".");
    fail_with(c->out, GR_FORBIDDEN_CALL, gr_sb_take(&msg), c->out->log);
    return STEP_VERDICT;
}

/* Step 4's verdict when the link fails: GR_COMPILE_ERROR, naming the lab_
   function the linker could not find when that is why. */
static step_outcome link_failed(build_ctx *c, const char *raw)
{
    const char *miss = raw ? strstr(raw, "undefined reference to `lab_") : NULL;
    char *message;
    if (miss) {
        const char *name = miss + strlen("undefined reference to `");
        size_t n = strcspn(name, "'");
        message = gr_xasprintf("%s compiles but does not link: the grader cannot find %.*s. "
                               "Keep every function of %s with its exact name and signature "
                               "(was one renamed, deleted or made static?).",
                               c->source, (int)n, name, c->contract);
    } else {
        message = gr_xasprintf("%s compiles but does not link; the linker's first messages "
                               "are below.", c->source);
    }
    free(c->out->log);
    fail_with(c->out, GR_COMPILE_ERROR, message, shown_log(c, raw));
    return STEP_VERDICT;
}

/* Step 4: with every global but lab_* made local (objcopy), the object must link
   statically with the stub objects and the allocator wrappers into an executable
   others may run; a GR_COMPILE_ERROR verdict if it does not link. */
static step_outcome link_executable(build_ctx *c)
{
    /* student code cannot replace a C library or stub function the stub relies on */
    char *lfile = gr_xasprintf("%s.local.o", c->tag);
    const char *objcopy = getenv("ATTNLAB_OBJCOPY");
    const char *oc_argv[] = {objcopy && *objcopy ? objcopy : "objcopy", "--wildcard",
                             "--keep-global-symbol=lab_*", c->ofile, lfile, NULL};
    gr_tool_run tr;
    int started = run_in_priv(c, oc_argv, &tr);
    if (started != 0 || !gr_tool_ok(&tr)) {
        gr_set_err(c->err, c->errlen, "build: objcopy could not localise the student's symbols: %s",
                   started != 0 ? strerror(errno) : tr.log ? tr.log : "");
        free(tr.log);
        free(lfile);
        return STEP_FAIL;
    }
    free(tr.log);

    c->exe = gr_xasprintf("%s/%s-test", c->priv, c->tag);
    char *defsym = gr_xasprintf("-Wl,--defsym=stub_student_static_bytes=%llu", c->of.static_bytes);
    const char *argv[] = {c->cc, "-static", "-o", c->exe, c->stub_objs[0], lfile,
                          c->stub_objs[1], c->stub_objs[2], c->stub_objs[3],
                          "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,"
                                  "--wrap=aligned_alloc,--wrap=posix_memalign",
                          defsym, "-lm", NULL};
    started = run_in_priv(c, argv, &tr);
    free(defsym);
    step_outcome s = STEP_OK;
    if (started != 0) {
        gr_set_err(c->err, c->errlen, "build: cannot run the C compiler '%s' to link: %s", c->cc,
                   strerror(errno));
        s = STEP_FAIL;
    } else if (!gr_tool_ok(&tr)) {
        s = link_failed(c, tr.log);
    } else if (chmod(c->exe, 0755) != 0) {
        /* run by user nobody when the grader is root: it must be executable by others */
        gr_set_err(c->err, c->errlen, "build: cannot chmod %s: %s", c->exe, strerror(errno));
        s = STEP_FAIL;
    }
    free(tr.log);
    free(lfile);
    return s;
}

/* ---- the whole build ------------------------------------------------------------------------ */

int gr_build_lab(const gr_rubric *r, const char *lab_dir_name, const char *src,
                 const gr_paths *paths, gr_build *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->verdict = GR_COMPILE_ERROR;
    if (err && errlen)
        err[0] = '\0';
    if (!r || !lab_dir_name || !src || !paths || !paths->root || !paths->stub_dir || !paths->work_dir) {
        gr_set_err(err, errlen, "build: missing rubric, lab folder, source or paths");
        return -1;
    }
    double t0 = gr_now_seconds();
    build_ctx c;
    if (ctx_init(&c, r, lab_dir_name, src, paths, out, err, errlen) != 0) {
        out->compile_seconds = gr_now_seconds() - t0;
        return -1;
    }

    step_outcome s = prepare(&c);
    if (s == STEP_OK)
        s = check_includes(&c);           /* 1. headers */
    if (s == STEP_OK)
        s = preprocess_checks(&c);        /*    inline assembly, hidden includes */
    if (s == STEP_OK)
        s = compile_object(&c);           /* 2. compile */
    if (s == STEP_OK)
        s = check_symbols(&c);            /* 3. external symbols */
    if (s == STEP_OK)
        s = link_executable(&c);          /* 4. static link */
    if (s == STEP_OK) {
        out->ok = 1;
        out->verdict = GR_PASSED;
        out->exe = c.exe;
        c.exe = NULL;
    }

    out->compile_seconds = gr_now_seconds() - t0;
    ctx_free(&c);
    if (s == STEP_FAIL) {                 /* the grader's failure: no verdict is left behind */
        gr_build_free(out);
        memset(out, 0, sizeof *out);
        out->verdict = GR_COMPILE_ERROR;
        return -1;
    }
    return 0;
}

void gr_build_free(gr_build *b)
{
    if (!b)
        return;
    free(b->message);
    free(b->log);
    free(b->exe);
    b->message = b->log = b->exe = NULL;
}
