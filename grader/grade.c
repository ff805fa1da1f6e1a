/* grade.c: the grading loop (see grade.h). */
#include "grade.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/build.h"
#include "confined/confine.h"
#include "compare.h"
#include "intake.h"
#include "labmod.h"
#include "labsup.h"
#include "pool.h"
#include "confined/sandbox.h"
#include "seed.h"
#include "stop.h"
#include "util.h"
#include "confined/workdir.h"

#define EXCERPT_MAX 1024   /* bytes of a child's output kept in a report */
#define TIMEOUTS_TO_STOP 2 /* time-outs in a lab after which its other tests are not run */

/* ---- locating the tree -------------------------------------------------------- */

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir's parent into out ("/usr/local/bin" -> "/usr/local", "/bin" -> ""). */
static void parent_of(char *out, size_t len, const char *dir)
{
    snprintf(out, len, "%s", dir);
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
}

/* The nearest folder at or above dir holding data/rubrics into root: 0, or -1. */
static int walk_up(char *root, size_t root_len, const char *dir)
{
    char d[PATH_MAX], probe[PATH_MAX + 16];
    snprintf(d, sizeof d, "%s", dir);
    for (;;) {
        snprintf(probe, sizeof probe, "%s/data/rubrics", d);
        if (is_dir(probe)) {
            snprintf(root, root_len, "%s", d);
            return 0;
        }
        char *slash = strrchr(d, '/');
        if (!slash || slash == d)
            return -1;
        *slash = '\0';
    }
}

/* Two layouts, both found from the folder that holds the running program:
     a build    <tree>/build/attnlab, stub objects in build/grader/stub, the
                course data in the tree above (the nearest data/rubrics)
     installed  PREFIX/bin/attnlab, stub objects in PREFIX/lib/attnlab/stub,
                the course data in PREFIX/share/attnlab (make install)
   The installed data wins over a tree above it, so a staged or relocated
   install always reads its own copy. */
int gr_locate(char *root, size_t root_len, char *stub_dir, size_t stub_len,
              char *err, size_t errlen)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0) {
        snprintf(err, errlen, "cannot find the attnlab program itself: %s", strerror(errno));
        return -1;
    }
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0'; /* the folder of the program: <tree>/build or PREFIX/bin */
    char prefix[PATH_MAX], share[PATH_MAX + 32], probe[PATH_MAX + 64];
    parent_of(prefix, sizeof prefix, exe);
    snprintf(share, sizeof share, "%s/share/attnlab", prefix);
    snprintf(probe, sizeof probe, "%s/data/rubrics", share);

    /* root first: cmd_drill needs only the course data, and reads root even
       when the stub objects are missing */
    const char *env = getenv("ATTNLAB_ROOT");
    if (env && *env) {
        snprintf(root, root_len, "%s", env);
    } else if (is_dir(probe)) {
        snprintf(root, root_len, "%s", share);
    } else if (walk_up(root, root_len, exe) != 0) {
        snprintf(err, errlen, "cannot find attnlab's course data (data/rubrics): not in %s "
                 "(an install) nor in any folder above %s (a source tree); install with "
                 "'make install PREFIX=...', or set ATTNLAB_ROOT to a source tree or to "
                 "PREFIX/share/attnlab", share, exe);
        return -1;
    }

    char built[PATH_MAX + 16], installed[PATH_MAX + 32];
    snprintf(built, sizeof built, "%s/grader/stub", exe);
    snprintf(installed, sizeof installed, "%s/lib/attnlab/stub", prefix);
    snprintf(stub_dir, stub_len, "%s", is_dir(built) || !is_dir(installed) ? built : installed);
    if (!is_dir(stub_dir)) {
        snprintf(err, errlen, "the grader's stub objects are missing: not in %s (a build) nor "
                 "in %s (an install); run 'make' in the source tree, or 'make install' again",
                 built, installed);
        return -1;
    }
    return 0;
}

int gr_root_has_labs(const char *root)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *file = gr_xasprintf("%s/labs/%s/lab%02d.c", root, gr_lab_modules[lab - 1]->dir, lab);
        int found = access(file, F_OK) == 0;
        free(file);
        if (found)
            return 1;
    }
    return 0;
}

