/* export.c: a batch's gradebook as the CSV an LMS imports (see export.h). */
#include "class/export.h"
#include "class/batch_settings.h"
#include "class/roster.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "base/util.h"

/* A gradebook is the instructor's file, but a hand-edited one must still get
   an error, never a hang or a huge allocation. */
#define MAX_GRADEBOOK (64u << 20)     /* bytes */
#define MAX_CELL 4096                 /* bytes in one cell */
#define MAX_CELLS 1024                /* cells in one row */
#define MAX_POINTS 1e9                /* |points| in any cell read */

int gr_export_format_parse(const char *name, gr_export_format *f)
{
    static const char *const names[] = {"canvas", "moodle", "generic"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *f = (gr_export_format)i;
            return 0;
        }
    return -1;
}

const char *gr_export_file_name(gr_export_format f)
{
    return f == GR_LMS_CANVAS ? "canvas.csv" : f == GR_LMS_MOODLE ? "moodle.csv" : "generic.csv";
}

/* ---- reading gradebook.csv ------------------------------------------------------- */

/* One row's cells. */
typedef struct csv_row {
    char **cells;
    int n;
} csv_row;

static void row_free(csv_row *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->cells[i]);
    free(r->cells);
    memset(r, 0, sizeof *r);
}

/* The row at *p (RFC 4180: quoted cells may hold commas, "" and line ends)
   into r, *p moved past its line end. 0, or -1 with err. */
static int read_row(const char **p, const char *end, const char *path, int line, csv_row *r,
                    char *err, size_t errlen)
{
    const char *s = *p;
    for (;;) {
        gr_strbuf cell = {0};
        int quoted = s < end && *s == '"';
        if (quoted) {
            for (s++;; s++) {
                if (s >= end) {
                    free(cell.s);
                    gr_set_err(err, errlen, "%s:%d: a quoted cell is never closed", path, line);
                    return -1;
                }
                if (*s == '"' && (s + 1 >= end || s[1] != '"'))
                    break;
                s += *s == '"';
                gr_sb_appendn(&cell, s, 1);
                if (cell.len > MAX_CELL)
                    break;
            }
            s++;
        } else {
            while (s < end && *s != ',' && *s != '\r' && *s != '\n' && cell.len <= MAX_CELL)
                gr_sb_appendn(&cell, s++, 1);
        }
        if (cell.len > MAX_CELL || r->n >= MAX_CELLS || (cell.s && strlen(cell.s) != cell.len)) {
            free(cell.s);
            gr_set_err(err, errlen, "%s:%d: %s", path, line,
                       r->n >= MAX_CELLS ? "more than 1024 cells in a row"
                       : cell.len > MAX_CELL ? "a cell of more than 4096 bytes"
                                             : "a NUL byte in a cell");
            return -1;
        }
        r->cells = gr_xrealloc(r->cells, (size_t)(r->n + 1) * sizeof *r->cells);
        char *text = cell.s ? gr_sb_take(&cell) : gr_xstrdup("");
        /* a quoted cell as the gradebook's writer had it before gr_csv_text */
        r->cells[r->n++] = quoted ? gr_csv_untext(text) : text;
        if (s < end && *s == ',') {
            s++;
            continue;
        }
        if (s < end && *s == '\r')
            s++;
        if (s < end && *s == '\n')
            s++;
        else if (s < end) {
            gr_set_err(err, errlen, "%s:%d: text after a quoted cell", path, line);
            return -1;
        }
        *p = s;
        return 0;
    }
}

/* A points cell: empty (*has 0) or a finite number. 0, or -1 with err. */
static int read_points(const char *cell, const char *path, int line, const char *what,
                       int *has, double *x, char *err, size_t errlen)
{
    *has = *cell != '\0';
    if (!*has)
        return 0;
    char *e;
    errno = 0;
    *x = strtod(cell, &e);
    if (e == cell || *e || errno || !isfinite(*x) || fabs(*x) > MAX_POINTS) {
        gr_set_err(err, errlen, "%s:%d: %s is not a number of points (\"%.40s\")", path, line,
                   what, cell);
        return -1;
    }
    return 0;
}

/* The header and points-possible row: the shape batch writes. 0, or -1. */
static int check_head(const csv_row *h, const csv_row *pp, const char *path, gr_export_book *b,
                      char *err, size_t errlen)
{
    if (h->n < 4 || strcmp(h->cells[0], "Student ID") != 0 || strcmp(h->cells[1], "Name") != 0 ||
        strcmp(h->cells[2], "Email") != 0 || strcmp(h->cells[h->n - 1], "Total") != 0) {
        gr_set_err(err, errlen, "%s:1: not a gradebook attnlab batch wrote (its header is "
                   "Student ID,Name,Email, the labs, then Total); run attnlab batch again", path);
        return -1;
    }
    if (pp->n != h->n || strcmp(pp->cells[0], "Points possible") != 0) {
        gr_set_err(err, errlen, "%s:2: the second row must be the \"Points possible\" row with "
                   "a cell per column; run attnlab batch again", path);
        return -1;
    }
    int has;
    if (read_points(pp->cells[h->n - 1], path, 2, "the total's points possible", &has,
                    &b->possible, err, errlen) != 0)
        return -1;
    if (!has || b->possible < 0) {
        gr_set_err(err, errlen, "%s:2: the total's points possible is missing or negative", path);
        return -1;
    }
    return 0;
}

