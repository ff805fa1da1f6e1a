/* handin.h: who handed each submission in, and when, from the instructor's
 * side only (attnlab batch). A file inside a student's folder is never read
 * for either: a student writes what they like there.
 *
 * A Gradescope export ("Export Submissions") is a folder of submission folders
 * and, beside them, submission_metadata.yml:
 *
 *     submission_123456:                 # a submission folder's name
 *       :submitters:
 *       - :name: Ada Lovelace
 *         :sid: '100'
 *         :email: ada@example.edu
 *       :created_at: 2025-02-07 23:41:07.365935000 -05:00
 *       :score: 10.0                     # and more keys, not read
 *
 * Every YAML document of the file is read (a "..." end marker does not end
 * the export). A submission with no submitter (":submitters: []", as for a
 * student who left the course) is kept with n_who 0: no one can be named for
 * it, so a batch skips its folder with a warning.
 *
 * The student's id is the rule run_autograder follows too, so a regrade seeds
 * every test as the fleet did: the first submitter's :email, or their :sid
 * when the email is empty. A group submission is graded once, under its first
 * submitter's id; every other submitter gets the same grade.
 *
 * An instructor's times file (--times FILE) maps a student id to an ISO 8601
 * time with its UTC offset, for every lab of that student: YAML (s001:
 * 2025-02-07T23:41:00-05:00) or, when FILE ends in .csv, lines "id,time"
 * (a first line "id,time" is a header).
 */
#ifndef GR_HANDIN_H
#define GR_HANDIN_H

#include <stddef.h>
#include <time.h>

/* The largest export metadata read (it holds each submission's results too). */
#define GR_HANDIN_MAX ((size_t)64 << 20)

/* One submitter of a submission. */
typedef struct gr_submitter {
    char *id;                     /* the rule above: :email, else :sid */
    char *name, *email;           /* "" when not given */
} gr_submitter;

/* One submission folder of a Gradescope export. */
typedef struct gr_handin_sub {
    char *folder;
    gr_submitter *who;            /* the submitters; who[0] names the grade */
    int n_who;                    /* 0: none (skipped by a batch) */
    int line, column;             /* where the folder is named, for messages */
    time_t created;               /* :created_at, when have_created */
    int have_created;
} gr_handin_sub;

typedef struct gr_handin {
    char *path;                   /* SUBMISSIONS/submission_metadata.yml */
    gr_handin_sub *subs;
    int n;
} gr_handin;

/* Read dir/submission_metadata.yml when there is one: 1 with *x filled, 0
   when there is none (not an export), -1 with err ("path:line:column: ...",
   or what the file is when it is no regular file of at most GR_HANDIN_MAX
   bytes: it is never followed as a link, never blocked on). */
int gr_handin_load(const char *dir, gr_handin *x, char *err, size_t errlen);
void gr_handin_free(gr_handin *x);

/* The same for the text[0..len) of a file that path names: 0, or -1 with err. */
int gr_handin_parse(const char *path, const char *text, size_t len, gr_handin *x, char *err,
                    size_t errlen);

/* The export's entry for a submission folder, or NULL. */
const gr_handin_sub *gr_handin_find(const gr_handin *x, const char *folder);

/* The export one level down (malloc'd), or NULL: when dir holds no
   submission_metadata.yml and its one entry is a folder named as Gradescope
   names the folder its export zip unpacks into (assignment_NNN_export, any
   name ending in _export) that holds one. The name is the instructor's
   side's: a student's folder in a class is named by the student's id. */
char *gr_handin_below(const char *dir);

/* One line of a times file. */
typedef struct gr_time_entry {
    char *id;
    time_t when;
    int line, column;             /* where the id is written, for messages */
} gr_time_entry;

typedef struct gr_times {
    char *path;
    gr_time_entry *e;
    int n;
} gr_times;

/* Read an instructor's times file (YAML, or CSV when path ends in .csv).
   0, or -1 with "path:line:column: what is wrong" in err. */
int gr_times_load(const char *path, gr_times *t, char *err, size_t errlen);

/* The same for the text[0..len) of a file that path names (its ending says
   the format). */
int gr_times_parse(const char *path, const char *text, size_t len, gr_times *t, char *err,
                   size_t errlen);
void gr_times_free(gr_times *t);

/* The entry of t for id, or NULL. */
const gr_time_entry *gr_times_find(const gr_times *t, const char *id);

/* 1 when s may name a student: in a gradebook cell, a terminal line and as
   the folder OUT/students/ID (no '/', no control character, not "." or "..",
   at most 200 bytes). */
int gr_id_ok(const char *s);

#endif
