/* buildcache.c: a lab's program kept by everything it was built from (see
 * buildcache.h). An entry is a folder named by a hash of its key:
 *   key    the key itself, compared whole on every lookup
 *   meta   "static_bytes\n", then the build's log (its warnings)
 *   exe    the program
 * made under a temporary name and renamed into place, so a reader sees a whole
 * entry or none, and two graders storing the same entry at once both succeed.
 */
#include "confined/buildcache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/workdir.h"
#include "base/util.h"

#define KEY_FORMAT "attnlab build cache 2\n"

char *gr_buildcache_dir(void)
{
    const char *set = getenv("ATTNLAB_BUILD_CACHE");
    if (set && (!*set || strcmp(set, "off") == 0))
        return NULL;
    if (set)
        return gr_xstrdup(set);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg == '/')
        return gr_xasprintf("%s/attnlab/builds", xdg);
    return home && *home == '/' ? gr_xasprintf("%s/.cache/attnlab/builds", home) : NULL;
}

/* path's identity in the key: "path size mtime inode" (or "path missing"). */
static void key_stat(gr_strbuf *key, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        gr_sb_printf(key, "%s %lld %lld.%09ld %llu\n", path, (long long)st.st_size,
                     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec, (unsigned long long)st.st_ino);
    else
        gr_sb_printf(key, "%s missing\n", path);
}

/* A file's bytes in the key, length first; 0, or -1 when it cannot be read. */
static int key_bytes(gr_strbuf *key, const char *path)
{
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text)
        return -1;
    gr_sb_printf(key, "%s %zu\n", path, len);
    gr_sb_appendn(key, text, len);
    gr_sb_append(key, "\n");
    free(text);
    return 0;
}

/* A tool as the build finds it: by name on /usr/bin:/bin, or the path given. */
static void key_tool(gr_strbuf *key, const char *env, const char *name)
{
    const char *set = env ? getenv(env) : NULL;
    const char *tool = set && *set ? set : name;
    gr_sb_printf(key, "tool %s\n", tool);
    if (strchr(tool, '/')) {
        key_stat(key, tool);
        return;
    }
    char *a = gr_xasprintf("/usr/bin/%s", tool), *b = gr_xasprintf("/bin/%s", tool);
    key_stat(key, access(a, X_OK) == 0 ? a : b);
    free(a);
    free(b);
}

/* The key of a build of text[0..tlen), or NULL when it is not to be cached. */
static char *make_key(const gr_rubric *r, const char *lab_dir_name, const char *text,
                      size_t tlen, const gr_paths *paths, size_t *len)
{
    gr_strbuf key = {0};
    gr_sb_printf(&key, KEY_FORMAT "lab %d %s\nsource %zu\n", r->lab, lab_dir_name, tlen);
    gr_sb_appendn(&key, text, tlen);
    gr_sb_append(&key, "\n");
    int ok = r->path && key_bytes(&key, r->path) == 0;
    char **in = gr_build_inputs(r, lab_dir_name, paths);
    for (int i = 0; in[i]; i++) {
        if (i < 2)
            ok = ok && key_bytes(&key, in[i]) == 0;     /* the headers the student's code sees */
        else
            key_stat(&key, in[i]);                      /* the child's objects */
        free(in[i]);
    }
    free(in);
    key_tool(&key, "ATTNLAB_CC", "cc");
    key_tool(&key, NULL, "as");
    key_tool(&key, NULL, "ld");
    key_tool(&key, "ATTNLAB_OBJCOPY", "objcopy");
    static const char *const libc[] = {"/usr/lib/x86_64-linux-gnu/libc.a",
                                       "/usr/lib/aarch64-linux-gnu/libc.a", "/usr/lib/libc.a",
                                       "/usr/lib64/libc.a", NULL};
    for (int i = 0; libc[i]; i++)
        key_stat(&key, libc[i]);
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        key_stat(&key, self);                           /* the grader: its checks and flags */
    }
    if (!ok || n <= 0) {
        free(key.s);
        return NULL;
    }
    *len = key.len;
    return gr_sb_take(&key);
}

