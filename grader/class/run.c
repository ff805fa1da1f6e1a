/* run.c: a batch output's run.txt (see run.h). */
#include "class/run.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "class/key.h"
#include "class/shard.h"
#include "engine/seed.h"
#include "base/util.h"

#define RUN_FILE "run.txt"
#define STARTED_FILE "run.started"
#define RUN_MAX ((size_t)256 << 20)     /* a class of 100 000 is a few tens of MB */

/* ---- what identifies a run ---------------------------------------------------------- */

/* The digest of the file at path, "none" without a path. */
static char *file_digest(const char *path)
{
    if (!path)
        return gr_xstrdup("none");
    size_t len = 0;
    char *text = gr_read_file(path, &len);
    char *hex = text ? gr_key_digest(text, len) : gr_xstrdup("unreadable");
    free(text);
    return hex;
}

char *gr_run_secret_check(const char *secret)
{
    return gr_xasprintf("%016llx", (unsigned long long)gr_seed(secret ? secret : "", "attnlab run",
                                                               0, "secret"));
}

char *gr_run_rubrics_digest(const gr_batch_opts *o)
{
    gr_strbuf m = {0};
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (o->labs[lab - 1])
            gr_key_lab_files(&m, o, lab);
    char *hex = gr_key_digest(m.s ? m.s : "", m.len);
    free(m.s);
    return hex;
}

void gr_run_identify(const gr_batch_opts *o, const gr_class *c, gr_run *r)
{
    memset(r, 0, sizeof *r);
    r->k = o->shard_n > 1 ? o->shard_k : 1;
    r->n = o->shard_n > 1 ? o->shard_n : 1;
    r->program = gr_key_program();
    r->secret = gr_run_secret_check(o->secret);
    r->rubrics = gr_run_rubrics_digest(o);
    gr_strbuf m = {0};
    r->course = file_digest(c->course ? o->course_file : NULL);
    r->roster = file_digest(o->roster);
    /* the times' sources: a times file, the files' own times, an export's metadata */
    char *times = file_digest(o->times);
    char *meta_path = gr_xasprintf("%s/submission_metadata.yml", o->submissions);
    char *meta = file_digest(meta_path);
    gr_sb_printf(&m, "times %s\nfile_times %d\nexport %s\n", times, o->file_times, meta);
    r->times = gr_key_digest(m.s, m.len);
    free(m.s);
    memset(&m, 0, sizeof m);
    free(times);
    free(meta_path);
    free(meta);
    memcpy(r->labs, o->labs, sizeof r->labs);
    r->class_n = c->n;
    for (int i = 0; i < c->n; i++)
        gr_sb_printf(&m, "%s\n", c->students[i].id);
    r->class_ids = gr_key_digest(m.s ? m.s : "", m.len);
    free(m.s);
    gr_run_settings_of(o, &r->set);
}

const char *gr_run_differs(const gr_run *a, const gr_run *b)
{
    if (strcmp(a->secret, b->secret) != 0)
        return "secrets (ATTNLAB_SECRET)";
    if (strcmp(a->rubrics, b->rubrics) != 0 || memcmp(a->labs, b->labs, sizeof a->labs) != 0)
        return "labs, rubrics or contract headers (--lab, --rubrics)";
    if (strcmp(a->course, b->course) != 0)
        return "course policies (--course)";
    if (strcmp(a->roster, b->roster) != 0)
        return "rosters (--roster)";
    if (strcmp(a->times, b->times) != 0)
        return "hand-in times (--times, --file-times, the export's metadata)";
    if (strcmp(a->program, b->program) != 0)
        return "builds of attnlab";
    if (a->class_n != b->class_n || strcmp(a->class_ids, b->class_ids) != 0)
        return "classes (the submissions folder did not hold the same students)";
    return NULL;
}

void gr_run_free(gr_run *r)
{
    free(r->program);
    free(r->secret);
    free(r->rubrics);
    free(r->course);
    free(r->roster);
    free(r->times);
    free(r->class_ids);
    free(r->submissions);
    gr_class_settings_free(&r->set);
    memset(r, 0, sizeof *r);
}

/* ---- run.txt ------------------------------------------------------------------------ */