int gr_export_book_parse(const char *text, size_t len, const char *path, gr_export_book *b,
                      char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, GR_CSV_BOM, 3) == 0)      /* --csv-bom */
        p += 3;
    csv_row head = {0}, pp = {0};
    int rc = 0, line = 1;
    if (p >= end) {
        gr_set_err(err, errlen, "%s: empty; run attnlab batch again to write it", path);
        return -1;
    }
    rc = read_row(&p, end, path, line++, &head, err, errlen);
    if (rc == 0)
        rc = read_row(&p, end, path, line++, &pp, err, errlen);
    if (rc == 0)
        rc = check_head(&head, &pp, path, b, err, errlen);
    while (rc == 0 && p < end) {
        csv_row r = {0};
        rc = read_row(&p, end, path, line, &r, err, errlen);
        if (rc == 0 && r.n != head.n) {
            gr_set_err(err, errlen, "%s:%d: %d cells where the header has %d", path, line, r.n,
                       head.n);
            rc = -1;
        }
        if (rc == 0 && !*r.cells[0]) {
            gr_set_err(err, errlen, "%s:%d: a row without a student id", path, line);
            rc = -1;
        }
        gr_export_row row = {0};
        if (rc == 0)
            rc = read_points(r.cells[r.n - 1], path, line, "the total", &row.graded, &row.points,
                             err, errlen);
        if (rc == 0) {
            row.id = gr_xstrdup(r.cells[0]);
            row.name = gr_xstrdup(r.cells[1]);
            row.email = gr_xstrdup(r.cells[2]);
            b->rows = gr_xrealloc(b->rows, (size_t)(b->n + 1) * sizeof *b->rows);
            b->rows[b->n++] = row;
        }
        row_free(&r);
        line++;
    }
    row_free(&head);
    row_free(&pp);
    if (rc != 0)
        gr_export_book_free(b);
    return rc;
}

void gr_export_book_free(gr_export_book *b)
{
    for (int i = 0; i < b->n; i++) {
        free(b->rows[i].id);
        free(b->rows[i].name);
        free(b->rows[i].email);
    }
    free(b->rows);
    memset(b, 0, sizeof *b);
}

/* ---- writing the export -------------------------------------------------------------- */

static int by_id(const void *key, const void *s)
{
    return strcmp(key, ((const gr_student *)s)->id);
}

/* The roster's student of this id, or NULL (gr_roster_load sorts by id, so a
   class of thousands is looked up in log time). */
static const gr_student *on_roster(const gr_class *roster, const char *id)
{
    if (!roster || roster->n == 0)
        return NULL;
    return bsearch(id, roster->students, (size_t)roster->n, sizeof *roster->students, by_id);
}

/* The first of a, b that is set and not empty, else c. */
static const char *first(const char *a, const char *b, const char *c)
{
    return a && *a ? a : b && *b ? b : c;
}

/* Text cells, comma-separated, then a comma. Neutralised as every CSV cell
   is (gr_csv_text), ids included: an id that starts like a formula (=, +, @,
   "-1+2") then reaches the LMS with a leading apostrophe and matches no
   student there. That is the safe side: LMS ids (SIS ids, logins, emails)
   do not start so, an LMS shows an unmatched row in its import preview,
   and the same file opened in a spreadsheet first (to check it, as one
   does) must not run what a student named their folder. */
static void cells(gr_strbuf *b, int n, const char *const *v)
{
    for (int i = 0; i < n; i++) {
        gr_csv_text(b, v[i]);
        gr_sb_append(b, ",");
    }
}

static void grade_cell(gr_strbuf *b, const gr_export_row *r)
{
    if (r->graded)
        gr_csv_points(b, r->points);
}

static void canvas_row(gr_strbuf *b, const gr_export_row *r, const gr_student *s)
{
    const char *v[] = {first(s ? s->name : NULL, r->name, r->id), "",
                       first(s ? s->sis_user_id : NULL, r->id, ""),
                       s && s->sis_login_id ? s->sis_login_id : "",
                       s && s->section ? s->section : ""};
    cells(b, 5, v);
    grade_cell(b, r);
}

static void moodle_row(gr_strbuf *b, const gr_export_row *r, const gr_student *s)
{
    const char *v[] = {first(s ? s->email : NULL, r->email, ""),
                       first(s ? s->sis_user_id : NULL, r->id, "")};
    cells(b, 2, v);
    grade_cell(b, r);
}