/* FNV-1a of data from basis h: an index only (the key is compared whole), so
   no collision resistance is needed. */
static uint64_t fnv1a(uint64_t h, const char *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)data[i]) * 0x100000001b3ULL;
    return h;
}

/* The entry folder of key: DIR/ and 32 hex digits. */
static char *entry_path(const char *dir, const char *key, size_t len)
{
    return gr_xasprintf("%s/%016llx%016llx", dir,
                        (unsigned long long)fnv1a(0xcbf29ce484222325ULL, key, len),
                        (unsigned long long)fnv1a(0x84222325cbf29ce4ULL, key, len));
}

/* The kept build of key, copied into paths->work_dir: 0 on a hit, -1 on a miss. */
static int lookup(const char *entry, const char *key, size_t klen, const gr_paths *paths,
                  gr_build *out)
{
    char *kp = gr_xasprintf("%s/key", entry), *mp = gr_xasprintf("%s/meta", entry);
    char *ep = gr_xasprintf("%s/exe", entry);
    size_t len = 0, elen = 0;
    char *kept = gr_read_file(kp, &len), *meta = gr_read_file(mp, NULL), *exe = NULL;
    const char *log = meta ? strchr(meta, '\n') : NULL;   /* the log follows the first line */
    char *end = NULL;
    long static_bytes = log ? strtol(meta, &end, 10) : 0;
    int rc = -1;
    if (kept && len == klen && memcmp(kept, key, klen) == 0 && log && end == log &&
        end != meta && (exe = gr_read_file(ep, &elen)) != NULL) {
        char tmpl[PATH_MAX];
        snprintf(tmpl, sizeof tmpl, "%s/cached-XXXXXX", paths->work_dir);
        char *dir = mkdtemp(tmpl) ? gr_xasprintf("%s/lab-test", tmpl) : NULL;
        if (dir && chmod(tmpl, 0755) == 0 && gr_write_file_atomic(dir, exe, elen) == 0 &&
            chmod(dir, 0755) == 0) {
            memset(out, 0, sizeof *out);
            out->ok = 1;
            out->verdict = GR_PASSED;
            out->exe = dir;
            out->static_bytes = static_bytes;
            out->log = log[1] ? gr_xstrdup(log + 1) : NULL;   /* as kept, leading blanks too */
            utimensat(AT_FDCWD, entry, NULL, 0);      /* used now: kept longest */
            dir = NULL;
            rc = 0;
        }
        free(dir);
    }
    free(kept);
    free(meta);
    free(exe);
    free(kp);
    free(mp);
    free(ep);
    return rc;
}

/* Remove the oldest entries of dir beyond GR_BUILDCACHE_ENTRIES. */
static void prune(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct { char *name; long long t; } *e = NULL;
    int n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        struct stat st;
        char *p = gr_xasprintf("%s/%s", dir, de->d_name);
        if (de->d_name[0] != '.' && lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            e = gr_xrealloc(e, (size_t)(n + 1) * sizeof *e);
            e[n].name = p;
            e[n++].t = (long long)st.st_mtim.tv_sec;
            continue;
        }
        free(p);
    }
    closedir(d);
    for (int over = n - GR_BUILDCACHE_ENTRIES; over > 0; over--) {
        int old = -1;
        for (int i = 0; i < n; i++)
            if (e[i].name && (old < 0 || e[i].t < e[old].t))
                old = i;
        gr_workdir_remove(gr_xstrdup(e[old].name));
        free(e[old].name);
        e[old].name = NULL;
    }
    for (int i = 0; i < n; i++)
        free(e[i].name);
    free(e);
}