char *gr_default_submission(const char *root, char *err, size_t errlen)
{
    if (gr_root_has_labs(root))
        return gr_xasprintf("%s/labs", root);
    if (is_dir("labs"))
        return gr_xstrdup("labs");
    snprintf(err, errlen, "no labs/ here to grade: this attnlab is installed (course data in "
             "%s), so pass --submission DIR, the folder that holds labNN-name/labNN.c", root);
    return NULL;
}

int gr_parse_labs(const char *s, int labs[GR_N_LABS], char *err, size_t errlen)
{
    memset(labs, 0, GR_N_LABS * sizeof labs[0]);
    if (strcmp(s, "all") == 0) {
        for (int i = 0; i < GR_N_LABS; i++)
            labs[i] = 1;
        return 0;
    }
    const char *p = s;
    for (;;) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p || n < 1 || n > GR_N_LABS || (*end != ',' && *end != '\0')) {
            snprintf(err, errlen, "--lab takes 'all', a lab number 1 to %d, or a list like 1,3 (got '%s')",
                     GR_N_LABS, s);
            return -1;
        }
        labs[n - 1] = 1;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}

/* ---- turning a child's fate into a verdict ------------------------------------- */

static const char *signal_story(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV, segmentation fault: a read or write outside an array (check loop bounds and strides), or through a NULL pointer";
    case SIGBUS:  return "SIGBUS, bus error: a bad memory access";
    case SIGFPE:  return "SIGFPE, arithmetic exception: an integer division by zero?";
    case SIGABRT: return "SIGABRT, aborted: a failed assert() or corrupted heap (a write past a malloc'd block?)";
    case SIGILL:  return "SIGILL, illegal instruction";
    case SIGKILL: return "SIGKILL, killed";
    default:      return NULL;
    }
}

/* Keep a bounded, printable excerpt of what the child printed: control bytes
   become '?', so nothing a student prints can drive a terminal or a report. */
static char *excerpt(const gr_sandbox_result *run)
{
    if (run->output_len == 0 || !run->output)
        return NULL;
    gr_strbuf b = {0};
    size_t n = strlen(run->output);
    if (n > EXCERPT_MAX)
        n = EXCERPT_MAX;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)run->output[i];
        char safe = (ch == '\n' || ch == '\t' || (ch >= 0x20 && ch < 0x7f)) ? (char)ch : '?';
        gr_sb_appendn(&b, &safe, 1);
    }
    if (run->output_len > n)
        gr_sb_printf(&b, "\n[... %zu bytes in all]", run->output_len);
    return gr_sb_take(&b);
}

static const char *status_name(int32_t s)
{
    switch (s) {
    case LAB_OK:              return "LAB_OK";
    case LAB_NOT_IMPLEMENTED: return "LAB_NOT_IMPLEMENTED";
    case LAB_BAD_ARG:         return "LAB_BAD_ARG";
    default:                  return "an undefined code";
    }
}

void gr_misconception_advice(gr_strbuf *out, const gr_misconception *mc)
{
    gr_sb_printf(out, "This is exactly what %s gives. %s\nReread %s.\n", mc->name, mc->explain,
                 mc->handout);
}

void gr_timeout_message(gr_strbuf *msg, const char *describe, long time_ms,
                        const gr_sandbox_result *run)
{
    /* the CPU budget, or the sandbox's wall-clock limit (twice the budget plus
       a second): say which, so the figures never contradict the sentence */
    if (run->term_signal == SIGXCPU || run->cpu_seconds * 1000.0 >= (double)time_ms)
        gr_sb_printf(msg, "%s\nstopped at the time limit of %ld ms of CPU time (it used %.2f s "
                     "of CPU in %.2f s of wall clock): an endless loop, or far more work than "
                     "needed", describe, time_ms, run->cpu_seconds, run->seconds);
    else
        gr_sb_printf(msg, "%s\nstopped by the wall-clock limit after %.2f s, having used only "
                     "%.2f s of its %ld ms of CPU time: it was waiting rather than computing "
                     "(sleeping, or blocked reading input), or the machine was overloaded",
                     describe, run->seconds, run->cpu_seconds, time_ms);
}

