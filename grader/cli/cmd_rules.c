/* cmd_rules.c: `attnlab rules`, a lab's rules from its rubric (see rules.h).
 *
 *   attnlab rules --lab 2          the text of lab 2's rules block, on stdout
 *   attnlab rules --write          rewrite every stub's and handout's block
 *   attnlab rules --check          exit 1 when a block differs from its rubric
 *   attnlab rules --lab 2 --source F   build F as grade does: 1 on a forbidden
 *                                  header or call (make check asks this)
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "engine/grade.h"
#include "learn/progress.h"
#include "engine/rules.h"
#include "engine/seed.h"
#include "confined/workdir.h"
#include "base/util.h"
#include "base/layout.h"

static const gr_cmd_spec rules_cmd = {
    .name = "rules",
    .synopsis =
    "[--lab N|all] [--write | --check]\n"
    "                     attnlab rules --lab N --source FILE",
    .about =
    "A lab's rules (allowed headers, allowed library functions, time, memory\n"
    "and output limits) come from its rubric, data/rubrics/labNN.yaml. The same\n"
    "text stands in the pristine stub's header comment (data/stubs/labNN.c) and\n"
    "in the handout's rules section (labs/labNN-name/README.md), between the\n"
    "lines 'BEGIN RULES (generated from ...)' and 'END RULES'. --write also\n"
    "refreshes labs/labNN-name/labNN.c while it is still the pristine stub;\n"
    "once a student has edited it, it is theirs and is left alone.\n",
    .after =
    "Without --write or --check, print each lab's text on stdout.\n"
    "--source FILE builds FILE as lab N's submission the way grade does (the\n"
    "confined compiler, the lab's allowed headers and calls) and runs no test: a\n"
    "lab's make test and make check ask it, so that they fail where grade would.\n"
    "Exit status: 0 done (and every block matches, or FILE builds under the\n"
    "rules), 1 a block differs, a file could not be written, or FILE does not\n"
    "compile or breaks a rule, 2 usage or rubric error.\n",
    .max_args = 0,
    .in_order = 1,
    .column = 16,
};

/* labs/labNN-name/labNN.c when it is still the pristine stub (before the
   stub is rewritten), else NULL: a copy a student has edited is theirs. */
static char *student_copy(const char *root, int lab)
{
    char *copy = gr_layout_student(root, lab);
    if (gr_progress_stub_untouched(root, lab, copy) == 1)
        return copy;
    free(copy);
    return NULL;
}

/* Copy the rewritten pristine stub over its untouched copy at copy, saying so
   when that changed it. 0, or -1 with err. */
static int follow_stub(FILE *out, const char *root, int lab, const char *copy, char *err,
                       size_t errlen)
{
    if (gr_progress_stub_untouched(root, lab, copy) == 1)
        return 0;
    char *stub = gr_layout_stub(root, lab);
    size_t len;
    char *text = gr_read_file(stub, &len);
    int rc = text && gr_write_file_atomic(copy, text, len) == 0 ? 0 : -1;
    if (rc != 0)
        gr_set_err(err, errlen, "cannot copy %s to %s: %s", stub, copy, strerror(errno));
    else
        fprintf(out, "wrote  %s\n", copy + strlen(root) + 1);
    free(text);
    free(stub);
    return rc;
}

/* What the command does with each lab. */
typedef enum { RULES_PRINT, RULES_WRITE, RULES_CHECK } rules_mode;

/* One lab: print its text, rewrite its blocks or check them. 0 done, 1 a block
   differs (check) or a file could not be written, 2 a rubric error. */
static int rules_lab(FILE *out, FILE *err, const char *root, int lab, rules_mode mode)
{
    char msg[2048], *rubric_name, *files[2];
    char *text = gr_rules_for_lab(root, lab, &rubric_name, files, msg, sizeof msg);
    if (!text) {
        fprintf(err, "attnlab rules: %s\n", msg);
        return 2;
    }
    int rc = 0;
    if (mode == RULES_PRINT) {
        fprintf(out, "%s%s", lab > 1 ? "\n" : "", text);
    }
    for (int i = 0; i < 2 && mode != RULES_PRINT; i++) {
        const char *shown = files[i] + strlen(root) + 1;
        if (mode == RULES_WRITE) {
            int changed;
            char *copy = i == 0 ? student_copy(root, lab) : NULL;
            if (gr_rules_write_file(files[i], rubric_name, text, &changed, msg, sizeof msg) != 0 ||
                (copy && follow_stub(out, root, lab, copy, msg, sizeof msg) != 0)) {
                fprintf(err, "attnlab rules: %s\n", msg);
                rc = 1;
            } else {
                fprintf(out, "%s  %s\n", changed ? "wrote" : "same ", shown);
            }
            free(copy);
            continue;
        }
        char diff[2048];
        int c = gr_rules_check_file(files[i], rubric_name, text, diff, sizeof diff, msg, sizeof msg);
        if (c < 0)
            fprintf(err, "attnlab rules: %s\n", msg);
        else
            fprintf(out, "%s  %s%s%s\n", c == 0 ? "ok  " : "FAIL", shown, c ? "\n      " : "",
                    c ? diff : "");
        if (c != 0)
            rc = 1;
    }
    free(files[0]);
    free(files[1]);
    free(rubric_name);
    free(text);
    return rc;
}

