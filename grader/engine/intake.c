/* intake.c: finding and reading what a student handed in (see intake.h). */
#include "engine/intake.h"
#include "base/layout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)

/* ---- reading ------------------------------------------------------------------ */

/* Open the folder holding rel's last component, one real folder at a time.
   The fd (>= 0) with *last pointing into rel; -1 with errno, or -2 with why. */
static int open_parent(const char *submission, const char *rel, const char **last, char *why,
                       size_t whylen)
{
    int fd = open(submission, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *p = rel;
    for (const char *slash; fd >= 0 && (slash = strchr(p, '/')) != NULL; p = slash + 1) {
        char *comp = strndup(p, (size_t)(slash - p));
        int next = comp ? openat(fd, comp, DIR_FLAGS) : -1;
        int saved = errno;
        struct stat st;
        if (next < 0 && saved != ENOENT && comp &&
            fstatat(fd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode)) {
            gr_set_err(why, whylen, "%.*s is %s, not a folder", (int)(slash - rel), rel,
                       gr_file_kind(st.st_mode));
            free(comp);
            close(fd);
            return -2;
        }
        free(comp);
        close(fd);
        fd = next;
        errno = saved;
    }
    *last = p;
    return fd;
}

int gr_intake_read(const char *submission, const char *rel, size_t cap, char **text,
                   size_t *len, char *why, size_t whylen)
{
    *text = NULL;
    const char *last;
    int fd = open_parent(submission, rel, &last, why, whylen);
    if (fd == -2)
        return 1;
    if (fd < 0)
        return -1;
    struct stat st;
    int rc;
    char kind[128] = "";
    if (fstatat(fd, last, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        rc = -1;
    } else if (!S_ISREG(st.st_mode)) {
        gr_set_err(why, whylen, "%s is %s, not a regular file", rel, gr_file_kind(st.st_mode));
        rc = 1;
    } else if (st.st_nlink > 1) {    /* another name, maybe outside: a grader's file */
        gr_set_err(why, whylen, "%s is a hard link (the file has other names, perhaps outside "
                   "the submission), not a file of its own", rel);
        rc = 1;
    } else if ((size_t)st.st_size > cap) {
        gr_set_err(why, whylen, "%s has %lld bytes, more than the %zu read of a file here",
                   rel, (long long)st.st_size, cap);
        rc = 1;
    } else if ((rc = gr_read_regular_at(fd, last, cap, text, len, kind, sizeof kind)) == 1) {
        gr_set_err(why, whylen, "%s changed while it was read (now %s)", rel, kind);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

/* ---- one folder's entries ------------------------------------------------------- */

/* The entries of a folder worth looking at: no hidden ones (.git, .DS_Store)
   and no __MACOSX (what macOS's zip adds). */
typedef struct listing {
    char **names;
    unsigned char *is_dir;     /* a real folder, not a link to one */
    int n;
} listing;

typedef struct walk {
    int budget;                /* entries left to read */
    int truncated;
} walk;

static void listing_free(listing *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->names[i]);
    free(l->names);
    free(l->is_dir);
    memset(l, 0, sizeof *l);
}

/* List the folder open as fd (fd stays open), spending w's budget. */
static void list_dir(int fd, walk *w, listing *l)
{
    memset(l, 0, sizeof *l);
    int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0)
            close(dup_fd);
        return;
    }
    int cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (w->budget <= 0) {
            w->truncated = 1;
            break;
        }
        w->budget--;
        if (e->d_name[0] == '.' || strcmp(e->d_name, "__MACOSX") == 0)
            continue;
        struct stat st;
        int dir = e->d_type == DT_DIR ||
                  (e->d_type == DT_UNKNOWN && fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                   S_ISDIR(st.st_mode));
        if (l->n == cap) {
            cap = cap ? 2 * cap : 16;
            l->names = gr_xrealloc(l->names, (size_t)cap * sizeof *l->names);
            l->is_dir = gr_xrealloc(l->is_dir, (size_t)cap);
        }
        l->names[l->n] = gr_xstrdup(e->d_name);
        l->is_dir[l->n++] = (unsigned char)dir;
    }
    closedir(d);
}

/* ---- candidates ----------------------------------------------------------------- */

/* Every file that could be one lab's, at one level. */
typedef struct cands {
    char *rel[2];              /* the first two */
    int rule[2];
    int n;
} cands;

static char *join(const char *a, const char *b)
{
    return *a ? gr_xasprintf("%s/%s", a, b) : gr_xstrdup(b);
}

static void add_cand(cands *c, char *rel, int rule)
{
    for (int i = 0; i < c->n && i < 2; i++)
        if (strcmp(c->rel[i], rel) == 0) {
            free(rel);
            return;
        }
    if (c->n < 2) {
        c->rel[c->n] = rel;
        c->rule[c->n] = rule;
    } else {
        free(rel);
    }
    c->n++;
}