/* The call returned with scratch memory still allocated (the child's leak
   record): a wrong answer, whatever it computed, since the contract forbids it. */
static void leak_message(gr_strbuf *msg, const char *describe, const gr_sandbox_result *run,
                         gr_outcome *out)
{
    uint64_t bytes, blocks;
    char perr[256];
    if (proto_decode_leak(run->response, run->response_len, &bytes, &blocks, perr, sizeof perr) != 0) {
        gr_sb_printf(msg, "%s\nthe program ended without a valid answer (%s)", describe, perr);
        return;
    }
    out->verdict = GR_WRONG_ANSWER;
    gr_sb_printf(msg, "%s\nyour code returned with %llu byte%s in %llu block%s of scratch memory "
                 "still allocated: free %s before returning (the contract's rule)", describe,
                 (unsigned long long)bytes, bytes == 1 ? "" : "s", (unsigned long long)blocks,
                 blocks == 1 ? "" : "s", blocks == 1 ? "it" : "them");
}

/* Decide the verdict of one case from how the child ended and what it answered;
   a parsed answer stays in out->got. */
static void judge(const gr_lab_module *mod, const gr_rubric_test *t, const gr_case *c,
                  const gr_sandbox_result *run, gr_outcome *out)
{
    gr_strbuf msg = {0};
    out->verdict = GR_CRASHED;
    if (run->exec_errno) {
        gr_sb_printf(&msg, "%s\nthe test program could not start: %s (the kernel would not load "
                     "it; graded code must be plain C)", c->describe, strerror(run->exec_errno));
    } else if (run->stopped) {
        out->verdict = GR_TIMED_OUT;
        gr_sb_printf(&msg, "%s\nstopped itself (a stop signal) instead of computing; it was ended at "
                     "once and counts as timed out", c->describe);
    } else if (run->out_of_memory) {
        out->verdict = GR_OUT_OF_MEMORY;
        if (run->peak_bytes)
            gr_sb_printf(&msg, "%s\nused more memory than the lab allows (%ld KiB of heap and static "
                         "data; its peak was %zu KiB)", c->describe, t->limits.memory_bytes / 1024,
                         run->peak_bytes / 1024);
        else
            gr_sb_printf(&msg, "%s\nits static arrays alone are larger than the lab's memory limit of "
                         "%ld KiB; allocate what you need with malloc, within the limit", c->describe,
                         t->limits.memory_bytes / 1024);
    } else if (run->timed_out || (!run->exited && run->term_signal == SIGXCPU)) {
        out->verdict = GR_TIMED_OUT;
        gr_timeout_message(&msg, c->describe, t->limits.time_ms, run);
    } else if (run->output_limit) {
        out->verdict = GR_OUTPUT_LIMIT;
        gr_sb_printf(&msg, "printed more than the limit of %ld bytes; remove debugging output from loops",
                     t->limits.output_bytes);
    } else if (!run->exited && run->term_signal == SIGSYS) {
        out->verdict = GR_FORBIDDEN_CALL;
        gr_sb_append(&msg, "the sandbox stopped a system call the lab does not allow (opening files, "
                           "starting processes or networking); lab code only computes on its arguments");
    } else if (!run->exited) {
        const char *story = signal_story(run->term_signal);
        if (story)
            gr_sb_printf(&msg, "%s\ncrashed with %s", c->describe, story);
        else
            gr_sb_printf(&msg, "%s\ncrashed with signal %d (%s)", c->describe, run->term_signal,
                         strsignal(run->term_signal));
    } else if (run->exit_code == PROTO_EXIT_OUT_OF_MEMORY) {
        out->verdict = GR_OUT_OF_MEMORY;
        gr_sb_printf(&msg, "%s\nasked for more memory than the lab allows (%ld KiB of heap); "
                     "see the handout's rules on memory", c->describe, t->limits.memory_bytes / 1024);
    } else if (run->exit_code == PROTO_EXIT_STACK_OVERFLOW) {
        out->verdict = GR_OUT_OF_MEMORY;
        gr_sb_printf(&msg, "%s\nthe stack overflowed: a local array too large for the stack? "
                     "Allocate large buffers with malloc, within the lab's memory limit", c->describe);
    } else if (run->exit_code == PROTO_EXIT_LEAKED) {
        leak_message(&msg, c->describe, run, out);
    } else if (run->exit_code != PROTO_EXIT_OK) {
        gr_sb_printf(&msg, "%s\nexited with status %d before answering (does the code call exit()?)",
                     c->describe, run->exit_code);
    } else {
        proto_buf bufs[PROTO_MAX_BUFS];
        char perr[256];
        if (proto_decode_response(run->response, run->response_len, &c->call, &out->status, bufs,
                                  perr, sizeof perr) != 0) {
            gr_sb_printf(&msg, "%s\nthe program ended without a valid answer (%s)", c->describe, perr);
        } else {
            out->answered = 1;
            for (int i = 0; i < c->call.n_bufs; i++)
                out->got[i] = bufs[i].data;      /* the outcome owns them now */
            int32_t status = out->status;
            gr_mismatch m;
            if (status == LAB_NOT_IMPLEMENTED && c->expected_status != LAB_NOT_IMPLEMENTED) {
                /* One line: the function's name is all a student needs here. */
                out->verdict = GR_NOT_IMPLEMENTED;
                int name_len = (int)strcspn(c->describe, "(:, ");
                gr_sb_printf(&msg, "%.*s still returns LAB_NOT_IMPLEMENTED (the stub)", name_len, c->describe);
            } else if (status != c->expected_status) {
                out->verdict = GR_WRONG_ANSWER;
                gr_sb_printf(&msg, "%s\nreturned %d (%s), expected %d (%s)", c->describe, status,
                             status_name(status), c->expected_status, status_name(c->expected_status));
            } else if (gr_compare(c, c->expected, out->got, t->abs_tol, t->rel_tol, &m) == 0) {
                out->verdict = GR_PASSED;
            } else {
                out->verdict = GR_WRONG_ANSWER;
                gr_explain_mismatch(mod, c, out->got, &m, &msg);
                gr_sb_printf(&msg, "(tolerance: |got - expected| <= %g + %g * |expected|)\n", t->abs_tol, t->rel_tol);
                const gr_misconception *mc = gr_diagnose(mod, c, out->got, t->abs_tol, t->rel_tol);
                if (mc) {
                    out->misconception = gr_xstrdup(mc->id);
                    gr_misconception_advice(&msg, mc);
                }
            }
        }
    }
    out->message = out->verdict == GR_PASSED ? NULL : gr_sb_take(&msg);
    free(msg.s);
}