/* The fields of a student line and of a lab line, read and written by one table. */
enum kind { STR, INT, TIME, STATUS };
typedef struct field {
    const char *key;
    enum kind kind;
    size_t off;
    long max;           /* INT: the largest value read */
} field;

/* A lab line: one lab of the student before it. */
typedef struct lab_line {
    long long when;
    int days_late;
    gr_intake_lab il;
} lab_line;

#define ST(f) offsetof(gr_student, f)
static const field student_fields[] = {
    {"id", STR, ST(id), 0},
    {"folder", STR, ST(folder), 0},
    {"same_as", STR, ST(same_as), 0},
    {"name", STR, ST(name), 0},
    {"email", STR, ST(email), 0},
    {"sis_user_id", STR, ST(sis_user_id), 0},
    {"sis_login_id", STR, ST(sis_login_id), 0},
    {"section", STR, ST(section), 0},
    {"on_roster", INT, ST(on_roster), 1},
    {"submitted", INT, ST(submitted), 1},
    {"resumed", INT, ST(resumed), 1},
    {"base", STR, ST(intake.base), 0},
    {"empty", INT, ST(intake.empty), 1},
    {"truncated", INT, ST(intake.truncated), 1},
    {"found", INT, ST(intake.n_found), GR_N_LABS},
    {"forgiven", INT, ST(intake.n_forgiven), GR_N_LABS},
};
#define LB(f) offsetof(lab_line, f)
static const field lab_fields[] = {
    {"when", TIME, LB(when), 0},
    {"days_late", INT, LB(days_late), 100000},
    {"status", STATUS, LB(il.status), 0},
    {"rel", STR, LB(il.rel), 0},
    {"other", STR, LB(il.other), 0},
    {"rule", INT, LB(il.rule), GR_INTAKE_WRAPPED | GR_INTAKE_CASE},
    {"how", STR, LB(il.how), 0},
};
#define N_FIELDS(t) ((int)(sizeof t / sizeof t[0]))

static const char *const status_names[] = {"missing", "found", "ambiguous"};

/* s percent-encoded: a byte below 0x21, 0x7f or '%' as %XX, others as they are. */
static void put_enc(gr_strbuf *b, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x21 || *p == 0x7f || *p == '%')
            gr_sb_printf(b, "%%%02X", *p);
        else
            gr_sb_appendn(b, (const char *)p, 1);
    }
}

/* The fields of t[0..n) of the struct at base, " key=value" each; a NULL
   string is left out, and so is a zero number unless always. */
static void put_fields(gr_strbuf *b, const field *t, int n, const void *base, int always)
{
    const char *p = base;
    for (int i = 0; i < n; i++) {
        const void *v = p + t[i].off;
        if (t[i].kind == STR) {
            const char *s = *(char *const *)v;
            if (s) {
                gr_sb_printf(b, " %s=", t[i].key);
                put_enc(b, s);
            }
        } else if (t[i].kind == TIME) {
            if (always || *(const long long *)v)
                gr_sb_printf(b, " %s=%lld", t[i].key, *(const long long *)v);
        } else if (t[i].kind == STATUS) {
            gr_sb_printf(b, " %s=%s", t[i].key, status_names[*(const gr_intake_status *)v]);
        } else if (always || *(const int *)v) {
            gr_sb_printf(b, " %s=%d", t[i].key, *(const int *)v);
        }
    }
}

/* The lab lines of s: each lab with anything to say. */
static void put_labs(gr_strbuf *b, const gr_student *s)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        lab_line l = {s->have_when[lab - 1] ? (long long)s->when[lab - 1] : 0,
                      s->days_late[lab - 1], s->intake.labs[lab - 1]};
        if (!s->have_when[lab - 1] && !l.days_late && l.il.status == GR_INTAKE_MISSING &&
            !l.il.rel && !l.il.other && !l.il.how && !l.il.rule)
            continue;
        gr_sb_printf(b, "lab %d", lab);
        put_fields(b, lab_fields, N_FIELDS(lab_fields), &l, 0);
        if (s->have_when[lab - 1] && !l.when)
            gr_sb_append(b, " when=0");
        gr_sb_append(b, "\n");
    }
}

int gr_run_clear(const char *out, char *err, size_t errlen)
{
    char *path = gr_xasprintf("%s/" RUN_FILE, out);
    int rc = unlink(path) == 0 || errno == ENOENT ? 0 : -1;
    if (rc != 0)
        gr_set_err(err, errlen, "cannot remove %s: %s", path, strerror(errno));
    free(path);
    return rc;
}