/* The entries of folder dir (at fd) named like file, any case. */
static void in_lab_folder(int fd, const char *base, const char *dir, int dir_rule,
                          const char *file, walk *w, cands *c)
{
    int sub = openat(fd, dir, DIR_FLAGS);
    if (sub < 0) {            /* a link or a file where the folder should be: the read says so */
        char *inner = gr_xasprintf("%s/%s", dir, file);
        add_cand(c, join(base, inner), dir_rule);
        free(inner);
        return;
    }
    listing l;
    list_dir(sub, w, &l);
    char *where = join(base, dir);
    for (int i = 0; i < l.n; i++)
        if (strcasecmp(l.names[i], file) == 0)
            add_cand(c, join(where, l.names[i]),
                     dir_rule | (strcmp(l.names[i], file) ? GR_INTAKE_CASE : 0));
    struct stat st;
    if (w->truncated && fstatat(sub, file, &st, AT_SYMLINK_NOFOLLOW) == 0)
        add_cand(c, join(where, file), dir_rule);
    free(where);
    listing_free(&l);
    close(sub);
}

/* Lab lab's candidates in the folder fd (base relative to the submission). */
static void lab_cands(int fd, const char *base, const listing *l, int lab, int level_rule,
                      walk *w, cands *c)
{
    char file[16];
    gr_intake_file_name(lab, file);
    const char *dir = gr_layout_dir(lab);
    memset(c, 0, sizeof *c);
    for (int i = 0; i < l->n; i++) {
        const char *name = l->names[i];
        int cased = strcmp(name, file) && strcmp(name, dir) ? GR_INTAKE_CASE : 0;
        if (strcasecmp(name, file) == 0)
            add_cand(c, join(base, name), level_rule | cased);
        else if (strcasecmp(name, dir) == 0)
            in_lab_folder(fd, base, name, level_rule | cased, file, w, c);
    }
    struct stat st;
    if (w->truncated) {       /* the listing stopped short: the exact names still count */
        if (fstatat(fd, file, &st, AT_SYMLINK_NOFOLLOW) == 0)
            add_cand(c, join(base, file), level_rule);
        if (fstatat(fd, dir, &st, AT_SYMLINK_NOFOLLOW) == 0)
            in_lab_folder(fd, base, dir, level_rule, file, w, c);
    }
}

static void cands_free(cands *c)
{
    for (int i = 0; i < c->n && i < 2; i++)
        free(c->rel[i]);
}

/* ---- the whole submission ------------------------------------------------------- */

const char *gr_intake_file_name(int lab, char buf[16])
{
    char *name = gr_layout_name(lab, ".c");
    snprintf(buf, 16, "%s", name ? name : "");
    free(name);
    return buf;
}

/* Why rel was taken for lab under rule, in words. */
static char *how_of(const char *base, const char *rel, int rule, int lab)
{
    char file[16];
    gr_intake_file_name(lab, file);
    gr_strbuf b = {0};
    if (rule & GR_INTAKE_WRAPPED)
        gr_sb_printf(&b, "inside the folder %s, not at the top of the submission", base);
    const char *here = rel + (*base ? strlen(base) + 1 : 0);
    if (rule & GR_INTAKE_CASE)
        gr_sb_printf(&b, "%sits name in another case, %s for %s%s%s", b.len ? "; " : "", here,
                     strchr(here, '/') ? gr_layout_dir(lab) : "",
                     strchr(here, '/') ? "/" : "", file);
    return gr_sb_take(&b);
}

/* 1 when the folder fd holds a file (not a folder) anywhere, or more than
   the bounds let us look at. */
static int holds_a_file(int fd, int depth, walk *w)
{
    listing l;
    list_dir(fd, w, &l);
    int found = 0;
    for (int i = 0; i < l.n && !found; i++) {
        if (!l.is_dir[i] || depth >= GR_INTAKE_MAX_DEPTH) {
            found = 1;                /* a file, or too deep to tell: not empty */
        } else {
            int sub = openat(fd, l.names[i], DIR_FLAGS);
            found = sub >= 0 && holds_a_file(sub, depth + 1, w);
            if (sub >= 0)
                close(sub);
        }
    }
    found |= w->truncated;    /* too much to look at is not empty */
    listing_free(&l);
    return found;
}