int gr_run_case(const char *exe, const gr_lab_module *mod, const gr_rubric_test *t,
                const gr_case *c, gr_outcome *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    unsigned char *req;
    size_t req_len;
    if (proto_encode_request(&c->call, &req, &req_len) != 0) {
        snprintf(err, errlen, "test '%s': the case does not encode (a lab module bug)", t->name);
        return -1;
    }
    gr_sandbox_result run;
    int rc = gr_sandbox_run(exe, req, req_len, &t->limits, &run, err, errlen);
    free(req);
    if (rc != 0)
        return -1;
    judge(mod, t, c, &run, out);
    out->output = excerpt(&run);
    out->seconds = run.seconds;
    gr_sandbox_result_free(&run);
    return 0;
}

void gr_outcome_free(gr_outcome *o)
{
    free(o->message);
    free(o->misconception);
    free(o->output);
    for (int i = 0; i < PROTO_MAX_BUFS; i++)
        free(o->got[i]);
    memset(o, 0, sizeof *o);
}

/* ---- one lab ------------------------------------------------------------------- */

/* Every test of the lab from first on gets the same verdict (those tests were
   not run), with the message each. */
static void fail_from(gr_lab_result *lr, int first, gr_verdict v, const char *message)
{
    for (int i = first; i < lr->n_tests; i++) {
        lr->tests[i].verdict = v;
        lr->tests[i].message = gr_xstrdup(message);
    }
}

/* Every test of the lab gets the same verdict (the lab did not build, or was
   not run): the message is the lab's, held once, not once per test. */