/* Build src as lab's submission the way grade does and say whether it
   keeps the lab's rules: 0 it builds, 1 it does not compile or breaks a
   rule (the grader's message on err), 2 the grader could not build. */
static int source_check(FILE *out, FILE *err, int lab, const char *src)
{
    char msg[1024], root[PATH_MAX], child_dir[PATH_MAX];
    if (gr_layout_locate(root, sizeof root, child_dir, sizeof child_dir, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab rules: %s\n", msg);
        return GR_EXIT_USAGE;
    }
    gr_grade_opts o;
    memset(&o, 0, sizeof o);
    o.root = root;
    o.child_dir = child_dir;
    o.student = GR_LOCAL_STUDENT;
    o.secret = GR_PRACTICE_SECRET;
    char *work = gr_workdir_make("rules", msg, sizeof msg);
    gr_build b;
    memset(&b, 0, sizeof b);
    int rc = work ? gr_grade_build(&o, lab, src, work, &b, msg, sizeof msg) : -1;
    if (rc != 0) {
        fprintf(err, "attnlab rules: %s\n", msg);
        rc = GR_EXIT_USAGE;
    } else if (b.ok) {
        fprintf(out, "%s: builds under lab %d's rules (its headers and library calls)\n", src,
                lab);
    } else {
        fprintf(err, "%s: %s, as attnlab grade will say:\n%s\n%s", src,
                gr_result_verdict_name(b.verdict), b.message ? b.message : "",
                b.log ? b.log : "");
        rc = 1;
    }
    gr_build_free(&b);
    if (work)
        gr_workdir_remove(work);
    return rc;
}

int cmd_rules_run(FILE *out, FILE *err, const char *root, int argc, char **argv)
{
    const char *labs = "all", *source = NULL;
    int write = 0, check = 0;
    const gr_opt opts[] = {
        GR_TEXT("lab", 0, &labs, "N|all",
                "which labs (default all)"),
        GR_FLAG("write", 0, &write,
                "rewrite the blocks from the rubrics, in place"),
        GR_FLAG("check", 0, &check,
                "compare the blocks with the rubrics; one line per file"),
        GR_TEXT("source", 0, &source, "FILE",
                "build FILE as the lab's submission, as grade does, and say\n"
                "whether it keeps the lab's rules (one --lab)"),
    };
    int first, rc = gr_opts_parse(&rules_cmd, opts, GR_N_OPTS(opts), argc, argv, out, err,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    rules_mode mode = write ? RULES_WRITE : check ? RULES_CHECK : RULES_PRINT;
    if (write && check)
        return gr_usage_error("rules", "give --write or --check, not both");
    char msg[1024], found[PATH_MAX], child_dir[PATH_MAX];
    if (!root && gr_layout_locate(found, sizeof found, child_dir, sizeof child_dir, msg, sizeof msg) != 0) {
        fprintf(err, "attnlab rules: %s\n", msg);
        return GR_EXIT_USAGE;
    }
    if (!root)
        root = found;
    if (mode != RULES_PRINT && !gr_layout_root_has_labs(root)) {
        fprintf(err, "attnlab rules: --write and --check work on a source tree's stubs and "
                "handouts, and %s is an installed copy: run it in the tree, or set "
                "ATTNLAB_ROOT to one\n", root);
        return GR_EXIT_USAGE;
    }
    int want[GR_N_LABS], n = 0, one = 0;
    if (gr_layout_parse_labs(labs, want, msg, sizeof msg) != 0)
        return gr_usage_error("rules", "%s", msg);
    for (int lab = 1; lab <= GR_N_LABS; lab++)
        if (want[lab - 1])
            n++, one = lab;
    if (source && (n != 1 || mode != RULES_PRINT))
        return gr_usage_error("rules", "--source FILE takes one --lab N, and no --write or --check");
    if (source)
        return source_check(out, err, one, source);
    rc = GR_EXIT_OK;
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!want[lab - 1])
            continue;
        int r = rules_lab(out, err, root, lab, mode);
        if (r > rc)
            rc = r;
    }
    return rc;
}

int cmd_rules(int argc, char **argv)
{
    return cmd_rules_run(stdout, stderr, NULL, argc, argv);
}
