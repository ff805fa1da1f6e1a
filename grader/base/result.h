/* result.h: verdicts and the results a grading run produces, shared by the
 * grading loop and every report writer. */
#ifndef GR_RESULT_H
#define GR_RESULT_H

#include "base/rubric.h"
#include "base/util.h"

/* Every test ends in exactly one of these. */
typedef enum gr_verdict {
    GR_PASSED = 0,
    GR_WRONG_ANSWER,       /* first mismatch, context, expected, got, relative error */
    GR_NOT_IMPLEMENTED,    /* returned LAB_NOT_IMPLEMENTED */
    GR_COMPILE_ERROR,      /* the lab did not compile or link */
    GR_CRASHED,            /* killed by a signal (named), or died without an answer */
    GR_TIMED_OUT,          /* over the time limit */
    GR_OUT_OF_MEMORY,      /* an allocation went over the memory limit */
    GR_OUTPUT_LIMIT,       /* printed more than the output limit */
    GR_FORBIDDEN_CALL,     /* a header, symbol or system call the rules do not allow */
    GR_MISSING,            /* the submission holds no file for the lab (intake.h) */
    GR_AMBIGUOUS,          /* two files could be the lab's; none is guessed */
    GR_UNREADABLE,         /* the lab's file is a link, FIFO, device, folder or too large */
    GR_VERDICT_COUNT
} gr_verdict;

/* Lower-case name of a verdict: "passed", "wrong answer", ... */
const char *gr_result_verdict_name(gr_verdict v);

/* The verdict named s ("wrong answer", ...), or -1. */
int gr_result_verdict_from_name(const char *s);

typedef struct gr_test_result {
    char *name;
    int number;                  /* 1-based within the whole run */
    double score, max_score;
    gr_visibility visibility;
    gr_verdict verdict;
    char *message;               /* feedback for a person; NULL when passed */
    char *misconception;         /* id of the matched misconception (labmod.h), or NULL */
    char *student_output;        /* bounded excerpt of what the child printed, or NULL */
    char *feedback;              /* read back from a results.json (report_read.c): the
                                    test's whole feedback, written again as it was; NULL
                                    for a test graded in this run */
    char *digest;                /* a wrong answer on fixed inputs that no misconception
                                    matched (digest.h): the keyed digest of its output, */
    char *excerpt;               /* its first mismatch ("W[0][2]: expected .., got .."), */
    char *relation;              /* and how it relates to the expected output; else NULL */
    double seconds;
} gr_test_result;

typedef struct gr_lab_result {
    int lab;
    char *name;                  /* "lab01-scores" */
    double score, max_score;
    char *compile_log;           /* trimmed first compiler errors, or a built lab's warnings, or NULL */
    char *message;               /* a lab not graded test by test (it did not build, its file is
                                    missing ...): what to fix, held once for all its tests (each
                                    has the verdict and no message of its own); else NULL */
    double build_seconds;        /* checking, compiling and linking the source */
    double test_seconds;         /* running every test, sandbox included */
    double seconds;              /* the whole lab: build, tests and the grader's own work
                                    (expected values, diagnoses) */
    char *source;                /* the file graded, relative to the submission, or NULL */
    char *source_how;            /* why that file when a forgiving rule found it (intake.h),
                                    else NULL */
    gr_test_result *tests;
    int n_tests;
} gr_lab_result;

/* One regrade of one test, as results.json keeps it (regrade.h). */
typedef struct gr_regrade {
    char *when;                  /* UTC, ISO 8601: 2026-12-02T03:40:00Z */
    int lab;
    char *test;
    int has_old, has_new;        /* 0: the test was added (no old score) or removed (no new) */
    double old_score, new_score;
    char *reason;                /* --reason, or "no reason given" */
    char *change;                /* what changed in the rubric, or NULL (a --test regrade) */
} gr_regrade;

typedef struct gr_report {
    char *student;               /* student id, or "local" */
    double score, max_score;
    double seconds;              /* wall time of the whole run */
    gr_lab_result *labs;
    int n_labs;
    char *confinement;           /* the toolchain's active walls (confine.h), or NULL */
    char *sandbox;               /* the test children's (sandbox.h), or NULL */
    int practice_secret;         /* 1: a named student graded with the public practice
                                    secret (gr_seed_secret_unfit): inputs anyone can predict */
    gr_regrade *regrades;        /* every regrade of this student's results, oldest first */
    int n_regrades;
} gr_report;

/* Append lr to out as bytes gr_result_lab_decode reads back (to carry a lab's
   result from a worker process to its parent). */
void gr_result_lab_encode(const gr_lab_result *lr, gr_strbuf *out);

/* Read a result written by gr_result_lab_encode from buf[0..len) into lr (free
   with gr_result_lab_free): 0, or -1 when the bytes are not one. */
int gr_result_lab_decode(const char *buf, size_t len, gr_lab_result *lr);

/* A deep copy of r holding only the tests a student may see at moment
   (gr_rubric_visibility_shown), lab and total points and times summed over them
   (a lab's time: its build and those tests' own times): what feedback handed to a
   student is made from. Free with gr_result_free. */
void gr_result_copy_shown(const gr_report *r, int moment, gr_report *out);

/* Free everything one lab's result owns (not the struct itself). */
void gr_result_lab_free(gr_lab_result *lr);

/* Free the strings of one test (not the struct itself). */
void gr_result_test_free(gr_test_result *t);

/* Free what one regrade owns (not the struct itself). */
void gr_result_regrade_free(gr_regrade *g);

/* Free everything a report owns (not the struct itself). */
void gr_result_free(gr_report *r);

#endif