static void fail_all(gr_lab_result *lr, gr_verdict v, const char *message)
{
    free(lr->message);
    lr->message = gr_xstrdup(message);
    for (int i = 0; i < lr->n_tests; i++)
        lr->tests[i].verdict = v;
}

/* The wall-clock budget of one submission (gr_grade): past deadline, the tests
   not yet run get a verdict instead. */
typedef struct budget {
    double deadline;            /* gr_now_seconds() after which nothing more runs */
    long seconds;               /* the budget, for the message */
} budget;

/* Why the lab's tests from here on are not run, or NULL: two time-outs
   already (a lab that hangs would hang in every test), or the budget spent. */
static char *not_run_reason(const budget *bg, int timeouts)
{
    if (timeouts >= TIMEOUTS_TO_STOP)
        return gr_xasprintf("not run: earlier tests timed out (%d of them); make those finish "
                            "and every test runs", timeouts);
    if (gr_now_seconds() > bg->deadline)
        return gr_xasprintf("not run: the submission's grading budget of %ld s of wall clock "
                            "ran out (each lab's rubric sets its share, budget_s)", bg->seconds);
    return NULL;
}

/* Make, run and score one rubric test. 0, or a gr_grade error code when
   grading cannot go on (err says why). */
static int grade_test(const gr_grade_opts *o, const gr_lab_module *mod, int lab,
                      const gr_rubric *r, const gr_rubric_test *t, const char *exe,
                      gr_test_result *tr, char *err, size_t errlen)
{
    gr_case c;
    memset(&c, 0, sizeof c);
    char cerr[512];
    if (mod->make_case(t, gr_test_seed(t, o->secret, o->student, lab), &c, cerr, sizeof cerr) != 0) {
        snprintf(err, errlen, "%s:%d: test '%s': %s", r->path, t->line, t->name, cerr);
        gr_case_free(&c);
        return GR_GRADE_BAD_INPUT;
    }
    gr_outcome oc;
    int rc = gr_run_case(exe, mod, t, &c, &oc, err, errlen);
    gr_case_free(&c);
    if (rc != 0)
        return gr_stop_requested() ? GR_GRADE_STOPPED : GR_GRADE_FAILED;
    tr->verdict = oc.verdict;
    tr->message = oc.message;
    tr->misconception = oc.misconception;
    tr->student_output = oc.output;
    tr->seconds = oc.seconds;
    tr->score = oc.verdict == GR_PASSED ? tr->max_score : 0;
    oc.message = oc.misconception = oc.output = NULL;   /* the result owns them now */
    gr_outcome_free(&oc);
    return 0;
}

/* Cut r down to its test called name (a regrade of one test), moved first:
   0, or -1 with err listing the tests r has. The others stay behind n_tests,
   so setting n_tests back lets gr_rubric_free free them. */
static int keep_only(gr_rubric *r, const char *name, char *err, size_t errlen)
{
    for (int i = 0; i < r->n_tests; i++) {
        if (strcmp(r->tests[i].name, name) != 0)
            continue;
        gr_rubric_test keep = r->tests[i];
        r->tests[i] = r->tests[0];
        r->tests[0] = keep;
        r->n_tests = 1;
        return 0;
    }
    gr_strbuf b = {0};
    for (int i = 0; i < r->n_tests; i++)
        gr_sb_printf(&b, "%s%s", i ? ", " : "", r->tests[i].name);
    gr_set_err(err, errlen, "%s has no test named '%s'; its tests are: %s", r->path, name,
               b.s ? b.s : "(none)");
    free(b.s);
    return -1;
}

/* The path of the lab's file as intake found it, lr noting it relative to the
   submission (and why, when a forgiving rule found it); NULL after giving
   every test of lr the verdict when it is missing, ambiguous or not a
   regular file (read here as every student file is, so a FIFO never blocks). */
static char *found_source(const char *submission, const gr_intake *in, int lab,
                          gr_lab_result *lr)
{
    const gr_intake_lab *il = &in->labs[lab - 1];
    if (il->status == GR_INTAKE_FOUND) {
        lr->source = gr_xstrdup(il->rel);
        lr->source_how = il->how ? gr_xstrdup(il->how) : NULL;
    }
    gr_verdict v;
    char *m = NULL;
    char *path = gr_intake_take(submission, in, lab, &v, &m);
    if (!path)
        fail_all(lr, v, m);
    free(m);
    return path;
}