/* s percent-encoded, "-" for NULL (and %2D for "-" itself). */
static void put_opt(gr_strbuf *b, const char *s)
{
    if (!s)
        gr_sb_append(b, "-");
    else if (strcmp(s, "-") == 0)
        gr_sb_append(b, "%2D");
    else
        put_enc(b, s);
}

/* The record's own lines: what identifies the run, its settings, the class's facts. */
static void put_head(gr_strbuf *b, const gr_run *r, const gr_class *c)
{
    gr_sb_printf(b, "attnlab run 1\nshard %d %d\nprogram %s\nsecret %s\nrubrics %s\n"
                 "course %s\nroster %s\ntimes %s\nlabs", r->k, r->n, r->program, r->secret,
                 r->rubrics, r->course, r->roster, r->times);
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (r->labs[lab - 1])
            gr_sb_printf(b, " %d", lab);
    gr_sb_append(b, "\n");
    for (int k = 0; k < GR_SET_COUNT; k++) {
        if (!r->set.given[k] && !r->set.value[k])
            continue;
        gr_sb_printf(b, "setting %s ", gr_class_setting_name((gr_setting)k));
        put_opt(b, r->set.given[k]);
        gr_sb_append(b, " ");
        put_opt(b, r->set.value[k]);
        gr_sb_append(b, "\n");
    }
    gr_sb_printf(b, "class %d %s\n", r->class_n, r->class_ids);
    if (c->times_from) {
        gr_sb_append(b, "times_from ");
        put_enc(b, c->times_from);
        gr_sb_append(b, "\n");
    }
    gr_sb_printf(b, "roster_read %d\ngraded %d %d\n", c->roster, c->graded_now, c->resumed);
    char *real = c->submissions ? realpath(c->submissions, NULL) : NULL;
    if (real || c->submissions) {
        gr_sb_append(b, "submissions ");
        put_enc(b, real ? real : c->submissions);
        gr_sb_append(b, "\n");
    }
    free(real);
}

/* text into out/name atomically. 0, or -1 with err. */
static int write_record(const char *out, const char *name, const gr_strbuf *b, char *err,
                        size_t errlen)
{
    char *path = gr_xasprintf("%s/%s", out, name);
    int rc = gr_write_file_atomic(path, b->s, b->len);
    if (rc != 0)
        gr_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    free(path);
    return rc;
}

int gr_run_start(const char *out, const gr_run *r, char *err, size_t errlen)
{
    gr_class none;
    memset(&none, 0, sizeof none);
    gr_strbuf b = {0};
    put_head(&b, r, &none);
    gr_sb_append(&b, "end\n");
    int rc = write_record(out, STARTED_FILE, &b, err, errlen);
    free(b.s);
    return rc;
}

int gr_run_write(const char *out, const gr_run *r, const gr_class *c, char *err, size_t errlen)
{
    gr_strbuf b = {0};
    put_head(&b, r, c);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        if (!gr_shard_has(r->k, r->n, s->id))
            continue;
        gr_sb_append(&b, "student");
        put_fields(&b, student_fields, N_FIELDS(student_fields), s, 1);
        gr_sb_append(&b, "\n");
        put_labs(&b, s);
    }
    gr_sb_append(&b, "end\n");
    int rc = write_record(out, RUN_FILE, &b, err, errlen);
    free(b.s);
    char *started = gr_xasprintf("%s/" STARTED_FILE, out);
    if (rc == 0 && unlink(started) != 0 && errno != ENOENT) {
        gr_set_err(err, errlen, "cannot remove %s: %s", started, strerror(errno));
        rc = -1;
    }
    free(started);
    return rc;
}

/* Reading run.txt: where we are, for messages. */
typedef struct reader {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} reader;

