/* cmd_merge.c: `attnlab merge`, the shards of a class joined into one
 * gradebook and class report (merge.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class/merge.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "engine/grade.h"
#include "base/util.h"
#include "base/layout.h"
#include "engine/seed.h"

static const gr_cmd_spec merge_cmd = {
    .name = "merge",
    .synopsis =
    "DIR... --out DIR [--rubrics DIR] [--submissions DIR] [--csv-bom] [-q]",
    .about =
    "Join the output folders of `attnlab batch ... --shard K/N` (K = 1 .. N, one\n"
    "folder each, on any machines) into one batch output: students/ID/ for every\n"
    "student and the class files (gradebook.csv, tests.csv, report.md, also\n"
    "printed, report.html, clusters.json, the histogram), and run.txt, written\n"
    "by the code one batch of the whole class runs:\n"
    "gradebook.csv, tests.csv, report.md and report.html are the single run's\n"
    "byte for byte.\n"
    "Refused before anything is written: a folder that is not a batch output,\n"
    "shards graded with different secrets, rubrics, course policies, rosters,\n"
    "hand-in times or builds of attnlab, or from a different set of students, two\n"
    "folders of one shard, a missing shard (named), and results that are not this\n"
    "run's grade of their student (a link, another student, scores out of range),\n"
    "are not signed with the secret, or whose tests and maxima are not the\n"
    "rubrics' (each rebuilt from the rubrics merge loads itself).\n"
    "The secret comes from ATTNLAB_SECRET or --secret-file, as for batch: the one the\n"
    "shards were graded with.\n",
    .after =
    "Exit status: 0 merged, 1 a file could not be written, 2 usage or refused shards.\n",
    .max_args = -1,
    .column = 19,
};

int cmd_merge(int argc, char **argv)
{
    gr_merge_opts m;
    memset(&m, 0, sizeof m);
    const char *out_arg = NULL;
    const char *secret_file = NULL;
    int quiet = 0;
    const gr_opt opts[] = {
        GR_TEXT("out", 0, &out_arg, "DIR",
                "the merged output: a new folder, or an empty one; written\n"
                "beside it and renamed into place, so it is whole or absent"),
        GR_TEXT("rubrics", 0, &m.rubrics, "DIR",
                "the rubrics the shards were graded with, when batch had\n"
                "--rubrics DIR (default: the course's)"),
        GR_TEXT("submissions", 0, &m.submissions, "DIR",
                "the students' folders, for report.html's similar pairs\n"
                "(default: the folder the shards graded, named in their\n"
                "run.txt, when this machine has it)"),
        GR_FLAG("csv-bom", 0, &m.bom,
                "start gradebook.csv with a UTF-8 byte order mark (as batch)"),
        GR_TEXT("secret-file", 0, &secret_file, "FILE",
                "the secret, read from FILE (or ATTNLAB_SECRET_FILE's file)"),
        GR_FLAG("quiet", 'q', &quiet,
                "no class report on stdout"),
    };
    int first, rc = gr_opts_parse(&merge_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    char *out = out_arg ? gr_xstrdup(out_arg) : NULL;   /* trimmed below */
    if (first >= argc || !out || !*out) {
        free(out);
        return gr_usage_error("merge", first >= argc ? "give the shards' output folders"
                              : "give the folder for the merged output with --out DIR");
    }
    for (size_t n = strlen(out); n > 1 && out[n - 1] == '/'; n--)
        out[n - 1] = '\0';          /* OUT/ names OUT: its temporary folder goes beside it */
    char root[PATH_MAX], child_dir[PATH_MAX], err[2048];
    if (gr_layout_locate(root, sizeof root, child_dir, sizeof child_dir, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab merge: %s\n", err);
        free(out);
        return GR_EXIT_USAGE;
    }
    m.dirs = (const char *const *)(argv + first);
    m.n_dirs = argc - first;
    m.out = out;
    m.root = root;
    if (!(m.secret = gr_seed_secret_load(secret_file, err, sizeof err))) {
        fprintf(stderr, "attnlab merge: %s\n", err);
        free(out);
        return GR_EXIT_USAGE;
    }
    m.text = quiet ? NULL : stdout;
    m.notes = stderr;
    rc = gr_merge(&m, err, sizeof err);
    if (rc != 0)
        fprintf(stderr, "attnlab merge: %s\n", err);
    free(out);
    return rc == 0 ? GR_EXIT_OK : rc == GR_STATUS_BAD_INPUT ? GR_EXIT_USAGE : GR_EXIT_FAILED;
}
