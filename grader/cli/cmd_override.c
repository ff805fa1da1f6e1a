/* cmd_override.c: `attnlab override`, a grade set by hand with its reason
 * (override.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class/override.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "base/layout.h"
#include "base/cells.h"

static const gr_cmd_spec override_cmd = {
    .name = "override",
    .synopsis =
    "DIR --student ID --lab N [--test NAME]\n"
    "                        (--points X | --adjust X) --reason TEXT",
    .about =
    "Set a grade by hand in the class DIR (the folder attnlab batch --out wrote):\n"
    "a test's or a lab's points, or an adjustment added to the lab's score. It is\n"
    "kept in DIR/overrides.txt, not in the student's results.json, so no regrade\n"
    "loses it; every later batch applies it to the gradebook, the reports and the\n"
    "exports, and the student's feedback names it with its reason. It is also a\n"
    "line of DIR/regrades.log: the lab's score before and after. A later override\n"
    "of the same test or lab takes over.\n",
    .after =
    "Then run the class's batch again (nothing is graded again) to rebuild the\n"
    "gradebook, reports and exports.\n"
    "Exit status: 0 recorded, 1 a file could not be written, 2 usage, or the\n"
    "student, lab or test is not in DIR's results.\n",
    .max_args = 1,
    .column = 19,
};

/* What the command line asks for: the override and how many of --points and
   --adjust were given. */
typedef struct override_args {
    gr_class_override *o;
    int kinds;
} override_args;

/* --points X or --adjust X into the override (adjust: 1 for --adjust). */
static int value_option(override_args *a, int adjust, const char *arg, char *why, size_t whylen)
{
    char *end = NULL;
    double x = strtod(arg, &end);
    if (end == arg || *end || !isfinite(x))
        return gr_opt_fail(why, whylen, "--%s takes a number of points (got '%s')",
                           adjust ? "adjust" : "points", arg);
    a->kinds++;
    a->o->adjust = adjust;
    a->o->value = x;
    return 0;
}

static int points_option(void *to, const char *arg, char *why, size_t whylen)
{
    return value_option(to, 0, arg, why, whylen);
}

static int adjust_option(void *to, const char *arg, char *why, size_t whylen)
{
    return value_option(to, 1, arg, why, whylen);
}

/* --lab N: one lab number into *(int *)to. */
static int lab_option(void *to, const char *arg, char *why, size_t whylen)
{
    int labs[GR_N_LABS], n = 0;
    char err[256];
    if (gr_layout_parse_labs(arg, labs, err, sizeof err) != 0)
        return gr_opt_fail(why, whylen, "%s", err);
    for (int i = 0; i < GR_N_LABS; i++)
        if (labs[i]) {
            n++;
            *(int *)to = i + 1;
        }
    return n == 1 ? 0 : gr_opt_fail(why, whylen, "--lab takes one lab (got '%s')", arg);
}

/* Parse argv into *dir and o: 0, GR_OPTS_HELP after --help, or the usage
   error's status. */
static int parse_args(int argc, char **argv, const char **dir, gr_class_override *o)
{
    override_args a = {o, 0};
    const gr_opt opts[] = {
        GR_TEXT("student", 0, &o->student, "ID", "the student, as the gradebook names them"),
        GR_CALL("lab", 0, lab_option, &o->lab, "N", "the lab"),
        GR_TEXT("test", 0, &o->test, "NAME", "one test of the lab (default: the lab's score)"),
        GR_CALL("points", 0, points_option, &a, "X",
                "the score, from 0 to the test's or lab's maximum"),
        GR_CALL("adjust", 0, adjust_option, &a, "X",
                "points added to the lab's score (negative: taken), which\n"
                "stays from 0 to the lab's maximum"),
        GR_TEXT("reason", 0, &o->reason, "TEXT", "why, for the student's feedback and regrades.log"),
    };
    int first, rc = gr_opts_parse(&override_cmd, opts, GR_N_OPTS(opts), argc, argv, stdout, stderr,
                                  &first);
    if (rc != 0)
        return rc;
    if (first >= argc)
        return gr_usage_error("override", "give the class folder attnlab batch --out wrote");
    *dir = argv[first];
    if (!o->student || !o->lab || a.kinds != 1 || !o->reason || !*o->reason)
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
        return rc == GR_OPTS_HELP ? GR_EXIT_OK : rc;
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