static int grade_lab(const gr_grade_opts *o, const gr_intake *in, const budget *bg, int lab,
                     const char *work, gr_lab_result *lr, char *err, size_t errlen)
{
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    char *path = gr_rubric_path(o->root, o->rubrics, lab);
    gr_rubric r;
    int rc = gr_rubric_load(path, &r, err, errlen);
    free(path);
    if (rc != 0)
        return GR_GRADE_BAD_INPUT;
    if (o->visible_only)
        gr_rubric_keep_visible(&r);
    int n_all = r.n_tests;
    if (o->only_test && keep_only(&r, o->only_test, err, errlen) != 0) {
        gr_rubric_free(&r);
        return GR_GRADE_BAD_INPUT;
    }

    lr->lab = lab;
    lr->name = gr_xstrdup(mod->dir);
    lr->n_tests = r.n_tests;
    lr->tests = gr_xcalloc((size_t)r.n_tests, sizeof *lr->tests);
    for (int i = 0; i < r.n_tests; i++) {
        gr_test_result *tr = &lr->tests[i];
        tr->name = gr_xstrdup(r.tests[i].name);
        tr->max_score = r.tests[i].points;
        tr->visibility = r.tests[i].visibility;
        lr->max_score += tr->max_score;
    }

    char *src = o->sources[lab - 1] ? gr_xstrdup(o->sources[lab - 1])
                                    : found_source(o->submission, in, lab, lr);
    if (!src)
        goto done;

    char *skip = not_run_reason(bg, 0);
    if (skip) {
        fail_all(lr, GR_TIMED_OUT, skip);
        free(skip);
        goto done;
    }
    gr_paths paths = { .root = o->root, .stub_dir = o->stub_dir, .work_dir = work };
    gr_build b;
    if (gr_build_lab(&r, mod->dir, src, &paths, &b, err, errlen) != 0) {
        rc = GR_GRADE_FAILED;
        goto done;
    }
    lr->build_seconds = b.compile_seconds;
    if (!b.ok)
        fail_all(lr, b.verdict, b.message ? b.message : "the lab did not build");
    if (b.log)                            /* a built lab's log is its warnings: shown too */
        lr->compile_log = gr_xstrdup(b.log);
    for (int i = 0; i < r.n_tests; i++)
        r.tests[i].limits.static_bytes = b.static_bytes;   /* measured in the program: it counts */
    for (int i = 0, timeouts = 0; b.ok && i < r.n_tests && rc == 0; i++) {
        if ((skip = not_run_reason(bg, timeouts)) != NULL) {
            fail_from(lr, i, GR_TIMED_OUT, skip);
            free(skip);
            break;
        }
        rc = grade_test(o, mod, lab, &r, &r.tests[i], b.exe, &lr->tests[i], err, errlen);
        timeouts += rc == 0 && lr->tests[i].verdict == GR_TIMED_OUT;
        if (rc == 0 && gr_stop_requested())
            rc = GR_GRADE_STOPPED;
        lr->test_seconds += lr->tests[i].seconds;
        lr->score += lr->tests[i].score;
        if (o->first_failure && lr->tests[i].verdict != GR_PASSED)
            break;
    }
    gr_build_free(&b);
done:
    free(src);
    r.n_tests = n_all;
    gr_rubric_free(&r);
    return rc;
}

/* ---- the whole run --------------------------------------------------------------- */

/* What a lab's worker needs (pool.h). */
typedef struct lab_ctx {
    const gr_grade_opts *o;
    const gr_intake *in;        /* where each lab's file is */
    const char *work;
    budget bg;
} lab_ctx;

