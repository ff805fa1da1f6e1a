/* status.h: why a run could not finish, shared by the grading loop (grade.h),
 * the worker pool (pool.h) and the commands above them. Each is a whole run's
 * failure, never a student's (anything a submission does is a verdict on its
 * own lab's tests).
 */
#ifndef GR_STATUS_H
#define GR_STATUS_H

enum {
    GR_STATUS_BAD_INPUT = -1,  /* a rubric error: "data/rubrics/lab02.yaml:14:7: ..." */
    GR_STATUS_FAILED = -2,     /* the grader itself (missing child objects, no work dir ...) */
    GR_STATUS_STOPPED = -3     /* a stop signal arrived (stop.h) */
};

#endif
