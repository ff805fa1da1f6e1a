/* build.c: turn one student source file into a sandboxable test executable
 * (see build.h for the steps and their verdicts).
 *
 * Everything happens in a private work folder under paths->work_dir, and every
 * program that reads the student's text runs confined to it (confine.h): as
 * user nobody, seeing only the toolchain and this folder, under limits.
 *
 *   labNN.c          the one normalised copy of the student's file (read as a
 *                    regular file only, never through a link): what every
 *                    check (scan.h, srccheck.h) and the compiler read
 *   inc/labNN.h      pristine copies of the contract header and labsup.h
 *   inc/labsup.h
 *   child/NAME.o     copies of the grader's test child's objects, so the linker
 *                    needs nothing of the grader's tree
 *   labNN.i          the preprocessed source: checked, then compiled as it is
 *   labNN.s          the compiler's assembly: checked, then assembled as it is
 *   labNN.o          the object: sections and external symbols checked
 *   labNN.local.o    the same object with every global but lab_* made local,
 *                    so student code cannot replace a C library or test child function
 *                    (getenv, malloc_usable_size, write ...) that the test child relies on
 *   labNN-test       the static test executable: no interpreter, no dynamic part
 *
 * What is checked is what is compiled: the preprocessor runs once with the
 * compile's own flags and the compiler reads that very output; the assembler
 * reads the very assembly that was checked. No step uses LTO, so no linker
 * plugin reads options an object carries.
 */
#include "confined/build.h"
#include "confined/confine.h"
#include "confined/objcheck.h"
#include "confined/scan.h"
#include "confined/shown.h"
#include "confined/srccheck.h"
#include "confined/tool.h"
#include "base/util.h"
#include "base/layout.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define TOOL_SECONDS     30                  /* wall clock for one compiler or linker run */
#define TOOL_CPU_SECONDS 15                  /* its CPU time: a macro bomb ends here */
#define TOOL_MEMORY      ((size_t)2 << 30)   /* its address space */
#define TOOL_LOG_BYTES   (64 * 1024)         /* output kept from a tool */
#define MAX_INTERMEDIATE ((size_t)64 << 20)  /* a lab's .i or .s is well under 1 MiB */

/* The warning flags students see from make test in a lab folder: the Makefile
   passes labs/warnings.mk's LAB_WARN as a list of C strings. */
#ifndef GR_LAB_WARN
#error "GR_LAB_WARN is missing: build attnlab with the top Makefile (it reads labs/warnings.mk)"
#endif

/* The compile's flags, the same for preprocessing and compiling. */
#define COMPILE_FLAGS "-std=c11", "-O2", "-fno-stack-protector", "-fno-common", \
    "-U_FORTIFY_SOURCE", "-fno-lto", "-fdiagnostics-color=never", "-Werror=trampolines", GR_LAB_WARN

/* The child objects linked with every lab's object (labNN_dispatch.o is the lab's). */
static const char *const child_names[] = {"child_main.o", "dispatch", "sup_rng.o", "sup_tensor.o"};
#define N_CHILD 4

/* ---- small helpers ----------------------------------------------------------------------- */

static int copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = gr_read_file(from, &len);
    if (!data)
        return -1;
    int rc = gr_write_file_atomic(to, data, len);
    free(data);
    return rc == 0 ? chmod(to, 0644) : rc;
}

static int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The environment tools run with, and nothing more: a PATH of system folders,
   the C locale (messages the grader can rewrite and students can search for),
   the private folder as TMPDIR. */
typedef struct tool_env {
    char *vars[4];
} tool_env;

static void make_env(tool_env *te, const char *priv)
{
    te->vars[0] = gr_xstrdup("PATH=/usr/bin:/bin");
    te->vars[1] = gr_xstrdup("LC_ALL=C");
    te->vars[2] = gr_xasprintf("TMPDIR=%s", priv);
    te->vars[3] = NULL;
}

static void free_env(tool_env *te)
{
    for (int i = 0; te->vars[i]; i++)
        free(te->vars[i]);
}

static void fail_with(gr_build *out, gr_verdict v, char *message, char *log)
{
    out->ok = 0;
    out->verdict = v;
    out->message = message;
    out->log = log;
}

/* ---- the build context: what the steps share ------------------------------------------------ */