/* Fill in->labs from the candidates at one level; 1 when any lab had one. */
static int take_level(gr_intake *in, int fd, const char *base, const listing *l, int rule,
                      walk *w)
{
    cands c[GR_N_LABS];
    int any = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        lab_cands(fd, base, l, lab, rule, w, &c[lab - 1]);
        any |= c[lab - 1].n > 0;
    }
    for (int lab = 1; lab <= GR_N_LABS && any; lab++) {
        gr_intake_lab *il = &in->labs[lab - 1];
        cands *k = &c[lab - 1];
        il->status = k->n == 0 ? GR_INTAKE_MISSING : k->n == 1 ? GR_INTAKE_FOUND
                                                               : GR_INTAKE_AMBIGUOUS;
        if (k->n > 0) {
            il->rel = k->rel[0];
            il->rule = k->rule[0];
            k->rel[0] = NULL;
        }
        if (k->n > 1) {
            il->other = k->rel[1];
            k->rel[1] = NULL;
        }
        if (il->status == GR_INTAKE_FOUND) {
            in->n_found++;
            if (il->rule != GR_INTAKE_EXACT) {
                il->how = how_of(base, il->rel, il->rule, lab);
                in->n_forgiven++;
            }
        }
    }
    for (int lab = 0; lab < GR_N_LABS; lab++)
        cands_free(&c[lab]);
    return any;
}

/* The folder of l to enter when a level holds no lab: its only entry, when
   that is a folder, else a folder called labs; -1 when neither. */
static int next_level(const listing *l)
{
    if (l->n == 1 && l->is_dir[0])
        return 0;
    for (int i = 0; i < l->n; i++)
        if (l->is_dir[i] && strcasecmp(l->names[i], "labs") == 0)
            return i;
    return -1;
}

int gr_intake_scan(const char *submission, gr_intake *in, char *err, size_t errlen)
{
    memset(in, 0, sizeof *in);
    for (int lab = 0; lab < GR_N_LABS; lab++)
        in->labs[lab].status = GR_INTAKE_MISSING;
    int fd = open(submission, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        gr_set_err(err, errlen, "cannot open the submission folder %s: %s", submission,
                   strerror(errno));
        return -1;
    }
    walk w = {GR_INTAKE_MAX_ENTRIES, 0};
    char *base = gr_xstrdup("");
    for (int depth = 0;; depth++) {
        listing l;
        list_dir(fd, &w, &l);
        int found = take_level(in, fd, base, &l, depth ? GR_INTAKE_WRAPPED : GR_INTAKE_EXACT, &w);
        int next = found || depth >= GR_INTAKE_MAX_DEPTH ? -1 : next_level(&l);
        int sub = next >= 0 ? openat(fd, l.names[next], DIR_FLAGS) : -1;
        if (sub >= 0) {
            char *deeper = join(base, l.names[next]);
            free(base);
            base = deeper;
            close(fd);
            fd = sub;
        }
        listing_free(&l);
        if (sub < 0)
            break;
    }
    close(fd);
    in->base = base;
    in->truncated = w.truncated;
    if (in->n_found == 0) {
        walk fresh = {GR_INTAKE_MAX_ENTRIES, 0};
        int top = open(submission, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        in->empty = top >= 0 && !holds_a_file(top, 0, &fresh);
        if (top >= 0)
            close(top);
    }
    return 0;
}

void gr_intake_free(gr_intake *in)
{
    for (int lab = 0; lab < GR_N_LABS; lab++) {
        free(in->labs[lab].rel);
        free(in->labs[lab].other);
        free(in->labs[lab].how);
    }
    free(in->base);
    memset(in, 0, sizeof *in);
}

char *gr_intake_take(const char *submission, const gr_intake *in, int lab, gr_verdict *verdict,
                     char **message)
{
    const gr_intake_lab *il = &in->labs[lab - 1];
    if (il->status != GR_INTAKE_FOUND) {
        *verdict = il->status == GR_INTAKE_MISSING ? GR_MISSING : GR_AMBIGUOUS;
        *message = gr_intake_problem(il, lab);
        return NULL;
    }
    char *text = NULL, why[512];
    size_t len;
    int rc = gr_intake_read(submission, il->rel, GR_INTAKE_MAX_FILE, &text, &len, why, sizeof why);
    free(text);
    if (rc == 0)
        return gr_xasprintf("%s/%s", submission, il->rel);
    *verdict = GR_UNREADABLE;
    *message = rc > 0 ? gr_xasprintf("%s: submit the source file itself", why)
                      : gr_xasprintf("cannot read %s (%s): submit it again", il->rel,
                                     strerror(errno));
    return NULL;
}

char *gr_intake_problem(const gr_intake_lab *l, int lab)
{
    char file[16];
    gr_intake_file_name(lab, file);
    const char *dir = gr_layout_dir(lab);
    if (l->status == GR_INTAKE_AMBIGUOUS)
        return gr_xasprintf("two files could be lab %d's, %s and %s, and attnlab does not "
                            "guess which: keep one (%s/%s or %s) and submit again", lab,
                            l->rel, l->other, dir, file, file);
    return gr_xasprintf("no %s in the submission: put it at %s/%s (the labs/ layout) or "
                        "at the top as %s, and submit again", file, dir, file, file);
}
