/* intake.h: finding and reading what a student handed in.
 *
 * Everything in a submission folder is the student's, so it is read in one
 * way only, gr_intake_read: a regular file of one name (no hard link, which
 * may be a file outside), reached through real folders (no symbolic link
 * followed at any step), opened without blocking, no larger than a cap.
 * A FIFO, a device, a link, a folder or an oversized file is named in a
 * sentence and becomes that lab's verdict, never a hang or a grader fault.
 *
 * A lab's file is found by gr_intake_scan under these rules:
 *   1. the exact layout, at the top of the submission: the lab's folder
 *      (lab01-scores/lab01.c, as labs/ has it) or the flat file (lab01.c);
 *   2. names in any case: Lab01.c, LAB01-Scores/lab01.c;
 *   3. when the top holds no lab at all, a single folder that wraps
 *      everything (what a zip of a folder gives), or else a folder called
 *      labs (a copy of the whole course tree), entered again and again up to
 *      GR_INTAKE_MAX_DEPTH folders down: attnlab-main/labs/lab01-scores/lab01.c.
 * Two candidates for one lab (lab01.c beside lab01-scores/lab01.c, or
 * lab01.c beside Lab01.c) are never chosen between: the lab is "ambiguous".
 * No candidate: "missing". Every path is relative to the submission, so no
 * grader folder ever reaches a report. The search reads at most
 * GR_INTAKE_MAX_ENTRIES folder entries in all (100,000 files or a deep tree
 * cost no more than that); past it the exact names are still looked up.
 */
#ifndef GR_INTAKE_H
#define GR_INTAKE_H

#include <stddef.h>
#include "base/labmod.h"
#include "base/result.h"

#define GR_INTAKE_MAX_DEPTH 8           /* wrapping folders entered, at most */
#define GR_INTAKE_MAX_ENTRIES 20000     /* folder entries one scan reads, in all */
#define GR_INTAKE_MAX_FILE ((size_t)4 << 20)   /* a lab file: a few hundred lines */

typedef enum gr_intake_status {
    GR_INTAKE_MISSING = 0,    /* none (what a zeroed gr_intake_lab says) */
    GR_INTAKE_FOUND,          /* one candidate: rel */
    GR_INTAKE_AMBIGUOUS       /* two or more: rel and other are two of them */
} gr_intake_status;

/* The rules besides the exact layout that found a file (bits). */
enum {
    GR_INTAKE_EXACT = 0,
    GR_INTAKE_WRAPPED = 1,    /* below the top, in a wrapping or labs folder */
    GR_INTAKE_CASE = 2        /* its name, or its folder's, in another case */
};

typedef struct gr_intake_lab {
    gr_intake_status status;
    char *rel;                /* FOUND, AMBIGUOUS: the file's path in the submission */
    char *other;              /* AMBIGUOUS: another candidate's */
    int rule;                 /* FOUND: GR_INTAKE_EXACT or the rules' bits */
    char *how;                /* FOUND by a rule other than the exact one: why this
                                 file, in words ("inside the folder attnlab-main/labs;
                                 named Lab01.c for lab01.c"); NULL otherwise */
} gr_intake_lab;

typedef struct gr_intake {
    char *base;               /* where the labs were looked for, relative to the
                                 submission: "" (the top) or "attnlab-main/labs" */
    int empty;                /* 1: not one file in the submission (within the bounds) */
    int truncated;            /* 1: the search stopped at GR_INTAKE_MAX_ENTRIES */
    int n_found, n_forgiven;  /* labs with one file; of them, found by a forgiving rule */
    gr_intake_lab labs[GR_N_LABS];
} gr_intake;

/* Look for every lab's file in the folder submission (a folder the caller
   trusts: given by the instructor or the student running the grader). 0, or
   -1 with err when that folder cannot be opened. */
int gr_intake_scan(const char *submission, gr_intake *in, char *err, size_t errlen);

/* Free what gr_intake_scan allocated. */
void gr_intake_free(gr_intake *in);

/* The lab's file name as the exact layout has it: "lab01.c". */
const char *gr_intake_file_name(int lab, char buf[16]);

/* The sentence a lab's verdict gives when it is not FOUND (malloc'd):
   MISSING names the expected file, AMBIGUOUS both candidates. */
char *gr_intake_problem(const gr_intake_lab *l, int lab);

/* Lab lab's file as in (a scan of submission) found it, checked by reading
   it with gr_intake_read: its path under submission (malloc'd); NULL when
   it is missing, ambiguous or not a regular file of at most
   GR_INTAKE_MAX_FILE bytes, with *verdict (GR_MISSING, GR_AMBIGUOUS,
   GR_UNREADABLE) and *message (malloc'd: what it is and what to do). */
char *gr_intake_take(const char *submission, const gr_intake *in, int lab, gr_verdict *verdict,
                     char **message);

/* Read the file rel of submission: every folder on the way must be a real
   folder, the file a regular file of at most cap bytes, opened without
   following a link or blocking. 0 with *text (NUL-terminated, malloc'd) and
   *len; 1 when it is something else, why holding a sentence that names it
   by rel ("lab01-scores/lab01.c is a FIFO (named pipe), not a regular file");
   -1 with errno (ENOENT ...). */
int gr_intake_read(const char *submission, const char *rel, size_t cap, char **text,
                   size_t *len, char *why, size_t whylen);

#endif
