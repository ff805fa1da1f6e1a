/* cmd_override.c: `attnlab override`, a grade set by hand with its reason
 * (override.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class/override.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "layout.h"
#include "cells.h"

static const char override_usage[] =
    "usage: attnlab override DIR --student ID --lab N [--test NAME]\n"
    "                        (--points X | --adjust X) --reason TEXT\n"
    "\n"
    "Set a grade by hand in the class DIR (the folder attnlab batch --out wrote):\n"
    "a test's or a lab's points, or an adjustment added to the lab's score. It is\n"
    "kept in DIR/overrides.txt, not in the student's results.json, so no regrade\n"
    "loses it; every later batch applies it to the gradebook, the reports and the\n"
    "exports, and the student's feedback names it with its reason. It is also a\n"
    "line of DIR/regrades.log: the lab's score before and after. A later override\n"
    "of the same test or lab takes over.\n"
    "\n"
    "  --student ID     the student, as the gradebook names them\n"
    "  --lab N          the lab\n"
    "  --test NAME      one test of the lab (default: the lab's score)\n"
    "  --points X       the score, from 0 to the test's or lab's maximum\n"
    "  --adjust X       points added to the lab's score (negative: taken), which\n"
    "                   stays from 0 to the lab's maximum\n"
    "  --reason TEXT    why, for the student's feedback and regrades.log\n"
    "\n"
    "Then run the class's batch again (nothing is graded again) to rebuild the\n"
    "gradebook, reports and exports.\n"
    "Exit status: 0 recorded, 1 a file could not be written, 2 usage, or the\n"
    "student, lab or test is not in DIR's results.\n";

/* A number of points from arg into *x. 0, or the usage error's status. */
static int points_arg(const char *flag, const char *arg, double *x)
{
    char *end = NULL;
    *x = strtod(arg, &end);
    if (end == arg || *end || !isfinite(*x))
        return gr_usage_error("override", "%s takes a number of points (got '%s')", flag, arg);
    return 0;
}

/* One lab number from arg into *lab. 0, or the usage error's status. */
static int lab_arg(const char *arg, int *lab)
{
    int labs[GR_N_LABS], n = 0;
    char err[256];
    if (gr_layout_parse_labs(arg, labs, err, sizeof err) != 0)
        return gr_usage_error("override", "%s", err);
    for (int i = 0; i < GR_N_LABS; i++)
        if (labs[i]) {
            n++;
            *lab = i + 1;
        }
    return n == 1 ? 0 : gr_usage_error("override", "--lab takes one lab (got '%s')", arg);
}

static int parse_args(int argc, char **argv, const char **dir, gr_class_override *o)
{
    static const struct option longopts[] = {
        {"student", required_argument, 0, 's'}, {"lab", required_argument, 0, 'l'},
        {"test", required_argument, 0, 't'},    {"points", required_argument, 0, 'p'},
        {"adjust", required_argument, 0, 'a'},  {"reason", required_argument, 0, 'W'},
        {"help", no_argument, 0, 'h'},          {0, 0, 0, 0},
    };
    int kinds = 0, rc = 0;
    optind = 0;
    opterr = 0;
    for (int ch; rc == 0 && (ch = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (ch) {
        case 's': o->student = optarg; break;
        case 't': o->test = optarg; break;
        case 'W': o->reason = optarg; break;
        case 'p': kinds++; o->adjust = 0; rc = points_arg("--points", optarg, &o->value); break;
        case 'a': kinds++; o->adjust = 1; rc = points_arg("--adjust", optarg, &o->value); break;
        case 'l': rc = lab_arg(optarg, &o->lab); break;
        case 'h': fputs(override_usage, stdout); return -1;
        default: return gr_bad_option("override", argv[optind - 1]);
        }
    }
    if (rc != 0)
        return rc;
    if (optind >= argc)
        return gr_usage_error("override", "give the class folder attnlab batch --out wrote");
    *dir = argv[optind++];
    if (optind < argc)
        return gr_usage_error("override", "unexpected argument '%s'", argv[optind]);
    if (!o->student || !o->lab || kinds != 1 || !o->reason || !*o->reason)
        return gr_usage_error("override", "give --student ID, --lab N, one of --points X or "
                              "--adjust X, and --reason TEXT");
    return 0;
}

int cmd_override(int argc, char **argv)
{
    const char *dir = NULL;
    gr_class_override o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &dir, &o);
    if (rc != 0)
        return rc < 0 ? GR_EXIT_OK : rc;
    char err[1024], p1[GR_POINTS_LEN], p2[GR_POINTS_LEN];
    double old = 0, now = 0;
    if (gr_override_add(dir, &o, &old, &now, err, sizeof err) != 0) {
        fprintf(stderr, "attnlab override: %s\n", err);
        return GR_EXIT_USAGE;
    }
    printf("%s %s: %s -> %s points, recorded in %s/overrides.txt and regrades.log; run the "
           "class's batch again to rebuild its gradebook (nothing is graded again)\n",
           o.student, gr_layout_dir(o.lab), gr_points(p1, old), gr_points(p2, now), dir);
    return GR_EXIT_OK;
}