/* mkdir -p path, each new folder 0700. 0, or -1. */
static int make_dirs(const char *path)
{
    char *p = gr_xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; rc == 0; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        rc = mkdir(p, 0700) == 0 || errno == EEXIST ? 0 : -1;
        *s = c;
        if (c == '\0')
            break;
    }
    free(p);
    return rc;
}

/* Keep a successful build b of key as entry (best effort: a cache that
   cannot be written only costs the next build its time). */
static void store(const char *dir, const char *entry, const char *key, size_t klen,
                  const gr_build *b)
{
    if (make_dirs(dir) != 0)
        return;
    char *tmp = gr_xasprintf("%s/.new-XXXXXX", dir);
    if (!mkdtemp(tmp)) {
        free(tmp);
        return;
    }
    size_t elen = 0;
    char *exe = gr_read_file(b->exe, &elen);
    char *kp = gr_xasprintf("%s/key", tmp), *mp = gr_xasprintf("%s/meta", tmp);
    char *ep = gr_xasprintf("%s/exe", tmp);
    char *meta = gr_xasprintf("%ld\n%s", b->static_bytes, b->log ? b->log : "");
    int ok = exe && gr_write_file_atomic(kp, key, klen) == 0 &&
             gr_write_file_atomic(mp, meta, strlen(meta)) == 0 &&
             gr_write_file_atomic(ep, exe, elen) == 0 && rename(tmp, entry) == 0;
    if (!ok)
        gr_workdir_remove(gr_xstrdup(tmp));  /* another grader kept it first, or no room */
    else
        prune(dir);
    free(exe);
    free(kp);
    free(mp);
    free(ep);
    free(meta);
    free(tmp);
}

/* The student's file read once (a regular file of a lab file's size, never
   through a link, a FIFO or a device) and written to a private copy in the
   work folder, which is what gets built: so the program kept is the program
   of the very bytes its key holds, even if the file changes meanwhile. NULL
   when the file is not such a file (the build itself then says why). */
static char *private_copy(const char *src, const char *work, char **text, size_t *len)
{
    char why[128];
    if (gr_read_regular(src, GR_MAX_SOURCE_BYTES, text, len, why, sizeof why) != 0)
        return NULL;
    char tmpl[PATH_MAX];
    snprintf(tmpl, sizeof tmpl, "%s/source-XXXXXX", work);
    const char *base = strrchr(src, '/');
    char *copy = mkdtemp(tmpl) ? gr_xasprintf("%s/%s", tmpl, base ? base + 1 : src) : NULL;
    if (copy && gr_write_file_atomic(copy, *text, *len) == 0)
        return copy;
    free(copy);
    free(*text);
    *text = NULL;
    return NULL;
}

int gr_buildcache_build(const gr_rubric *r, const char *lab_dir_name, const char *src,
                        const gr_paths *paths, gr_build *out, char *err, size_t errlen)
{
    char *dir = gr_buildcache_dir(), *text = NULL, *key = NULL;
    size_t tlen = 0, klen = 0;
    char *copy = dir ? private_copy(src, paths->work_dir, &text, &tlen) : NULL;
    if (copy)
        key = make_key(r, lab_dir_name, text, tlen, paths, &klen);
    free(text);
    if (!key) {
        int rc = gr_build_lab(r, lab_dir_name, copy ? copy : src, paths, out, err, errlen);
        free(copy);
        free(dir);
        return rc;
    }
    double t0 = gr_now_seconds();
    char *entry = entry_path(dir, key, klen);
    int rc = 0;
    if (lookup(entry, key, klen, paths, out) == 0) {
        out->compile_seconds = gr_now_seconds() - t0;
    } else {
        rc = gr_build_lab(r, lab_dir_name, copy, paths, out, err, errlen);
        if (rc == 0 && out->ok)
            store(dir, entry, key, klen, out);
    }
    free(entry);
    free(key);
    free(copy);
    free(dir);
    return rc;
}