/* Grade one lab and time it (pool.h's gr_lab_job); its progress line when asked. */
static int lab_job(void *ctx, int lab, gr_lab_result *lr, char *err, size_t errlen)
{
    const lab_ctx *lc = ctx;
    double t0 = gr_now_seconds();
    int rc = grade_lab(lc->o, lc->in, &lc->bg, lab, lc->work, lr, err, errlen);
    lr->seconds = gr_now_seconds() - t0;
    if (rc == 0 && gr_stop_requested())
        rc = GR_GRADE_STOPPED;
    if (rc == 0 && lc->o->progress)
        fprintf(lc->o->progress, "attnlab: graded %s: built in %.2f s, %d tests ran in %.2f s\n",
                lr->name, lr->build_seconds, lr->n_tests, lr->test_seconds);
    return rc;
}

/* The submission's wall-clock budget from t0: the sum of the graded labs'
   budget_s (a rubric that does not load counts the default; grading it says why). */
static budget submission_budget(const gr_grade_opts *o, const int *labs, int n, double t0)
{
    budget bg = {t0, 0};
    for (int i = 0; i < n; i++) {
        char *path = gr_rubric_path(o->root, o->rubrics, labs[i]), e[16];
        gr_rubric r;
        if (gr_rubric_load(path, &r, e, sizeof e) == 0) {
            bg.seconds += r.budget_s;
            gr_rubric_free(&r);
        } else {
            bg.seconds += GR_DEFAULT_BUDGET_S;
        }
        free(path);
    }
    bg.deadline = t0 + (double)bg.seconds;
    return bg;
}

/* Grade labs[0..n) into out->labs, in worker processes when o->jobs > 1. */
static int grade_labs(const gr_grade_opts *o, const gr_intake *in, const char *work,
                      const int *labs, int n, gr_report *out, char *err, size_t errlen)
{
    lab_ctx lc = {o, in, work, submission_budget(o, labs, n, gr_now_seconds())};
    int rc = 0;
    if (o->jobs > 1 && n > 1) {
        rc = gr_pool_run(lab_job, &lc, labs, n, o->jobs, out->labs, err, errlen);
        out->n_labs = n;
    } else {
        for (int i = 0; i < n && rc == 0; i++, out->n_labs++)
            rc = lab_job(&lc, labs[i], &out->labs[i], err, errlen);
    }
    /* tests are numbered through the whole run, lab by lab */
    int number = 0;
    for (int i = 0; i < out->n_labs; i++) {
        for (int j = 0; j < out->labs[i].n_tests; j++)
            out->labs[i].tests[j].number = ++number;
        out->score += out->labs[i].score;
        out->max_score += out->labs[i].max_score;
    }
    return rc;
}

int gr_grade(const gr_grade_opts *o, gr_report *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    double t0 = gr_now_seconds();
    char *work = gr_work_dir_make("grade", err, errlen);
    if (!work)
        return GR_GRADE_FAILED;
    out->student = gr_xstrdup(o->student);
    out->practice_secret = gr_secret_unfit(o->secret, o->student);
    out->labs = gr_xcalloc(GR_N_LABS, sizeof *out->labs);
    gr_strbuf walls = {0};
    gr_confine_describe(gr_confine_probe(), &walls);
    out->confinement = gr_sb_take(&walls);
    out->sandbox = gr_xstrdup(gr_sandbox_layers());
    if (o->progress)
        fprintf(o->progress, "attnlab: the toolchain runs confined by: %s\n", out->confinement);
    int labs[GR_N_LABS], n = 0;
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (o->labs[lab - 1])
            labs[n++] = lab;
    /* where each lab's file is; only a submission that cannot be opened at all
       leaves every lab missing */
    gr_intake in;
    char why[512];
    if (!o->submission || gr_intake_scan(o->submission, &in, why, sizeof why) != 0) {
        memset(&in, 0, sizeof in);
        for (int lab = 0; lab < GR_N_LABS; lab++)
            in.labs[lab].status = GR_INTAKE_MISSING;
    }
    int rc = grade_labs(o, &in, work, labs, n, out, err, errlen);
    gr_intake_free(&in);
    gr_work_dir_remove(work);
    out->seconds = gr_now_seconds() - t0;
    if (rc == GR_GRADE_STOPPED)
        snprintf(err, errlen, "stopped by signal %d before every lab was graded; no report written",
                 gr_stop_requested());
    if (rc != 0) {
        gr_report_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
