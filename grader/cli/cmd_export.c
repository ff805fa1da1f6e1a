/* cmd_export.c: `attnlab export`, a batch's gradebook as the file an LMS
 * imports (export.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "class/export.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"

static const gr_cmd_spec export_cmd = {
    .name = "export",
    .synopsis =
    "DIR --format canvas|moodle|generic [--out FILE]\n"
    "                      [--roster FILE] [--assignment NAME]",
    .about =
    "Write the grades of DIR (the folder attnlab batch --out wrote) as the CSV an\n"
    "LMS imports, one grade column: each student's final total from\n"
    "DIR/gradebook.csv, late penalties applied. Nothing is graded again.\n"
    "  canvas   Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID,\n"
    "           Section, the assignment column, and the Points Possible row second.\n"
    "           In Canvas: Grades > Import, choose the file, check the preview.\n"
    "  moodle   Moodle's grade import: Email address, ID number, the grade column.\n"
    "           In Moodle: Grades > Import > CSV file; map \"Email address\" to\n"
    "           Email address (or \"ID number\" to ID number) and the grade column\n"
    "           to the grade item.\n"
    "  generic  id, email, name, points, possible, percent.\n",
    .after =
    "A student with nothing handed in gets an empty grade cell, not a 0. A cell a\n"
    "spreadsheet would run as a formula gets a leading ', as in gradebook.csv.\n"
    "Exit status: 0 written, 1 the file could not be written, 2 usage, or DIR\n"
    "holds no gradebook attnlab batch wrote (nothing is written then).\n",
    .max_args = 1,
    .column = 19,
};

int cmd_export(int argc, char **argv)
{
    const char *format = NULL, *out = NULL, *roster = NULL, *assignment = "attnlab";
    const gr_opt opts[] = {
        GR_TEXT("format", 0, &format, "F",
                "canvas, moodle or generic"),
        GR_TEXT("out", 0, &out, "FILE",
                "where to write (default DIR/canvas.csv, DIR/moodle.csv or\n"
                "DIR/generic.csv; - for standard output)"),
        GR_TEXT("roster", 0, &roster, "FILE",
                "the batch's roster: sis_user_id, sis_login_id and section\n"
                "per student (Canvas's columns); without sis_user_id the\n"
                "student's id is the SIS User ID and Moodle's ID number"),
        GR_TEXT("assignment", 0, &assignment, "NAME",
                "the grade column's name (default attnlab); for Canvas,\n"
                "\"NAME (N)\" updates the assignment of id N, any other name\n"
                "makes a new assignment"),
    };
    int first, rc = gr_opts_parse(&export_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
    if (first >= argc)
        return gr_usage_error("export", "give the folder attnlab batch --out wrote");
    const char *dir = argv[first];
    gr_export_format f;
    if (!format || gr_export_format_parse(format, &f) != 0)
        return gr_usage_error("export", "--format takes canvas, moodle or generic (got '%s')",
                              format ? format : "nothing");
    if (!*assignment)
        return gr_usage_error("export", "--assignment needs a name");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return gr_usage_error("export", "%s is not a folder; give the folder attnlab batch --out "
                              "wrote", dir);
    char err[1024], *written = NULL;
    rc = gr_export_write(dir, roster, f, assignment, out, &written, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "attnlab export: %s\n", err);
        return rc == -1 ? GR_EXIT_USAGE : GR_EXIT_FAILED;
    }
    if (strcmp(written, "-") != 0)
        fprintf(stderr, "attnlab export: wrote %s\n", written);
    free(written);
    return GR_EXIT_OK;
}