/* How a step ended. */
typedef enum step_outcome {
    STEP_OK,        /* go on with the next step */
    STEP_VERDICT,   /* out holds a verdict for the student: gr_build_lab returns 0 */
    STEP_FAIL       /* the grader itself failed, err says why: gr_build_lab returns -1 */
} step_outcome;

typedef struct build_ctx {
    /* the call */
    const gr_rubric *r;
    const char *lab_dir_name;
    const char *src;            /* the student's file, as the caller named it */
    gr_paths paths;             /* the caller's paths made absolute: tools run inside priv */
    char root_abs[PATH_MAX], child_abs[PATH_MAX], work_abs[PATH_MAX];
    gr_build *out;
    char *err;
    size_t errlen;

    /* derived from it before any step */
    char tag[16];               /* labNN */
    char *source;               /* the rubric's source file name, or labNN.c */
    char *contract;             /* labNN.h */
    char *cc;                   /* the C compiler: $ATTNLAB_CC or cc */
    char *child_from[N_CHILD];    /* the grader's child objects in its build folder */
    char *child_to[N_CHILD];      /* their copies in priv/child, as the linker is given them */
    char *hdr_from, *sup_from;  /* the pristine contract header and labsup.h in the tree */

    /* made by the steps */
    char *text;                 /* prepare: the student's file */
    size_t text_len;
    char *priv;                 /* prepare: the private directory */
    gr_confine *confine;        /* prepare: the walls around its tools */
    tool_env te;                /* prepare: the environment tools run with */
    gr_directive_scan ds;       /* check_includes: the #include and #line directives */
    char *ifile, *sfile, *ofile;/* preprocess, compile, assemble: labNN.i, .s, .o in priv */
    gr_obj_facts of;            /* check_object: the object's symbols, sections and size */
    char *exe;                  /* link_executable: the test executable */
} build_ctx;

/* Fill c from the call: absolute paths, the lab's file names, the compiler, the
   grader's own files to look for. 0, or -1 (err set, nothing to free) when a
   path cannot be resolved. */
static int ctx_init(build_ctx *c, const gr_rubric *r, const char *lab_dir_name, const char *src,
                    const gr_paths *paths, gr_build *out, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->lab_dir_name = lab_dir_name;
    c->src = src;
    c->out = out;
    c->err = err;
    c->errlen = errlen;
    if (!realpath(paths->root, c->root_abs) || !realpath(paths->child_dir, c->child_abs) ||
        !realpath(paths->work_dir, c->work_abs)) {
        gr_set_err(err, errlen, "build: cannot resolve the tree %s, child folder %s or work folder %s: %s",
                   paths->root, paths->child_dir, paths->work_dir, strerror(errno));
        return -1;
    }
    c->paths = (gr_paths){c->root_abs, c->child_abs, c->work_abs};
    snprintf(c->tag, sizeof c->tag, "lab%02d", r->lab);
    c->source = r->source && *r->source ? gr_xstrdup(r->source) : gr_xasprintf("%s.c", c->tag);
    c->contract = gr_xasprintf("%s.h", c->tag);
    const char *cc = getenv("ATTNLAB_CC");
    c->cc = gr_xstrdup(cc && *cc ? cc : "cc");
    char **in = gr_build_inputs(r, lab_dir_name, &c->paths);
    c->hdr_from = in[0];
    c->sup_from = in[1];
    for (int i = 0; i < N_CHILD; i++) {
        c->child_from[i] = in[2 + i];
        c->child_to[i] = gr_xasprintf("child/%s", strrchr(in[2 + i], '/') + 1);
    }
    free(in);
    return 0;
}

static void ctx_free(build_ctx *c)
{
    free_env(&c->te);
    gr_scan_directives_free(&c->ds);
    gr_objcheck_free(&c->of);
    gr_confine_free(c->confine);
    for (int i = 0; i < N_CHILD; i++) {
        free(c->child_from[i]);
        free(c->child_to[i]);
    }
    free(c->source);
    free(c->contract);
    free(c->cc);
    free(c->hdr_from);
    free(c->sup_from);
    free(c->text);
    free(c->priv);
    free(c->ifile);
    free(c->sfile);
    free(c->ofile);
    free(c->exe);
}

