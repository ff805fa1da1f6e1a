/* util.h: small helpers every grader module uses: memory that cannot fail
 * silently, a growable string, whole-file reads and atomic writes, a clock
 * and error messages. */
#ifndef GR_UTIL_H
#define GR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* malloc/calloc/realloc/strdup that print "attnlab: out of memory" and exit 1. */
void *gr_xmalloc(size_t n);
void *gr_xcalloc(size_t count, size_t size);
void *gr_xrealloc(void *p, size_t n);
char *gr_xstrdup(const char *s);

/* printf into a new malloc'd string. */
char *gr_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable NUL-terminated string. Zero-initialise ({0}) before use. */
typedef struct gr_strbuf {
    char *s;
    size_t len, cap;
} gr_strbuf;

void gr_sb_append(gr_strbuf *b, const char *s);
void gr_sb_appendn(gr_strbuf *b, const char *s, size_t n);
void gr_sb_printf(gr_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gr_sb_vprintf(gr_strbuf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hand over the string (never NULL) and reset b. */
char *gr_sb_take(gr_strbuf *b);

/* Read a whole file into a NUL-terminated malloc'd buffer; NULL on error (errno set). */
char *gr_read_file(const char *path, size_t *len);

/* Read a regular file, never following a link at its last component and
   never blocking on a FIFO or device: 0 with *text (NUL-terminated, malloc'd)
   and *len; 1 when it is not a regular file of at most cap bytes (why says
   what it is: "a symbolic link", "a FIFO (named pipe)", "a directory" ...);
   -1 on an error, errno set (ENOENT ...). */
int gr_read_regular(const char *path, size_t cap, char **text, size_t *len, char *why,
                    size_t whylen);

/* gr_read_regular of path relative to the open folder dirfd (AT_FDCWD: the
   current folder), as openat(2) resolves it. */
int gr_read_regular_at(int dirfd, const char *path, size_t cap, char **text, size_t *len,
                       char *why, size_t whylen);

/* What a file of mode m is, for a message: "a regular file", "a symbolic
   link", "a FIFO (named pipe)", "a directory", "a character device" ... */
const char *gr_file_kind(mode_t m);

/* Write len bytes to path atomically: a temporary file in the same folder,
   fsync, rename; the file's mode is 0666 less the umask, as for any new file.
   0, or -1 with errno set (path is left as it was). */
int gr_write_file_atomic(const char *path, const void *data, size_t len);

/* Seconds on the monotonic clock (CLOCK_MONOTONIC), for measuring how long something took. */
double gr_now_seconds(void);

/* printf into err[0..errlen), truncated as snprintf does; nothing when err is NULL or errlen 0. */
void gr_set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Decode one UTF-8 character from s[0..n): its length (1..4) with *cp set, or
   0 when s does not start with a valid, shortest-form encoding of a Unicode
   scalar value (overlong forms, surrogates and values above U+10FFFF are
   invalid). n must be at least 1. */
int gr_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
