/* handin.c: hand-in times and student ids from the instructor's side: a
 * Gradescope export's submission_metadata.yml and an instructor's times file
 * (see handin.h). */
#include "class/handin.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "class/course.h"
#include "sup_yamlread.h"
#include "base/util.h"

int gr_id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 200 || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '/')
            return 0;
    return 1;
}

/* ---- a Gradescope export --------------------------------------------------------- */

/* The text of scalar key of map ("" when absent or null), or NULL after an
   error at the value when it is not a single value. */
static const char *scalar_of(yr_doc *d, const yaml_node_t *map, const char *key)
{
    const yaml_node_t *v = yr_value(d, map, key);
    if (!v || yr_is_null(v))
        return "";
    if (v->type != YAML_SCALAR_NODE) {
        yr_fail_at(d, v, "%s: expected a single value, got %s", key, yr_kind_name(v));
        return NULL;
    }
    return yr_text(v);
}

/* One submitter (a mapping of :name, :sid, :email) into *w. 0 or -1. */
static int read_submitter(yr_doc *d, const yaml_node_t *v, const char *folder, gr_submitter *w)
{
    if (!v || v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v, "%s: a submitter is a mapping of :name, :sid and :email", folder);
    const char *name = scalar_of(d, v, ":name"), *sid = scalar_of(d, v, ":sid");
    const char *email = scalar_of(d, v, ":email");
    if (!name || !sid || !email)
        return -1;
    const char *id = *email ? email : sid;
    if (!*id)
        return yr_fail_at(d, v, "%s: a submitter with neither :email nor :sid; attnlab names "
                          "a student by their email (as run_autograder does), else their sid",
                          folder);
    if (!gr_id_ok(id))
        return yr_fail_at(d, v, "%s: \"%s\" cannot name a student (a '/', a control character, "
                          "or over 200 bytes)", folder, id);
    w->id = gr_xstrdup(id);
    w->name = gr_xstrdup(name);
    w->email = gr_xstrdup(email);
    return 0;
}

/* One submission: folder key k, its mapping v. 0 or -1. */
static int read_submission(yr_doc *d, const yaml_node_t *k, const yaml_node_t *v, gr_handin_sub *s)
{
    const char *folder = yr_text(k);
    s->folder = gr_xstrdup(folder);
    s->line = (int)yr_pos_of(k).line;
    s->column = (int)yr_pos_of(k).column;
    if (!gr_id_ok(folder))
        return yr_fail_at(d, k, "\"%s\" is not a submission folder's name", folder);
    if (!v || v->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, v ? v : k, "%s: expected a mapping with :submitters and :created_at",
                          folder);
    const yaml_node_t *who = yr_value(d, v, ":submitters");
    if (who && (yr_is_null(who) || (who->type == YAML_SEQUENCE_NODE && yr_count(who) == 0)))
        return 0;                                /* no one to name: n_who 0 */
    if (!who || who->type != YAML_SEQUENCE_NODE)
        return yr_fail_at(d, who ? who : k, "%s: no :submitters list; is this the "
                          "submission_metadata.yml of a Gradescope export?", folder);
    s->n_who = yr_count(who);
    s->who = gr_xcalloc((size_t)s->n_who, sizeof *s->who);
    for (int i = 0; i < s->n_who; i++)
        if (read_submitter(d, yr_item(d, who, i), folder, &s->who[i]) != 0)
            return -1;
    const yaml_node_t *at = yr_value(d, v, ":created_at");
    if (!at || yr_is_null(at))
        return 0;                                /* no time known: never late */
    if (at->type != YAML_SCALAR_NODE || gr_parse_time(yr_text(at), &s->created) != 0)
        return yr_fail_at(d, at, "%s: :created_at is not a time with its UTC offset "
                          "(2025-02-07 23:41:07.365935000 -05:00)", folder);
    s->have_created = 1;
    return 0;
}

/* Every submission of one document's root mapping, added to x. 0 or -1. */
static int read_export(yr_doc *d, const yaml_node_t *root, gr_handin *x)
{
    static const char want[] = "expected a mapping of submission folder to its :submitters "
                               "and :created_at, as a Gradescope export writes it";
    if (!root)
        return yr_fail(d, "%s", want);
    if (root->type != YAML_MAPPING_NODE)
        return yr_fail_at(d, root, "%s", want);
    const yaml_node_pair_t *p0 = root->data.mapping.pairs.start;
    size_t more = (size_t)(root->data.mapping.pairs.top - p0);
    x->subs = gr_xrealloc(x->subs, ((size_t)x->n + more + 1) * sizeof *x->subs);
    memset(x->subs + x->n, 0, (more + 1) * sizeof *x->subs);
    for (const yaml_node_pair_t *p = p0; p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k;
        if (yr_key(d, root, p, "the export", &k) != 0)
            return -1;
        const gr_handin_sub *first = gr_handin_find(x, yr_text(k));
        if (first)                               /* in an earlier document */
            return yr_fail_at(d, k, "%s is named twice (first on line %d); Gradescope names "
                              "each submission once", yr_text(k), first->line);
        if (read_submission(d, k, yr_node(d, p->value), &x->subs[x->n++]) != 0)
            return -1;
    }
    return 0;
}