/* Run a tool (no shell, found on the tools' PATH) confined to the private
   directory, killed after TOOL_SECONDS; the caller frees tr->log, its raw
   output (the first TOOL_LOG_BYTES). 0, or STEP_FAIL's -1 with err set when it
   could not be started: that is the grader's fault, not the student's. */
static int run_confined(build_ctx *c, const char *const argv[], gr_tool_run *tr)
{
    const gr_tool_opts o = {.cwd = c->priv, .env = c->te.vars, .seconds = TOOL_SECONDS,
                            .log_bytes = TOOL_LOG_BYTES, .path_search = 1,
                            .cpu_seconds = TOOL_CPU_SECONDS, .memory_bytes = TOOL_MEMORY,
                            .file_bytes = MAX_INTERMEDIATE,
                            .confine = c->confine};
    if (gr_tool_exec(argv, &o, tr) == 0)
        return 0;
    gr_set_err(c->err, c->errlen, "build: %s (%s): %s", tr->why, argv[0], strerror(errno));
    return -1;
}

/* A tool's output trimmed for the student (gr_shown_log), or NULL. */
static char *shown_log(const build_ctx *c, const char *raw)
{
    return gr_shown_log(raw, c->priv, c->paths.child_dir, c->source);
}

/* Run the C compiler on the student's code (doing: "preprocess", "compile",
   "assemble"): STEP_FAIL when it cannot be started, a GR_COMPILE_ERROR verdict
   with its first errors when it fails or takes too long, else STEP_OK with its
   trimmed output (warnings) in *log, or NULL. */
static step_outcome compile_student(build_ctx *c, const char *const argv[], const char *doing,
                                    char **log)
{
    *log = NULL;
    gr_tool_run tr;
    if (run_confined(c, argv, &tr) != 0)
        return STEP_FAIL;
    char *shown = shown_log(c, tr.log);
    free(tr.log);
    if (gr_tool_ok(&tr)) {
        *log = shown;
        return STEP_OK;
    }
    free(c->out->log);                    /* warnings of an earlier step */
    c->out->log = NULL;
    int limit = tr.timed_out || (WIFSIGNALED(tr.status) && WTERMSIG(tr.status) == SIGXCPU);
    fail_with(c->out, GR_COMPILE_ERROR,
              limit ? gr_xasprintf("%s took longer than the grader allows (%d s of CPU) to %s; "
                                   "look for macros that expand without end.",
                                   c->source, TOOL_CPU_SECONDS, doing)
              : WIFSIGNALED(tr.status)
                  ? gr_xasprintf("the compiler stopped with signal %d while trying to %s %s "
                                 "(out of memory or file size?): make the file smaller and "
                                 "simpler.", WTERMSIG(tr.status), doing, c->source)
                  : gr_xasprintf("%s does not compile. The compiler's first errors are below "
                                 "(file:line:column: what is wrong); fix the first one, then "
                                 "grade again.", c->source),
              shown);
    return STEP_VERDICT;
}

/* Read an intermediate file the toolchain wrote into priv (a regular file of at
   most MAX_INTERMEDIATE bytes, *len of them); NULL with a GR_COMPILE_ERROR
   verdict if not. */
static char *read_intermediate(build_ctx *c, const char *name, size_t *len, step_outcome *s)
{
    char *path = gr_xasprintf("%s/%s", c->priv, name);
    char *text = NULL, why[128];
    *len = 0;
    int rc = gr_read_regular(path, MAX_INTERMEDIATE, &text, len, why, sizeof why);
    free(path);
    *s = STEP_OK;
    if (rc != 0) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("compiling %s made a %s of %s; a lab file is a few hundred "
                               "lines of plain C.", c->source, name,
                               rc > 0 ? why : strerror(errno)), NULL);
        *s = STEP_VERDICT;
    }
    return text;
}

/* ---- the steps, in order ---------------------------------------------------------------------- */

/* The student's file, read as a regular file of a lab file's size (a
   GR_COMPILE_ERROR verdict naming what was found if not), made the one copy
   every check and the compiler read (gr_scan_normalise): a NUL byte in it
   is a GR_COMPILE_ERROR verdict naming its line. */