static int bad(reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(reader *rd, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gr_set_err(rd->err, rd->errlen, "%s:%d: %s (a damaged or forged batch output; grade "
               "this shard again)", rd->path, rd->line, msg);
    return -1;
}

static int hexval(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
         : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* The percent-encoded s decoded (malloc'd), or NULL for a bad escape or a NUL byte. */
static char *dec(const char *s)
{
    char *out = gr_xmalloc(strlen(s) + 1), *o = out;
    for (; *s; s++) {
        if (*s != '%') {
            *o++ = *s;
            continue;
        }
        int hi = hexval((unsigned char)s[1]), lo = hi < 0 ? -1 : hexval((unsigned char)s[2]);
        if (lo < 0 || (hi == 0 && lo == 0)) {
            free(out);
            return NULL;
        }
        *o++ = (char)(hi * 16 + lo);
        s += 2;
    }
    *o = '\0';
    return out;
}

/* "key=value" tokens of a line into the struct at base by table t. 0 or -1. */
static int get_fields(reader *rd, char *rest, const field *t, int n, void *base)
{
    unsigned seen = 0;
    char *save = NULL;
    for (char *tok = strtok_r(rest, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        int i = 0;
        if (eq)
            *eq = '\0';
        while (i < n && strcmp(t[i].key, tok) != 0)
            i++;
        if (!eq || i == n)
            return bad(rd, "unknown field '%.60s'", tok);
        if (seen & (1u << i))
            return bad(rd, "field %s given twice", t[i].key);
        seen |= 1u << i;
        char *v = eq + 1, *at = (char *)base + t[i].off, *end = NULL;
        if (t[i].kind == STR) {
            if (!(*(char **)at = dec(v)))
                return bad(rd, "field %s: a bad %%XX escape", t[i].key);
        } else if (t[i].kind == STATUS) {
            int k = 0;
            while (k < 3 && strcmp(v, status_names[k]) != 0)
                k++;
            if (k == 3)
                return bad(rd, "status '%.40s' is none of missing, found, ambiguous", v);
            *(gr_intake_status *)at = (gr_intake_status)k;
        } else {
            errno = 0;
            long long x = strtoll(v, &end, 10);
            if (end == v || *end || errno || (t[i].kind == INT && (x < 0 || x > t[i].max)))
                return bad(rd, "field %s: not a number in range", t[i].key);
            if (t[i].kind == INT)
                *(int *)at = (int)x;
            else
                *(long long *)at = x;
        }
    }
    return 0;
}

/* An id that is safe as a folder name and in a CSV cell: not empty, no '/',
   not . or .., no control character. */
static int safe_id(const char *s)
{
    if (!s || !*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f || *s == '/')
            return 0;
    return 1;
}

static void free_student(gr_student *s)
{
    free(s->id);
    free(s->folder);
    free(s->same_as);
    free(s->name);
    free(s->email);
    free(s->sis_user_id);
    free(s->sis_login_id);
    free(s->section);
    gr_intake_free(&s->intake);
}

/* A student line into a new student of c. 0 or -1. */
static int read_student(reader *rd, char *rest, gr_class *c)
{
    gr_student s;
    memset(&s, 0, sizeof s);
    int rc = get_fields(rd, rest, student_fields, N_FIELDS(student_fields), &s);
    if (rc == 0 && (!safe_id(s.id) || (s.same_as && !safe_id(s.same_as))))
        rc = bad(rd, "%s", "a student without a safe id (one folder name: no '/', no control "
                 "characters)");
    if (rc != 0) {
        free_student(&s);
        return -1;
    }
    c->students = gr_xrealloc(c->students, (size_t)(c->n + 1) * sizeof *c->students);
    c->students[c->n++] = s;
    return 0;
}

/* A lab line into the last student of c. 0 or -1. */
static int read_lab(reader *rd, char *rest, gr_class *c)
{
    char *end = NULL;
    long lab = strtol(rest, &end, 10);
    if (c->n == 0)
        return bad(rd, "%s", "a lab line before any student");
    if (end == rest || (*end && *end != ' ') || lab < 1 || lab > GR_N_LABS)
        return bad(rd, "'%.20s' is not a lab number", rest);
    gr_student *s = &c->students[c->n - 1];
    if (s->have_when[lab - 1] || s->days_late[lab - 1] || s->intake.labs[lab - 1].status ||
        s->intake.labs[lab - 1].rel || s->intake.labs[lab - 1].how)
        return bad(rd, "lab %s given twice for one student", rest);
    lab_line l;
    memset(&l, 0, sizeof l);
    int has_when = strstr(end, " when=") != NULL;
    if (get_fields(rd, end, lab_fields, N_FIELDS(lab_fields), &l) != 0) {
        free(l.il.rel);
        free(l.il.other);
        free(l.il.how);
        return -1;
    }
    s->have_when[lab - 1] = has_when;
    s->when[lab - 1] = (time_t)l.when;
    s->days_late[lab - 1] = l.days_late;
    s->intake.labs[lab - 1] = l.il;
    return 0;
}

/* A setting line's value: NULL for "-", else decoded into *out. 0 or -1. */
static int get_opt(const char *v, char **out)
{
    if (strcmp(v, "-") == 0)
        return 0;
    *out = dec(v);
    return *out && **out ? 0 : -1;
}

/* "NAME GIVEN VALUE" into r->set. 0 or -1. */
static int read_setting(reader *rd, char *rest, gr_run *r)
{
    char *save = NULL, *name = strtok_r(rest, " ", &save);
    char *given = strtok_r(NULL, " ", &save), *value = strtok_r(NULL, " ", &save);
    int k = name ? gr_class_setting_of(name) : -1;
    if (k < 0)
        return bad(rd, "unknown setting '%.40s'", name ? name : "");
    if (!value || strtok_r(NULL, " ", &save))
        return bad(rd, "setting %s: not a given value and a value", name);
    if (r->set.given[k] || r->set.value[k])
        return bad(rd, "setting %s given twice", name);
    if (get_opt(given, &r->set.given[k]) != 0 || get_opt(value, &r->set.value[k]) != 0)
        return bad(rd, "setting %s: a bad %%XX escape or nothing", name);
    return 0;
}

/* The run's own lines, each once. */
enum { L_SHARD, L_PROGRAM, L_SECRET, L_RUBRICS, L_COURSE, L_ROSTER, L_TIMES, L_LABS, L_CLASS,
       L_TIMES_FROM, L_ROSTER_READ, L_GRADED, L_SUBMISSIONS, L_COUNT };
static const char *const run_keys[L_COUNT] = {
    "shard", "program", "secret", "rubrics", "course", "roster", "times", "labs", "class",
    "times_from", "roster_read", "graded", "submissions",
};

/* "a b" into two numbers in [lo, hi]. 0 or -1. */
static int two_ints(const char *s, long lo, long hi, int *a, int *b)
{
    char *e1 = NULL, *e2 = NULL;
    long x = strtol(s, &e1, 10);
    if (e1 == s || *e1 != ' ')
        return -1;
    long y = strtol(e1 + 1, &e2, 10);
    if (e2 == e1 + 1 || *e2 || x < lo || x > hi || y < lo || y > hi)
        return -1;
    *a = (int)x;
    *b = (int)y;
    return 0;
}

/* One line of the run's own (key k, the rest after the space) into r and c. */
static int read_run_line(reader *rd, int k, char *rest, gr_run *r, gr_class *c)
{
    char **digest[] = {NULL, &r->program, &r->secret, &r->rubrics, &r->course, &r->roster,
                       &r->times};
    if (k >= L_PROGRAM && k <= L_TIMES) {
        if (!*rest || strlen(rest) > 64 || strchr(rest, ' '))
            return bad(rd, "%s: not a digest", run_keys[k]);
        *digest[k] = gr_xstrdup(rest);
    } else if (k == L_SHARD) {
        if (two_ints(rest, 1, GR_SHARD_MAX, &r->k, &r->n) != 0 || r->k > r->n)
            return bad(rd, "%s", "shard: not K N with 1 <= K <= N");
    } else if (k == L_LABS) {
        char *save = NULL, *end = NULL;
        for (char *t = strtok_r(rest, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            long lab = strtol(t, &end, 10);
            if (end == t || *end || lab < 1 || lab > GR_N_LABS)
                return bad(rd, "labs: '%.20s' is not a lab number", t);
            r->labs[lab - 1] = 1;
        }
    } else if (k == L_CLASS) {
        char *sp = strchr(rest, ' ');
        char *end = NULL;
        long n = strtol(rest, &end, 10);
        if (!sp || end != sp || n < 0 || n > 10000000 || !sp[1] || strlen(sp + 1) > 64)
            return bad(rd, "%s", "class: not a count and a digest");
        r->class_n = (int)n;
        r->class_ids = gr_xstrdup(sp + 1);
    } else if (k == L_TIMES_FROM) {
        if (!(c->times_from = dec(rest)))
            return bad(rd, "%s", "times_from: a bad %XX escape");
    } else if (k == L_SUBMISSIONS) {
        if (!(r->submissions = dec(rest)) || !*r->submissions)
            return bad(rd, "%s", "submissions: a bad %XX escape or nothing");
    } else if (k == L_ROSTER_READ) {
        if (strcmp(rest, "0") != 0 && strcmp(rest, "1") != 0)
            return bad(rd, "%s", "roster_read: not 0 or 1");
        c->roster = rest[0] == '1';
    } else if (two_ints(rest, 0, 10000000, &c->graded_now, &c->resumed) != 0) {
        return bad(rd, "%s", "graded: not two counts");
    }
    return 0;
}

/* The lines of text (NUL-terminated, modified) into r and c. 0 or -1. */
static int read_lines(reader *rd, char *text, gr_run *r, gr_class *c)
{
    int seen[L_COUNT] = {0}, ended = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        rd->line++;
        if (ended)
            return bad(rd, "%s", "a line after end");
        if (rd->line == 1) {
            if (strcmp(line, "attnlab run 1") != 0)
                return bad(rd, "%s", "not a run record of this attnlab (its first line is "
                           "'attnlab run 1')");
            continue;
        }
        char *sp = strchr(line, ' ');
        char *rest = sp ? sp + 1 : line + strlen(line);
        if (sp)
            *sp = '\0';
        int rc = 0;
        if (strcmp(line, "student") == 0) {
            rc = read_student(rd, rest, c);
        } else if (strcmp(line, "lab") == 0) {
            rc = read_lab(rd, rest, c);
        } else if (strcmp(line, "setting") == 0) {
            rc = read_setting(rd, rest, r);
        } else if (strcmp(line, "end") == 0 && !sp) {
            ended = 1;
        } else {
            int k = 0;
            while (k < L_COUNT && strcmp(line, run_keys[k]) != 0)
                k++;
            if (k == L_COUNT)
                return bad(rd, "unknown line '%.40s'", line);
            if (seen[k]++)
                return bad(rd, "%s given twice", run_keys[k]);
            rc = read_run_line(rd, k, rest, r, c);
        }
        if (rc != 0)
            return -1;
    }
    if (!ended)
        return bad(rd, "%s", "it stops before its end line");
    for (int k = 0; k < L_COUNT; k++)
        if (!seen[k] && k != L_TIMES_FROM && k != L_ROSTER_READ && k != L_SUBMISSIONS)
            return bad(rd, "no %s line", run_keys[k]);
    return 0;
}

/* dir/name (run.txt or run.started) into r and c, as gr_run_read says. */
static int read_record(const char *dir, const char *name, gr_run *r, gr_class *c, char *err,
                       size_t errlen)
{
    memset(r, 0, sizeof *r);
    char *path = gr_xasprintf("%s/%s", dir, name), *text = NULL, why[256] = "";
    size_t len = 0;
    int rc = gr_read_regular(path, RUN_MAX, &text, &len, why, sizeof why);
    if (rc < 0 && errno == ENOENT) {
        gr_set_err(err, errlen, "%s is not the output of attnlab batch (it has no %s)", dir,
                   name);
        free(path);
        return 1;
    }
    if (rc != 0) {
        gr_set_err(err, errlen, "%s: cannot read: %s", path, rc > 0 ? why : strerror(errno));
        free(path);
        return -1;
    }
    reader rd = {path, 0, err, errlen};
    rc = memchr(text, '\0', len) ? bad(&rd, "%s", "a NUL byte in the file")
                                 : read_lines(&rd, text, r, c);
    memcpy(c->labs, r->labs, sizeof c->labs);
    free(text);
    free(path);
    if (rc != 0)
        gr_run_free(r);
    return rc;
}

int gr_run_read(const char *dir, gr_run *r, gr_class *c, char *err, size_t errlen)
{
    return read_record(dir, RUN_FILE, r, c, err, errlen);
}

int gr_run_read_started(const char *dir, gr_run *r, gr_class *c, char *err, size_t errlen)
{
    return read_record(dir, STARTED_FILE, r, c, err, errlen);
}