/* A copy of text[0..len) with each "..." line (a document's end) written
   "---": libyaml reads YAML 1.1, which refuses a document after "..." that
   does not open with "---" (YAML 1.2 allows one), and stopping at the
   first would drop every submission after it. Same length, so every
   line:column holds. */
static char *ends_as_starts(const char *text, size_t len)
{
    char *t = gr_xmalloc(len + 1);
    memcpy(t, text, len);
    t[len] = '\0';
    for (size_t i = 0; i + 3 <= len; i++)
        if ((i == 0 || t[i - 1] == '\n') && memcmp(t + i, "...", 3) == 0 &&
            strchr(" \t\r\n#", t[i + 3]))        /* '\0' too: the end */
            memcpy(t + i, "---", 3);
    return t;
}

int gr_handin_parse(const char *path, const char *text, size_t len, gr_handin *x, char *err,
                    size_t errlen)
{
    memset(x, 0, sizeof *x);
    x->path = gr_xstrdup(path);
    char *t = ends_as_starts(text, len);
    yr_doc d;
    int rc = yr_open(&d, path, t, len, err, errlen);
    for (int docs = 0; rc == 0; docs++) {        /* every document, not the first only */
        const yaml_node_t *root = yr_root(&d);
        if (docs > 0 && !root)
            break;                               /* the end of the file */
        if (docs == 0 || !yr_is_null(root))      /* "---" then nothing: an empty one */
            rc = read_export(&d, root, x);
        if (rc == 0)
            rc = yr_next(&d);
    }
    yr_close(&d);
    free(t);
    if (rc != 0)
        gr_handin_free(x);
    return rc;
}

int gr_handin_load(const char *dir, gr_handin *x, char *err, size_t errlen)
{
    memset(x, 0, sizeof *x);
    char *path = gr_xasprintf("%s/submission_metadata.yml", dir), *text = NULL, why[256] = "";
    size_t len = 0;
    int r = gr_read_regular(path, GR_HANDIN_MAX, &text, &len, why, sizeof why);
    if (r == 0)
        r = gr_handin_parse(path, text, len, x, err, errlen) == 0 ? 1 : -1;
    else if (r < 0 && errno == ENOENT)
        r = 0;                                   /* not an export */
    else {
        gr_set_err(err, errlen, "%s: cannot read the export's submission metadata: %s; it must "
                   "be the regular file Gradescope's export puts beside the submission folders",
                   path, r > 0 ? why : strerror(errno));
        r = -1;
    }
    free(text);
    free(path);
    return r;
}

void gr_handin_free(gr_handin *x)
{
    for (int i = 0; i < x->n; i++) {
        for (int j = 0; x->subs[i].who && j < x->subs[i].n_who; j++) {
            free(x->subs[i].who[j].id);
            free(x->subs[i].who[j].name);
            free(x->subs[i].who[j].email);
        }
        free(x->subs[i].who);
        free(x->subs[i].folder);
    }
    free(x->subs);
    free(x->path);
    memset(x, 0, sizeof *x);
}

const gr_handin_sub *gr_handin_find(const gr_handin *x, const char *folder)
{
    for (int i = 0; i < x->n; i++)
        if (strcmp(x->subs[i].folder, folder) == 0)
            return &x->subs[i];
    return NULL;
}

/* 1 when path is there as itself (lstat: a link is not followed). */
static int there(const char *path, int want_dir)
{
    struct stat st;
    return lstat(path, &st) == 0 && (!want_dir || S_ISDIR(st.st_mode));
}

char *gr_handin_below(const char *dir)
{
    char *meta = gr_xasprintf("%s/submission_metadata.yml", dir), *one = NULL;
    int n = 0, here = there(meta, 0);
    free(meta);
    DIR *d = here ? NULL : opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL; )
        if (e->d_name[0] != '.' && n++ == 0)
            one = gr_xasprintf("%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
    size_t len = one ? strlen(one) : 0;
    meta = one ? gr_xasprintf("%s/submission_metadata.yml", one) : NULL;
    int found = n == 1 && len > 7 && strcmp(one + len - 7, "_export") == 0 && there(one, 1) &&
                there(meta, 0);
    free(meta);
    if (!found) {
        free(one);
        return NULL;
    }
    return one;
}

/* ---- an instructor's times file ------------------------------------------------------ */

/* Add id at when (written at line:column) to t: 0, or -1 with err when id is
   no id or is there already. */
