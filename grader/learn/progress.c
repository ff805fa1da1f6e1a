/* progress.c: a learner's progress, kept under the XDG state directory, and
 * the pristine stubs (see progress.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "learn/progress.h"
#include "base/layout.h"
#include "base/util.h"

#define PROGRESS_HEADER \
    "# attnlab progress 1: tree lab state score max passed total first_passed updated runs\n"
#define PROGRESS_FIELDS 10

/* How each state is written in the file: one word, no spaces. */
static const char *const state_words[GR_LAB_STATES] = {
    "not-started", "no-build", "partly", "passed",
};

const char *gr_progress_state_name(gr_lab_state s)
{
    static const char *const names[GR_LAB_STATES] = {
        "not started", "does not build", "partly passed", "passed",
    };
    return s < GR_LAB_STATES ? names[s] : "?";
}

gr_lab_state gr_progress_state_of(const gr_lab_result *lr)
{
    int passed = 0, not_impl = 0, no_build = 0;
    for (int i = 0; i < lr->n_tests; i++) {
        gr_verdict v = lr->tests[i].verdict;
        passed += v == GR_PASSED;
        not_impl += v == GR_NOT_IMPLEMENTED;
        no_build += v == GR_COMPILE_ERROR || v == GR_FORBIDDEN_CALL || v == GR_MISSING ||
                    v == GR_AMBIGUOUS || v == GR_UNREADABLE;
    }
    if (lr->n_tests == 0 || not_impl == lr->n_tests)
        return GR_LAB_NOT_STARTED;
    if (passed == lr->n_tests)
        return GR_LAB_PASSED;
    /* a build failure gives every test the same verdict */
    return no_build == lr->n_tests ? GR_LAB_NO_BUILD : GR_LAB_PARTLY;
}

/* ---- where the file lives ------------------------------------------------------ */

char *gr_progress_path(char *err, size_t errlen)
{
    const char *state = getenv("XDG_STATE_HOME");
    if (state && state[0] == '/')
        return gr_xasprintf("%s/attnlab/progress.tsv", state);
    const char *home = getenv("HOME");
    if (home && home[0] == '/')
        return gr_xasprintf("%s/.local/state/attnlab/progress.tsv", home);
    gr_set_err(err, errlen, "nowhere to keep progress: set XDG_STATE_HOME or HOME to an "
               "absolute path");
    return NULL;
}

/* mkdir -p of the folder holding path (each new folder 0700, as the XDG spec
   asks of the state directory). 0, or -1 with errno set. */
static int make_parents(const char *path)
{
    char *dir = gr_xstrdup(path);
    int rc = 0;
    for (char *p = dir + 1; *p && rc == 0; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            rc = -1;
        *p = '/';
    }
    free(dir);
    return rc;
}

/* ---- reading ---------------------------------------------------------------------- */

/* Split line (modified) at tabs into at most n fields; the number found. */
static int split_tabs(char *line, char **field, int n)
{
    int k = 0;
    for (char *p = line; k < n;) {
        field[k++] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = '\0';
    }
    return k;
}

/* A whole number from lo to hi in s into *v: 0, or -1. */
static int parse_ll(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

/* A finite number of points from 0 up in s into *v: 0, or -1. */
static int parse_points(const char *s, double *v)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end || !(x >= 0 && x < 1e9))
        return -1;
    *v = x;
    return 0;
}

/* One record line's fields after the tree into p's lab. NULL, or what is wrong. */
static const char *parse_record(char **f, gr_progress *p)
{
    long long lab, passed, total, first, updated, runs;
    gr_lab_progress lp;
    memset(&lp, 0, sizeof lp);
    if (parse_ll(f[1], 1, GR_N_LABS, &lab) != 0)
        return "the lab is not a lab number";
    int s = 0;
    while (s < GR_LAB_STATES && strcmp(f[2], state_words[s]) != 0)
        s++;
    if (s == GR_LAB_STATES)
        return "the state is not one of not-started, no-build, partly, passed";
    lp.state = (gr_lab_state)s;
    if (parse_points(f[3], &lp.score) != 0 || parse_points(f[4], &lp.max_score) != 0)
        return "the points are not numbers";
    if (parse_ll(f[5], 0, 1000000, &passed) != 0 || parse_ll(f[6], 0, 1000000, &total) != 0 ||
        parse_ll(f[9], 0, 1000000000, &runs) != 0)
        return "the test or run counts are not whole numbers";
    if (parse_ll(f[7], 0, (long long)1 << 62, &first) != 0 ||
        parse_ll(f[8], 0, (long long)1 << 62, &updated) != 0)
        return "the times are not whole numbers of seconds";
    lp.passed = (int)passed;
    lp.total = (int)total;
    lp.runs = (int)runs;
    lp.first_passed = first;
    lp.updated = updated;
    p->labs[lab - 1] = lp;
    return NULL;
}

