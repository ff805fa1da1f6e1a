/* util.c: see util.h. */
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void *oom(void)
{
    fputs("attnlab: out of memory\n", stderr);
    exit(1);
}

void *gr_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    return p ? p : oom();
}

void *gr_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    return p ? p : oom();
}

void *gr_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom();
}

char *gr_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(gr_xmalloc(n), s, n);
}

char *gr_xasprintf(const char *fmt, ...)
{
    gr_strbuf b = {0};
    va_list ap;
    va_start(ap, fmt);
    gr_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return gr_sb_take(&b);
}

static void sb_reserve(gr_strbuf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = gr_xrealloc(b->s, cap);
    b->cap = cap;
}

void gr_sb_appendn(gr_strbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void gr_sb_append(gr_strbuf *b, const char *s)
{
    gr_sb_appendn(b, s, strlen(s));
}

void gr_sb_vprintf(gr_strbuf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0) {
        sb_reserve(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
        b->len += (size_t)n;
    }
    va_end(again);
}

void gr_sb_printf(gr_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gr_sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *gr_sb_take(gr_strbuf *b)
{
    char *s = b->s ? b->s : gr_xstrdup("");
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

char *gr_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    gr_strbuf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        gr_sb_appendn(&b, chunk, n);
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(b.s);
        errno = EIO;
        return NULL;
    }
    if (len)
        *len = b.len;
    return gr_sb_take(&b);
}

const char *gr_file_kind(mode_t m)
{
    if (S_ISREG(m)) return "a regular file";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

int gr_read_regular(const char *path, size_t cap, char **text, size_t *len, char *why,
                    size_t whylen)
{
    return gr_read_regular_at(AT_FDCWD, path, cap, text, len, why, whylen);
}

int gr_read_regular_at(int dirfd, const char *path, size_t cap, char **text, size_t *len,
                       char *why, size_t whylen)
{
    *text = NULL;
    struct stat st, fst;
    if (fstatat(dirfd, path, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return -1;
    if (!S_ISREG(st.st_mode)) {
        gr_set_err(why, whylen, "%s", gr_file_kind(st.st_mode));
        return 1;
    }
    /* opened only now, without following a link and without blocking, and
       checked again: the file may have been swapped since the first look */
    int fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ELOOP) {
        gr_set_err(why, whylen, "a symbolic link");
        return 1;
    }
    if (fd < 0)
        return -1;
    if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode) || fst.st_ino != st.st_ino ||
        fst.st_dev != st.st_dev) {
        gr_set_err(why, whylen, "%s", fstat(fd, &fst) == 0 ? gr_file_kind(fst.st_mode) : "unreadable");
        close(fd);
        return 1;
    }
    if ((size_t)fst.st_size > cap) {
        gr_set_err(why, whylen, "%lld bytes, more than the %zu a file here may have",
                   (long long)fst.st_size, cap);
        close(fd);
        return 1;
    }
    gr_strbuf b = {0};
    char chunk[8192];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 || b.len + (size_t)n > cap) {
            int e = n < 0 ? errno : EFBIG;
            close(fd);
            free(b.s);
            errno = e;
            return -1;
        }
        gr_sb_appendn(&b, chunk, (size_t)n);
    }
    close(fd);
    *len = b.len;
    *text = gr_sb_take(&b);
    return 0;
}

/* The mode open(2) would give a new file: 0666 less the umask, so reports of
   an instructor who works with umask 077 stay private. Only the grader's main
   thread writes files, so reading the umask by setting it back is safe. */
static mode_t new_file_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

int gr_write_file_atomic(const char *path, const void *data, size_t len)
{
    char *tmp = gr_xasprintf("%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            goto fail;
        p += w;
        left -= (size_t)w;
    }
    if (fchmod(fd, new_file_mode()) != 0 || fsync(fd) != 0)
        goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0)
        goto fail;
    free(tmp);
    return 0;
fail:;
    int saved = errno;
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    errno = saved;
    return -1;
}

double gr_now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void gr_set_err(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- UTF-8 ---------------------------------------------------------------
 * 1 byte  0xxxxxxx                             U+0000..U+007F
 * 2 bytes 110xxxxx 10xxxxxx                    U+0080..U+07FF
 * 3 bytes 1110xxxx 10xxxxxx 10xxxxxx           U+0800..U+FFFF minus surrogates
 * 4 bytes 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx  U+10000..U+10FFFF
 * Anything else (a stray continuation byte, a truncated sequence, a longer
 * encoding than needed, a surrogate, a value past U+10FFFF) is invalid. */
int gr_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned char b = s[0];
    int len;
    uint32_t min, c;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xe0) == 0xc0) {
        len = 2, min = 0x80, c = b & 0x1f;
    } else if ((b & 0xf0) == 0xe0) {
        len = 3, min = 0x800, c = b & 0x0f;
    } else if ((b & 0xf8) == 0xf0) {
        len = 4, min = 0x10000, c = b & 0x07;
    } else {
        return 0;
    }
    if (n < (size_t)len)
        return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return len;
}