static step_outcome read_source(build_ctx *c)
{
    char why[128];
    int rc = gr_read_regular(c->src, GR_MAX_SOURCE_BYTES, &c->text, &c->text_len, why, sizeof why);
    int nul = rc == 0 ? gr_scan_normalise(c->text, &c->text_len) : 0;
    if (nul) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("%s:%d: a NUL byte (character 0), which the compiler would skip "
                               "without a word; a C file is text: remove it (save the file "
                               "as plain UTF-8 text).", c->source, nul), NULL);
        return STEP_VERDICT;
    }
    if (rc > 0) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("%s is not a regular file: it is %s. Submit the source file "
                               "itself.", c->source, why), NULL);
        return STEP_VERDICT;
    }
    if (rc < 0) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("cannot read %s (%s): put it in the lab's folder and grade again.",
                               c->source, strerror(errno)), NULL);
        return STEP_VERDICT;
    }
    return STEP_OK;
}

/* A fresh private directory holding the student's text, the pristine headers
   and the child objects, and the walls its tools run in; STEP_FAIL if the
   grader cannot make them. */
static step_outcome make_private_dir(build_ctx *c)
{
    c->priv = gr_xasprintf("%s/build-%s-XXXXXX", c->paths.work_dir, c->tag);
    if (!mkdtemp(c->priv)) {
        gr_set_err(c->err, c->errlen, "build: cannot make a directory under %s: %s", c->paths.work_dir,
                   strerror(errno));
        free(c->priv);
        c->priv = NULL;
        return STEP_FAIL;
    }
    char *inc = gr_xasprintf("%s/inc", c->priv), *objs = gr_xasprintf("%s/child", c->priv);
    char *hdr_to = gr_xasprintf("%s/%s", inc, c->contract);
    char *sup_to = gr_xasprintf("%s/labsup.h", inc);
    char *src_to = gr_xasprintf("%s/%s", c->priv, c->source);
    /* modes set explicitly: the grader's umask may be 077, and the tools run as nobody */
    int copied = mkdir(inc, 0755) == 0 && chmod(inc, 0755) == 0 &&
                 mkdir(objs, 0755) == 0 && chmod(objs, 0755) == 0 &&
                 copy_file(c->hdr_from, hdr_to) == 0 && copy_file(c->sup_from, sup_to) == 0 &&
                 gr_write_file_atomic(src_to, c->text, c->text_len) == 0 && chmod(src_to, 0644) == 0;
    for (int i = 0; copied && i < N_CHILD; i++) {
        char *to = gr_xasprintf("%s/%s", c->priv, c->child_to[i]);
        copied = copy_file(c->child_from[i], to) == 0;
        free(to);
    }
    int saved = errno;
    free(inc);
    free(objs);
    free(hdr_to);
    free(sup_to);
    free(src_to);
    if (!copied) {
        gr_set_err(c->err, c->errlen, "build: cannot copy the sources into %s: %s", c->priv,
                   strerror(saved));
        return STEP_FAIL;
    }
    c->confine = gr_confine_new(c->priv, NULL, c->err, c->errlen);
    if (!c->confine)
        return STEP_FAIL;
    make_env(&c->te, c->priv);
    return STEP_OK;
}

/* Check that the grader's own child objects and pristine headers exist (STEP_FAIL
   if not), read the student's file and make the private directory. */
static step_outcome prepare(build_ctx *c)
{
    if (strchr(c->source, '/')) {
        gr_set_err(c->err, c->errlen, "build: the rubric's source '%s' must be a file name, not a path",
                   c->source);
        return STEP_FAIL;
    }
    for (int i = 0; i < N_CHILD; i++) {
        if (!file_exists(c->child_from[i])) {
            gr_set_err(c->err, c->errlen, "build: %s is missing; build the grader first (make)",
                       c->child_from[i]);
            return STEP_FAIL;
        }
    }
    if (!file_exists(c->hdr_from) || !file_exists(c->sup_from)) {
        gr_set_err(c->err, c->errlen,
                   "build: the contract header %s or %s is missing from the attnlab tree",
                   c->hdr_from, c->sup_from);
        return STEP_FAIL;
    }
    step_outcome s = read_source(c);
    return s == STEP_OK ? make_private_dir(c) : s;
}

