/* items.h: how each test behaved across a class (item analysis), which
 * verdicts the class got, and which misconceptions it showed, for the class
 * report (classreport.c), report.html (classhtml.c) and tests.csv.
 *
 * Everything is computed over the students who attempted a lab: a lab whose
 * file is missing, ambiguous or unreadable, or whose every test is "not
 * implemented" (the stub handed back untouched), says nothing about a test,
 * and is counted apart (missing, not started).
 *
 * Per test (an item, as in classical test theory):
 *   difficulty      the mean fraction of the test's points earned (its pass
 *                   rate when a test is all or nothing)
 *   discrimination  the point-biserial correlation of that fraction with the
 *                   rest of the lab's score (the lab's points without this
 *                   test), so a test does not correlate with itself; and the
 *                   upper-lower index D: the pass rate of the 27% of students
 *                   with the highest rest score less that of the lowest 27%
 *                   (students tied at a group's edge share its places)
 *   flags           passed by everyone, passed by no one, and discriminating
 *                   negatively (r below GR_ITEMS_NEGATIVE: stronger students
 *                   fail it more than weaker ones, a likely rubric bug)
 */
#ifndef GR_ITEMS_H
#define GR_ITEMS_H

#include "class/class.h"
#include "base/util.h"

/* A point-biserial correlation below this flags a test as discriminating
   negatively (a small negative r is noise in a class of a few dozen). */
#define GR_ITEMS_NEGATIVE (-0.1)

/* The share of the class in each group of the upper-lower index. */
#define GR_ITEMS_GROUP 0.27

enum {
    GR_ITEM_ALL_PASS = 1,    /* every student who attempted the lab passed it */
    GR_ITEM_NONE_PASS = 2,   /* none did */
    GR_ITEM_NEGATIVE = 4     /* r < GR_ITEMS_NEGATIVE */
};
/* The flags of a test to check before the grades go out: a likely rubric bug. */
#define GR_ITEM_TO_CHECK (GR_ITEM_NONE_PASS | GR_ITEM_NEGATIVE)

/* One test across the class. */
typedef struct gr_item {
    int lab;
    const char *test;              /* its name, borrowed from the class's reports */
    double max_score;
    gr_visibility visibility;
    int attempted;                 /* students who attempted its lab (and have the test) */
    int passed, failed;            /* of them */
    double difficulty;             /* mean fraction of its points earned, in [0, 1] */
    double r_pb;                   /* point-biserial r with the rest of the lab; NAN when
                                      either side has no variance or fewer than 2 students */
    double d_index;                /* upper-lower 27% index in [-1, 1]; NAN under 2 students */
    int flags;                     /* GR_ITEM_* */
    int verdicts[GR_VERDICT_COUNT];  /* each verdict's count among the attempted */
} gr_item;

/* One kind of verdict in one lab, and the students who got it on some test. */
typedef struct gr_item_verdict {
    int lab;
    gr_verdict verdict;
    const char **students;         /* ids, borrowed, in class order */
    int n;
} gr_item_verdict;

/* One misconception, the students who showed it. */
typedef struct gr_item_shown {
    int lab;
    const char *id;                /* the misconception's id */
    const gr_misconception *mc;    /* its entry in the lab module, or NULL when unknown */
    const char **students;         /* ids, borrowed */
    int n;
} gr_item_shown;

typedef struct gr_items {
    gr_item *items;                /* in lab order, each lab's tests in rubric order */
    int n;
    int attempted[GR_N_LABS];      /* students who attempted each lab */
    int missing[GR_N_LABS];        /* submitted students with no file taken for it */
    int not_started[GR_N_LABS];    /* ... whose file was the stub untouched */
    gr_item_verdict *verdicts;     /* time-outs, crashes, forbidden calls, compile errors,
                                      memory and output limits, missing and unreadable
                                      files: per lab, in gr_verdict order */
    int n_verdicts;
    gr_item_shown *shown;          /* misconceptions over attempted labs, most students first
                                      (then lab, then id) */
    int n_shown;
} gr_items;

/* Whether lab result l was attempted: its file was taken and at least one
   test got a verdict other than "not implemented". */
int gr_items_attempted(const gr_lab_result *l);

/* Pearson's r of x[0..n) and y[0..n) (the point-biserial r when x is 0 or 1):
   NAN when n < 2 or either has no variance. */
double gr_items_point_biserial(const double *x, const double *y, int n);

/* The upper-lower index of x[0..n) (each in [0, 1]) ranked by rank[0..n):
   mean x of the GR_ITEMS_GROUP share with the highest rank less that of the
   share with the lowest, the group size n * GR_ITEMS_GROUP rounded (at least
   1); students tied at a group's edge each count with the share of the
   places left. NAN when n < 2. */
double gr_items_upper_lower(const double *x, const double *rank, int n);

/* Analyse class c (its submitted students' reports) into out; free with
   gr_items_free. */
void gr_items_analyse(const gr_class *c, gr_items *out);
void gr_items_free(gr_items *it);

/* The flags of it as words ("passed by everyone", ...; "" for none) into buf. */
const char *gr_items_flag_text(char *buf, size_t len, int flags);

/* tests.csv (malloc'd): a header (Student ID, Name, Email, one column per test
   named "labNN-name.test", Total), a "Points possible" row, then one row per
   student with the points of each test; a student with no submission has
   empty cells. Cells as the gradebook's (cells.h): RFC 4180, CRLF, every text
   cell neutralised; with bom, a UTF-8 byte order mark first. */
char *gr_items_csv(const gr_class *c, const gr_items *it, int bom);

#endif