static void generic_row(gr_strbuf *b, const gr_export_row *r, const gr_student *s, double possible)
{
    const char *v[] = {r->id, first(s ? s->email : NULL, r->email, ""),
                       first(s ? s->name : NULL, r->name, "")};
    cells(b, 3, v);
    grade_cell(b, r);
    gr_sb_append(b, ",");
    if (r->graded) {
        gr_csv_points(b, possible);
        gr_sb_append(b, ",");
        /* two decimals, as a gradebook shows a percentage */
        gr_csv_points(b, possible > 0 ? round(10000.0 * r->points / possible) / 100.0 : 0);
    } else {
        gr_sb_append(b, ",");
    }
}

char *gr_export_csv(const gr_export_book *bk, const gr_class *roster, gr_export_format f,
                 const char *assignment)
{
    gr_strbuf b = {0};
    if (f == GR_LMS_CANVAS) {
        gr_sb_append(&b, "Student,ID,SIS User ID,SIS Login ID,Section,");
        gr_csv_text(&b, assignment);
        gr_sb_append(&b, "\r\nPoints Possible,,,,,");
        gr_csv_points(&b, bk->possible);
        gr_sb_append(&b, "\r\n");
    } else if (f == GR_LMS_MOODLE) {
        gr_sb_append(&b, "Email address,ID number,");
        gr_csv_text(&b, assignment);
        gr_sb_append(&b, "\r\n");
    } else {
        gr_sb_append(&b, "id,email,name,points,possible,percent\r\n");
    }
    for (int i = 0; i < bk->n; i++) {
        const gr_export_row *r = &bk->rows[i];
        const gr_student *s = on_roster(roster, r->id);
        if (f == GR_LMS_CANVAS)
            canvas_row(&b, r, s);
        else if (f == GR_LMS_MOODLE)
            moodle_row(&b, r, s);
        else
            generic_row(&b, r, s, bk->possible);
        gr_sb_append(&b, "\r\n");
    }
    return gr_sb_take(&b);
}

/* DIR/gradebook.csv into b. 0, or -1 with err. */
static int load_book(const char *dir, gr_export_book *b, char *err, size_t errlen)
{
    char *path = gr_xasprintf("%s/gradebook.csv", dir), *text = NULL, why[128] = "";
    size_t len = 0;
    int got = gr_read_regular(path, MAX_GRADEBOOK, &text, &len, why, sizeof why);
    int rc = -1;
    if (got < 0)
        gr_set_err(err, errlen, "%s holds no gradebook (%s: %s); give the folder attnlab batch "
                   "--out wrote", dir, path, strerror(errno));
    else if (got > 0)
        gr_set_err(err, errlen, "%s is %s, not a gradebook of at most 64 MiB; run attnlab batch "
                   "again to write it", path, why);
    else
        rc = gr_export_book_parse(text, len, path, b, err, errlen);
    free(text);
    free(path);
    return rc;
}

int gr_export_write(const char *dir, const char *roster, gr_export_format f, const char *assignment,
                  const char *out, char **written, char *err, size_t errlen)
{
    if (written)
        *written = NULL;
    /* the class's roster unless another is given, which must be the class's (batch_settings.h) */
    char *kept[GR_SET_COUNT];
    int has[GR_SET_COUNT] = {[GR_SET_ROSTER] = 1};
    gr_batch_opts o = {.roster = roster};
    if (gr_batch_settings_use(dir, "export", &o, has, kept, err, errlen) < 0)
        return -1;
    roster = o.roster;
    gr_export_book b;
    if (load_book(dir, &b, err, errlen) != 0) {
        free(kept[GR_SET_ROSTER]);
        return -1;
    }
    gr_class rc_class;
    memset(&rc_class, 0, sizeof rc_class);
    if (roster && gr_roster_load(roster, &rc_class, err, errlen) != 0) {
        gr_class_free(&rc_class);
        gr_export_book_free(&b);
        free(kept[GR_SET_ROSTER]);
        return -1;
    }
    char *csv = gr_export_csv(&b, roster ? &rc_class : NULL, f, assignment);
    char *path = out ? gr_xstrdup(out) : gr_xasprintf("%s/%s", dir, gr_export_file_name(f));
    int rc = 0;
    if (strcmp(path, "-") == 0) {
        if (fputs(csv, stdout) == EOF || fflush(stdout) != 0)
            rc = -2;
    } else if (gr_write_file_atomic(path, csv, strlen(csv)) != 0) {
        rc = -2;
    }
    if (rc != 0)
        gr_set_err(err, errlen, "cannot write %s: %s", path, strerror(errno));
    if (rc == 0 && written)
        *written = path;
    else
        free(path);
    free(csv);
    gr_class_free(&rc_class);
    gr_export_book_free(&b);
    free(kept[GR_SET_ROSTER]);
    return rc;
}