/* The lab's include rules, for srccheck.h. */
static gr_src_rules src_rules(const build_ctx *c)
{
    return (gr_src_rules){c->r, c->source, c->contract};
}

/* Step 1: every #include line must name an allowed header and there must be no
   #line (it would blur what comes from where); a GR_FORBIDDEN_CALL verdict
   naming each offending line if not. Early feedback by line; step 2 decides. */
static step_outcome check_includes(build_ctx *c)
{
    gr_scan_directives(c->text, c->text_len, &c->ds);
    gr_src_rules sr = src_rules(c);
    char *msg = gr_srccheck_includes(&sr, &c->ds);
    if (!msg)
        return STEP_OK;
    fail_with(c->out, GR_FORBIDDEN_CALL, msg, NULL);
    return STEP_VERDICT;
}

/* Step 2a: the preprocessor's record of the very text that will be compiled:
   every file it entered, and the student's own lines (gr_scan_preprocessed);
   a GR_FORBIDDEN_CALL verdict naming what is refused. */
static step_outcome check_preprocessed(build_ctx *c, const char *pre, size_t len)
{
    gr_src_rules sr = src_rules(c);
    char *msg = gr_srccheck_preprocessed(&sr, pre, len, c->ds.n_inc);
    if (!msg)
        return STEP_OK;
    fail_with(c->out, GR_FORBIDDEN_CALL, msg, NULL);
    return STEP_VERDICT;
}

/* Step 2: preprocess once, with the compile's own flags, into labNN.i and
   check it (check_preprocessed); GR_COMPILE_ERROR if it does not preprocess. */
static step_outcome preprocess(build_ctx *c)
{
    c->ifile = gr_xasprintf("%s.i", c->tag);
    const char *argv[] = {c->cc, COMPILE_FLAGS, "-E", "-I", "inc", c->source, "-o", c->ifile, NULL};
    char *log;
    step_outcome s = compile_student(c, argv, "preprocess", &log);
    free(log);
    if (s != STEP_OK)
        return s;
    size_t len;
    char *pre = read_intermediate(c, c->ifile, &len, &s);
    if (s == STEP_OK)
        s = check_preprocessed(c, pre, len);
    free(pre);
    return s;
}

/* Step 3: compile the checked labNN.i (nothing else) into assembly, labNN.s,
   and check every directive and section in it (gr_scan_assembly); a
   GR_COMPILE_ERROR verdict with the compiler's first errors if it does not
   compile, GR_FORBIDDEN_CALL for a refused directive. Warnings go to out->log. */
static step_outcome compile_assembly(build_ctx *c)
{
    c->sfile = gr_xasprintf("%s.s", c->tag);
    const char *argv[] = {c->cc, COMPILE_FLAGS, "-S", c->ifile, "-o", c->sfile, NULL};
    char *log;
    step_outcome s = compile_student(c, argv, "compile", &log);
    if (s != STEP_OK)
        return s;
    c->out->log = log;                    /* warnings, if any, are worth showing */
    size_t len;
    char *as = read_intermediate(c, c->sfile, &len, &s);
    char why[160];
    int line = s == STEP_OK ? gr_scan_assembly(as, len, why, sizeof why) : 0;
    free(as);
    if (line > 0) {
        fail_with(c->out, GR_FORBIDDEN_CALL,
                  gr_xasprintf("%s puts %s into the assembly (%s line %d); graded code is plain "
                               "C: no asm, no section or symbol attributes.", c->source, why,
                               c->sfile, line), c->out->log);
        return STEP_VERDICT;
    }
    return s;
}

/* Step 4: assemble the checked labNN.s into labNN.o. */
static step_outcome assemble(build_ctx *c)
{
    c->ofile = gr_xasprintf("%s.o", c->tag);
    const char *argv[] = {c->cc, "-fno-lto", "-c", c->sfile, "-o", c->ofile, NULL};
    char *log;
    step_outcome s = compile_student(c, argv, "assemble", &log);
    free(log);
    return s;
}

/* Step 5: the object may hold only the sections plain C makes, no indirect
   function, and no external symbol the lab does not allow; a GR_FORBIDDEN_CALL
   verdict naming each offence if not. */
