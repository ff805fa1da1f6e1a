/* judge.c: one case run and judged (see judge.h). */
#include "engine/judge.h"
#include "base/layout.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/compare.h"
#include "labsup.h"
#include "base/protocol.h"

#define EXCERPT_MAX 1024   /* bytes of a child's output kept in a report */

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

void gr_judge_misconception_advice(gr_strbuf *out, const gr_misconception *mc)
{
    char *handout = gr_layout_handout_at(mc->handout.lab, mc->handout.section);
    gr_sb_printf(out, "This is exactly what %s gives. %s\nReread %s.\n", mc->name, mc->explain,
                 handout);
    free(handout);
}

void gr_judge_timeout_message(gr_strbuf *msg, const char *describe, long time_ms,
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

/* What the call left in memory, as the parent read it from the stopped child
   (inspect.h): a write below an array argument or past a malloc'd block ends
   the test as the crash it is; scratch memory still allocated is a wrong
   answer, whatever was computed, since the contract forbids it. 1 when one
   of them decided the verdict. */
static int memory_message(gr_strbuf *msg, const char *describe, const gr_inspection *m,
                          gr_outcome *out)
{
    if (m->below) {
        out->verdict = GR_CRASHED;
        gr_sb_printf(msg, "%s\ncrashed with %s\na write below the first element of an array "
                     "argument", describe, signal_story(SIGSEGV));
        return 1;
    }
    if (m->leak_blocks == 0)
        return 0;
    out->verdict = GR_WRONG_ANSWER;
    gr_sb_printf(msg, "%s\nyour code returned with %llu byte%s in %llu block%s of scratch memory "
                 "still allocated: free %s before returning (the contract's rule)", describe,
                 (unsigned long long)m->leak_bytes, m->leak_bytes == 1 ? "" : "s",
                 (unsigned long long)m->leak_blocks, m->leak_blocks == 1 ? "" : "s",
                 m->leak_blocks == 1 ? "it" : "them");
    return 1;
}

/* Exit 0 without the stop after the answer, or a stop the grader could not
   read: the answer is not trusted, since what the call left is unknown. */
static void uninspected_message(gr_strbuf *msg, const char *describe, const gr_sandbox_result *run)
{
    if (run->memory.unreadable)
        gr_sb_printf(msg, "%s\nthe grader could not read the test program's memory after the call "
                     "(%s), so its answer is not trusted", describe,
                     strerror(run->memory.unreadable));
    else if (run->response_len == 0)
        gr_sb_printf(msg, "%s\nexited with status 0 before answering (does the code end the "
                     "process?)", describe);
    else
        gr_sb_printf(msg, "%s\nthe program ended by itself after the call instead of waiting to "
                     "have its memory checked, so its answer is not trusted (does the code end "
                     "the process?)", describe);
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
        gr_judge_timeout_message(&msg, c->describe, t->limits.time_ms, run);
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
    } else if (run->exit_code == PROTO_EXIT_TOO_MANY_BLOCKS) {
        out->verdict = GR_OUT_OF_MEMORY;
        gr_sb_printf(&msg, "%s\nheld more than %d blocks from malloc at once; allocate a few "
                     "larger arrays instead of many small ones", c->describe, PROTO_MAX_BLOCKS);
    } else if (run->exit_code != PROTO_EXIT_OK) {
        gr_sb_printf(&msg, "%s\nexited with status %d before answering (does the code call exit()?)",
                     c->describe, run->exit_code);
    } else if (!run->inspected) {
        uninspected_message(&msg, c->describe, run);
    } else if (memory_message(&msg, c->describe, &run->memory, out)) {
        /* the memory's verdict */
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
                gr_compare_explain(mod, c, out->got, &m, &msg);
                gr_sb_printf(&msg, "(tolerance: |got - expected| <= %g + %g * |expected|)\n", t->abs_tol, t->rel_tol);
                const gr_misconception *mc = gr_compare_diagnose(mod, c, out->got, t->abs_tol, t->rel_tol);
                if (mc)               /* each report explains it once, from the id */
                    out->misconception = gr_xstrdup(mc->id);
            }
        }
    }
    out->message = out->verdict == GR_PASSED ? NULL : gr_sb_take(&msg);
    free(msg.s);
}

int gr_judge_case(const char *exe, const gr_lab_module *mod, const gr_rubric_test *t,
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

void gr_judge_outcome_free(gr_outcome *o)
{
    free(o->message);
    free(o->misconception);
    free(o->output);
    for (int i = 0; i < PROTO_MAX_BUFS; i++)
        free(o->got[i]);
    memset(o, 0, sizeof *o);
}
