/* cmd_export.c: `attnlab export`, a batch's gradebook as the file an LMS
 * imports (export.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "class/export.h"
#include "cli/cli.h"
#include "cli/commands.h"

static const char export_usage[] =
    "usage: attnlab export DIR --format canvas|moodle|generic [--out FILE]\n"
    "                      [--roster FILE] [--assignment NAME]\n"
    "\n"
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
    "  generic  id, email, name, points, possible, percent.\n"
    "\n"
    "  --format F       canvas, moodle or generic\n"
    "  --out FILE       where to write (default DIR/canvas.csv, DIR/moodle.csv or\n"
    "                   DIR/generic.csv; - for standard output)\n"
    "  --roster FILE    the batch's roster: sis_user_id, sis_login_id and section\n"
    "                   per student (Canvas's columns); without sis_user_id the\n"
    "                   student's id is the SIS User ID and Moodle's ID number\n"
    "  --assignment NAME  the grade column's name (default attnlab); for Canvas,\n"
    "                   \"NAME (N)\" updates the assignment of id N, any other name\n"
    "                   makes a new assignment\n"
    "\n"
    "A student with nothing handed in gets an empty grade cell, not a 0. A cell a\n"
    "spreadsheet would run as a formula gets a leading ', as in gradebook.csv.\n"
    "Exit status: 0 written, 1 the file could not be written, 2 usage, or DIR\n"
    "holds no gradebook attnlab batch wrote (nothing is written then).\n";

int cmd_export(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"format", required_argument, 0, 'f'},
        {"out", required_argument, 0, 'o'},
        {"roster", required_argument, 0, 'r'},
        {"assignment", required_argument, 0, 'a'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    const char *format = NULL, *out = NULL, *roster = NULL, *assignment = "attnlab";
    optind = 0;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
        switch (ch) {
        case 'f': format = optarg; break;
        case 'o': out = optarg; break;
        case 'r': roster = optarg; break;
        case 'a': assignment = optarg; break;
        case 'h': fputs(export_usage, stdout); return GR_EXIT_OK;
        default: return gr_bad_option("export", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return gr_usage_error("export", "give the folder attnlab batch --out wrote");
    const char *dir = argv[optind++];
    if (optind < argc)
        return gr_usage_error("export", "unexpected argument '%s'", argv[optind]);
    gr_lms_format f;
    if (!format || gr_lms_format_parse(format, &f) != 0)
        return gr_usage_error("export", "--format takes canvas, moodle or generic (got '%s')",
                              format ? format : "nothing");
    if (!*assignment)
        return gr_usage_error("export", "--assignment needs a name");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return gr_usage_error("export", "%s is not a folder; give the folder attnlab batch --out "
                              "wrote", dir);
    char err[1024], *written = NULL;
    int rc = gr_lms_export(dir, roster, f, assignment, out, &written, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "attnlab export: %s\n", err);
        return rc == -1 ? GR_EXIT_USAGE : GR_EXIT_FAILED;
    }
    if (strcmp(written, "-") != 0)
        fprintf(stderr, "attnlab export: wrote %s\n", written);
    free(written);
    return GR_EXIT_OK;
}