static step_outcome check_object(build_ctx *c)
{
    const gr_rubric *r = c->r;
    const gr_obj_facts *of = &c->of;
    char *opath = gr_xasprintf("%s/%s", c->priv, c->ofile);
    int ok = gr_objcheck_read(opath, &c->of);
    free(opath);
    if (ok != 0) {
        fail_with(c->out, GR_COMPILE_ERROR,
                  gr_xasprintf("compiling %s did not give an ELF64 object the grader can read.",
                               c->source), c->out->log);
        return STEP_VERDICT;
    }
    gr_strbuf msg = {0};
    gr_capped cap;
    gr_capped_init(&cap, &msg, GR_CAPPED_ITEMS);
    gr_strset seen = {0};
    int bad = 0;
    for (int i = 0; i < of->n_undef; i++) {
        const char *sym = of->undef[i];
        if (gr_objcheck_symbol_allowed(r, sym) || !gr_strset_add(&seen, sym))
            continue;
        bad++;
        if (!gr_capped_take(&cap))
            continue;
        const char *why = gr_objcheck_symbol_reason(sym);
        gr_sb_printf(&msg, "%.80s is not allowed in this lab: %s.\n", sym,
                     why ? why : "it is not among the library functions the handout lists");
    }
    gr_strset_free(&seen);
    gr_capped_end(&cap, "functions like these");
    if (of->ifunc) {
        gr_sb_printf(&msg, "%.80s is declared as an indirect function (ifunc), which runs before "
                     "the grader's checks; write an ordinary function.\n", of->ifunc);
        bad++;
    }
    if (of->bad_section) {
        gr_sb_printf(&msg, "the object has a section named %.80s, which plain C does not make "
                     "(section attributes, LTO and loader sections are not allowed).\n",
                     of->bad_section);
        fail_with(c->out, GR_FORBIDDEN_CALL, gr_sb_take(&msg), c->out->log);
        return STEP_VERDICT;
    }
    if (!bad)
        return STEP_OK;
    gr_sb_append(&msg, "Remove those calls. Library functions this lab allows: ");
    if (r->n_symbols == 0)
        gr_sb_append(&msg, "none beyond memcpy, memset and memmove");
    for (int i = 0; i < r->n_symbols; i++)
        gr_sb_printf(&msg, "%s%s", i ? ", " : "", r->allowed_symbols[i]);
    gr_sb_append(&msg, ".");
    fail_with(c->out, GR_FORBIDDEN_CALL, gr_sb_take(&msg), c->out->log);
    return STEP_VERDICT;
}

/* Step 6's verdict when the link fails: GR_COMPILE_ERROR, naming the lab_
   function the linker could not find when that is why. */
static step_outcome link_failed(build_ctx *c, const char *raw)
{
    const char *miss = raw ? strstr(raw, "undefined reference to `lab_") : NULL;
    char *message;
    if (miss) {
        const char *name = miss + strlen("undefined reference to `");
        size_t n = strcspn(name, "'");
        message = gr_xasprintf("%s compiles but does not link: the grader cannot find %.*s. "
                               "Keep every function of %s with its exact name and signature "
                               "(was one renamed, deleted or made static?).",
                               c->source, (int)n, name, c->contract);
    } else {
        message = gr_xasprintf("%s compiles but does not link; the linker's first messages "
                               "are below.", c->source);
    }
    free(c->out->log);
    fail_with(c->out, GR_COMPILE_ERROR, message, shown_log(c, raw));
    return STEP_VERDICT;
}

/* A tool after the compile (objcopy, the linker) that fails on the student's
   object: their verdict, never the grader's failure. */
static step_outcome tool_failed(build_ctx *c, const char *what, const gr_tool_run *tr)
{
    free(c->out->log);
    fail_with(c->out, GR_COMPILE_ERROR,
              gr_xasprintf("%s compiles, but %s failed on its object%s.", c->source, what,
                           tr->timed_out ? " (it ran out of time)" : ""),
              shown_log(c, tr->log));
    return STEP_VERDICT;
}

/* The link's flags: static, no LTO, a stack that is never executable. */
#define LINK_FLAGS "-static", "-fno-lto", "-Wl,-z,noexecstack"
#define WRAP_FLAGS "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free," \
                   "--wrap=aligned_alloc,--wrap=posix_memalign"