static int add_time(gr_times *t, const char *id, time_t when, int line, int column, char *err,
                    size_t errlen)
{
    const gr_time_entry *old = gr_times_find(t, id);
    if (!gr_id_ok(id) || old) {
        if (old)
            gr_set_err(err, errlen, "%s:%d:%d: %s has a time already, on line %d", t->path, line,
                       column, id, old->line);
        else
            gr_set_err(err, errlen, "%s:%d:%d: \"%s\" is not a student id", t->path, line, column, id);
        return -1;
    }
    t->e = gr_xrealloc(t->e, (size_t)(t->n + 1) * sizeof *t->e);
    t->e[t->n++] = (gr_time_entry){gr_xstrdup(id), when, line, column};
    return 0;
}

static const char time_like[] = "an ISO 8601 time with its UTC offset, like "
                                "2025-02-07T23:41:00-05:00 or 2025-02-08T04:41Z";

/* The id: time lines of the document's root mapping into the times target. 0 or -1. */
static int read_times(yr_doc *d, const yaml_node_t *root, void *target)
{
    gr_times *t = target;
    if (!root || root->type != YAML_MAPPING_NODE)
        return yr_fail(d, "expected a mapping of student id to hand-in time "
                       "(s001: 2025-02-07T23:41:00-05:00)");
    for (const yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k, *v = yr_node(d, p->value);
        const char *s;
        time_t when;
        if (yr_key(d, root, p, "the times", &k) != 0 ||
            yr_get_string(d, v, yr_text(k), YR_NONEMPTY, &s) != 0)
            return -1;
        if (gr_parse_time(s, &when) != 0)
            return yr_fail_at(d, v, "%s: \"%s\" is not %s", yr_text(k), s, time_like);
        if (add_time(t, yr_text(k), when, (int)yr_pos_of(k).line, (int)yr_pos_of(k).column,
                     d->err, d->errlen) != 0)
            return -1;
    }
    return 0;
}

/* id: time lines of a YAML mapping. 0 or -1. */
static int times_yaml(gr_times *t, const char *text, size_t len, char *err, size_t errlen)
{
    static const yr_spec spec = {"the times", NULL, NULL, NULL, 0, read_times, NULL};
    return yr_load(t->path, text, len, &spec, t, err, errlen);
}

/* A CSV cell text[0..n) without spaces around it or the quotes of a simple
   quoted cell (malloc'd). */
static char *csv_cell(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
        s++, n -= 2;
    return gr_xasprintf("%.*s", (int)n, s);
}

/* id,time lines; a first line "id,time" is a header. 0 or -1. */
static int times_csv(gr_times *t, const char *text, char *err, size_t errlen)
{
    int line = 0;
    for (const char *p = text; *p; ) {
        size_t n = strcspn(p, "\n");
        line++;
        const char *comma = memchr(p, ',', n);
        char *id = comma ? csv_cell(p, (size_t)(comma - p)) : csv_cell(p, n);
        char *when_s = comma ? csv_cell(comma + 1, n - (size_t)(comma + 1 - p)) : NULL;
        int rc = 0;
        time_t when;
        if (!*id && !when_s)
            ;                                    /* a blank line */
        else if (line == 1 && when_s && strcmp(id, "id") == 0 && strcmp(when_s, "time") == 0)
            ;                                    /* the header */
        else if (!when_s)
            gr_set_err(err, errlen, "%s:%d:1: expected id,time", t->path, line), rc = -1;
        else if (gr_parse_time(when_s, &when) != 0)
            gr_set_err(err, errlen, "%s:%d:%d: \"%s\" is not %s", t->path, line,
                       (int)(comma + 2 - p), when_s, time_like), rc = -1;
        else
            rc = add_time(t, id, when, line, 1, err, errlen);
        free(id);
        free(when_s);
        if (rc != 0)
            return -1;
        p += n + (p[n] == '\n');
    }
    return 0;
}

int gr_times_parse(const char *path, const char *text, size_t len, gr_times *t, char *err,
                   size_t errlen)
{
    memset(t, 0, sizeof *t);
    t->path = gr_xstrdup(path);
    size_t n = strlen(path);
    int rc;
    if (memchr(text, '\0', len))
        rc = -1, gr_set_err(err, errlen, "%s: a NUL byte; the times are text", path);
    else if (n > 4 && strcmp(path + n - 4, ".csv") == 0) {
        char *z = gr_xasprintf("%.*s", (int)len, text);      /* NUL-terminated */
        rc = times_csv(t, z, err, errlen);
        free(z);
    } else
        rc = times_yaml(t, text, len, err, errlen);
    if (rc != 0)
        gr_times_free(t);
    return rc;
}

int gr_times_load(const char *path, gr_times *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    size_t len = 0;
    char *text = gr_read_file(path, &len);
    if (!text) {
        gr_set_err(err, errlen, "%s: cannot read the times: %s", path, strerror(errno));
        return -1;
    }
    int rc = gr_times_parse(path, text, len, t, err, errlen);
    free(text);
    return rc;
}

void gr_times_free(gr_times *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->e[i].id);
    free(t->e);
    free(t->path);
    memset(t, 0, sizeof *t);
}

const gr_time_entry *gr_times_find(const gr_times *t, const char *id)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->e[i].id, id) == 0)
            return &t->e[i];
    return NULL;
}