int gr_progress_load(const char *path, const char *tree, gr_progress *p, char *err,
                     size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->tree = gr_xstrdup(tree);
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text) {
        if (errno == ENOENT)
            return 0;
        gr_set_err(err, errlen, "cannot read the progress file %s: %s", path, strerror(errno));
        gr_progress_free(p);
        return -1;
    }
    int line_no = 0, rc = 0;
    for (char *line = text, *next; line && *line && rc == 0; line = next) {
        line_no++;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *f[PROGRESS_FIELDS + 1];
        const char *why = NULL;
        if (split_tabs(line, f, PROGRESS_FIELDS + 1) != PROGRESS_FIELDS)
            why = "a record has 10 fields separated by tabs";
        else if (strcmp(f[0], tree) == 0)
            why = parse_record(f, p);
        if (why) {
            gr_set_err(err, errlen, "%s:%d: %s; the file only remembers progress, so delete it "
                       "to start afresh", path, line_no, why);
            rc = -1;
        }
    }
    free(text);
    if (rc != 0)
        gr_progress_free(p);
    return rc;
}

/* ---- writing ---------------------------------------------------------------------- */

int gr_progress_save(const char *path, const gr_progress *p, char *err, size_t errlen)
{
    if (strpbrk(p->tree, "\t\n")) {
        gr_set_err(err, errlen, "cannot keep progress for a folder whose name has a tab or a "
                   "line break: %s", p->tree);
        return -1;
    }
    gr_strbuf b = {0};
    gr_sb_append(&b, PROGRESS_HEADER);
    /* other trees' lines as they are */
    size_t len;
    char *old = gr_read_file(path, &len);
    for (char *line = old, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        size_t n = next ? (size_t)(next - line) : strlen(line);
        size_t tree_len = strlen(p->tree);
        int ours = n > tree_len && strncmp(line, p->tree, tree_len) == 0 && line[tree_len] == '\t';
        if (line[0] != '#' && n > 0 && !ours) {
            gr_sb_appendn(&b, line, n);
            gr_sb_append(&b, "\n");
        }
        next = next ? next + 1 : NULL;
    }
    free(old);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        const gr_lab_progress *lp = &p->labs[lab - 1];
        if (lp->updated == 0)                 /* never graded: nothing to remember */
            continue;
        gr_sb_printf(&b, "%s\t%d\t%s\t%g\t%g\t%d\t%d\t%lld\t%lld\t%d\n", p->tree, lab,
                     state_words[lp->state], lp->score, lp->max_score, lp->passed, lp->total,
                     lp->first_passed, lp->updated, lp->runs);
    }
    int rc = 0;
    if (make_parents(path) != 0 || gr_write_file_atomic(path, b.s, b.len) != 0) {
        gr_set_err(err, errlen, "cannot write the progress file %s: %s", path, strerror(errno));
        rc = -1;
    }
    free(b.s);
    return rc;
}

/* ---- recording -------------------------------------------------------------------- */

void gr_progress_record(gr_progress *p, const gr_lab_result *lr, long long now)
{
    gr_lab_progress *lp = &p->labs[lr->lab - 1];
    lp->state = gr_progress_state_of(lr);
    lp->score = lr->score;
    lp->max_score = lr->max_score;
    lp->total = lr->n_tests;
    lp->passed = 0;
    for (int i = 0; i < lr->n_tests; i++)
        lp->passed += lr->tests[i].verdict == GR_PASSED;
    if (lp->state != GR_LAB_PASSED)
        lp->first_passed = 0;               /* "passes since" starts again at the next pass */
    else if (lp->first_passed == 0)
        lp->first_passed = now;
    lp->updated = now;
    lp->runs++;
}

int gr_progress_next(const gr_progress *p)
{
    /* a lab begun and broken or unfinished comes before one not started */
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (p->labs[lab - 1].state == GR_LAB_PARTLY || p->labs[lab - 1].state == GR_LAB_NO_BUILD)
            return lab;
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (p->labs[lab - 1].state != GR_LAB_PASSED)
            return lab;
    return 0;
}

void gr_progress_free(gr_progress *p)
{
    free(p->tree);
    p->tree = NULL;
}

/* ---- the pristine stubs -------------------------------------------------------- */

int gr_progress_stub_untouched(const char *root, int lab, const char *path)
{
    char *stub_path = gr_layout_stub(root, lab);
    size_t stub_len, len = 0;
    char *stub = gr_read_file(stub_path, &stub_len);
    char *text = NULL, why[128];
    struct stat st;
    int other_size = stub && lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
                     (size_t)st.st_size != stub_len;
    /* path may be a student's: a regular file, no link, never blocking */
    if (stub && !other_size && gr_read_regular(path, stub_len, &text, &len, why, sizeof why) > 0)
        errno = EINVAL;
    int rc = other_size ? 0 : !stub || !text ? -1 : stub_len == len && memcmp(stub, text, len) == 0;
    free(stub_path);
    free(stub);
    free(text);
    return rc;
}