/* The writable bytes of the child objects linked alone (lab_* left unresolved):
   what a program holds before the student's static data. The same for every
   lab (no dispatch object has writable data), so it is measured once per child
   folder and kept here and, for the run's other worker processes, in the work
   folder (the grader's: its tools, as nobody, cannot write there). */
static struct {
    char child_dir[PATH_MAX];
    unsigned long long writable;
} baseline;

/* Link the child objects alone and measure them into baseline: STEP_OK, or
   STEP_FAIL (the grader's own objects do not link: its fault). */
static step_outcome link_baseline(build_ctx *c)
{
    const char *argv[] = {c->cc, LINK_FLAGS, "-o", "baseline-test", c->child_to[0], c->child_to[1],
                          c->child_to[2], c->child_to[3], WRAP_FLAGS,
                          "-Wl,--unresolved-symbols=ignore-all", "-lm", NULL};
    gr_tool_run tr;
    if (run_confined(c, argv, &tr) != 0)
        return STEP_FAIL;
    char *exe = gr_xasprintf("%s/baseline-test", c->priv), why[200];
    int ok = gr_tool_ok(&tr) && gr_objcheck_exe(exe, &baseline.writable, why, sizeof why) == 0;
    free(exe);
    if (!ok)
        gr_set_err(c->err, c->errlen, "build: the child objects alone do not link into a plain "
                   "static program (%s); rebuild the grader (make)",
                   gr_tool_ok(&tr) ? why : tr.log ? tr.log : "no output");
    free(tr.log);
    return ok ? STEP_OK : STEP_FAIL;
}

/* The program's writable bytes beyond the baseline: the student's static data,
   alignment padding included (an _Alignas(1 << 24) array takes 16 MiB). */
static step_outcome measure_static(build_ctx *c, unsigned long long writable)
{
    if (strcmp(baseline.child_dir, c->paths.child_dir) != 0) {
        char *kept = gr_xasprintf("%s/child-writable-bytes", c->paths.work_dir);
        char *text = gr_read_file(kept, NULL), *end = NULL;
        unsigned long long v = text ? strtoull(text, &end, 10) : 0;
        if (text && end != text && *end == '\n') {
            baseline.writable = v;
        } else if (link_baseline(c) != STEP_OK) {
            free(text);
            free(kept);
            return STEP_FAIL;
        } else {
            char num[32];
            int n = snprintf(num, sizeof num, "%llu\n", baseline.writable);
            gr_write_file_atomic(kept, num, (size_t)n);   /* only saves the others a link */
        }
        free(text);
        free(kept);
        snprintf(baseline.child_dir, sizeof baseline.child_dir, "%s", c->paths.child_dir);
    }
    c->out->static_bytes = writable > baseline.writable ? (long)(writable - baseline.writable) : 0;
    return STEP_OK;
}

/* Step 6: with every global but lab_* made local (objcopy), the object must link
   statically with the child objects and the allocator wrappers into an executable
   others may run, with no interpreter, no executable stack or data and none of
   the functions no lab needs (gr_objcheck_exe); a GR_COMPILE_ERROR verdict if it
   does not link, GR_FORBIDDEN_CALL if it would not load as a plain program. Its
   static data is measured from its segments (measure_static). */
static step_outcome link_executable(build_ctx *c)
{
    /* student code cannot replace a C library or test child function the test child relies on */
    char *lfile = gr_xasprintf("%s.local.o", c->tag);
    const char *objcopy = getenv("ATTNLAB_OBJCOPY");
    const char *oc_argv[] = {objcopy && *objcopy ? objcopy : "objcopy", "--wildcard",
                             "--keep-global-symbol=lab_*", c->ofile, lfile, NULL};
    gr_tool_run tr;
    step_outcome s = STEP_OK;
    if (run_confined(c, oc_argv, &tr) != 0) {
        free(lfile);
        return STEP_FAIL;
    }
    if (!gr_tool_ok(&tr))
        s = tool_failed(c, "objcopy", &tr);
    free(tr.log);
    char *exe = gr_xasprintf("%s-test", c->tag);
    char *defsym = gr_xasprintf("-Wl,--defsym=child_student_static_bytes=%llu", c->of.static_bytes);
    const char *argv[] = {c->cc, LINK_FLAGS, "-o", exe, c->child_to[0], lfile, c->child_to[1],
                          c->child_to[2], c->child_to[3], WRAP_FLAGS, defsym, "-lm", NULL};
    if (s == STEP_OK && run_confined(c, argv, &tr) != 0)
        s = STEP_FAIL;
    else if (s == STEP_OK && !gr_tool_ok(&tr))
        s = link_failed(c, tr.log);
    if (s == STEP_OK)
        free(tr.log);
    c->exe = gr_xasprintf("%s/%s", c->priv, exe);
    free(defsym);
    free(exe);
    free(lfile);
    char why[200];
    unsigned long long writable = 0;
    if (s == STEP_OK && gr_objcheck_exe(c->exe, &writable, why, sizeof why) != 0) {
        fail_with(c->out, GR_FORBIDDEN_CALL,
                  gr_xasprintf("%s links, but %s; graded code is plain C.", c->source, why),
                  c->out->log);
        return STEP_VERDICT;
    }
    if (s == STEP_OK)
        s = measure_static(c, writable);
    /* run by user nobody when the grader is root: it must be executable by others */
    if (s == STEP_OK && chmod(c->exe, 0755) != 0) {
        gr_set_err(c->err, c->errlen, "build: cannot chmod %s: %s", c->exe, strerror(errno));
        return STEP_FAIL;
    }
    return s;
}

/* ---- the whole build ------------------------------------------------------------------------ */

int gr_build_lab(const gr_rubric *r, const char *lab_dir_name, const char *src,
                 const gr_paths *paths, gr_build *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->verdict = GR_COMPILE_ERROR;
    if (err && errlen)
        err[0] = '\0';
    if (!r || !lab_dir_name || !src || !paths || !paths->root || !paths->child_dir || !paths->work_dir) {
        gr_set_err(err, errlen, "build: missing rubric, lab folder, source or paths");
        return -1;
    }
    double t0 = gr_now_seconds();
    build_ctx c;
    if (ctx_init(&c, r, lab_dir_name, src, paths, out, err, errlen) != 0) {
        out->compile_seconds = gr_now_seconds() - t0;
        return -1;
    }
    step_outcome (*const steps[])(build_ctx *) = {
        prepare, check_includes, preprocess, compile_assembly, assemble, check_object,
        link_executable,
    };
    step_outcome s = STEP_OK;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && s == STEP_OK; i++)
        s = steps[i](&c);
    if (s == STEP_OK) {
        out->ok = 1;
        out->verdict = GR_PASSED;
        out->exe = c.exe;
        c.exe = NULL;
    }
    out->compile_seconds = gr_now_seconds() - t0;
    ctx_free(&c);
    if (s == STEP_FAIL) {                 /* the grader's failure: no verdict is left behind */
        gr_build_free(out);
        memset(out, 0, sizeof *out);
        out->verdict = GR_COMPILE_ERROR;
        return -1;
    }
    return 0;
}

char **gr_build_inputs(const gr_rubric *r, const char *lab_dir_name, const gr_paths *paths)
{
    char **files = gr_xcalloc(N_CHILD + 3, sizeof *files), tag[16];
    snprintf(tag, sizeof tag, "lab%02d", r->lab);
    char *contract = gr_xasprintf("%s.h", tag);
    files[0] = gr_layout_in_folder(paths->root, lab_dir_name, contract);
    files[1] = gr_xasprintf("%s/lib/labsup.h", paths->root);
    for (int i = 0; i < N_CHILD; i++)
        files[2 + i] = i == 1 ? gr_xasprintf("%s/%s_dispatch.o", paths->child_dir, tag)
                              : gr_xasprintf("%s/%s", paths->child_dir, child_names[i]);
    free(contract);
    return files;
}

void gr_build_copy(const gr_build *from, gr_build *to)
{
    *to = *from;
    to->message = from->message ? gr_xstrdup(from->message) : NULL;
    to->log = from->log ? gr_xstrdup(from->log) : NULL;
    to->exe = from->exe ? gr_xstrdup(from->exe) : NULL;
}

void gr_build_free(gr_build *b)
{
    if (!b)
        return;
    free(b->message);
    free(b->log);
    free(b->exe);
    b->message = b->log = b->exe = NULL;
}
