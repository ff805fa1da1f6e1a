/* main.c: the attnlab program's entry point: `attnlab <command> [options]`.
 *
 * It only finds the command and hands over argv; each command parses its own
 * options, prints its own --help, and returns the exit status:
 * 0 ok, 1 the job failed (e.g. tests failed), 2 usage error.
 */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "sup_yamlread.h"
#include "base/util.h"

/* Every command attnlab has, in the order `attnlab --help` lists them.
   Adding one: declare cmd_NAME in commands.h, add its line here. */
static const gr_command commands[] = {
    { "grade", "grade a submission's labs in the sandbox against the answer key",
      cmd_grade },
    { "status", "every lab on one screen: passed, partly passed or not started, and what next",
      cmd_status },
    { "watch", "regrade a lab's visible tests each time you save it, until it passes",
      cmd_watch },
    { "doctor", "check the compiler, Check, libyaml, gnuplot and the sandbox; say what to install",
      cmd_doctor },
    { "batch", "grade a class: per-student results, gradebook.csv and a class report",
      cmd_batch },
    { "export", "a batch's grades as the CSV Canvas, Moodle or a spreadsheet imports",
      cmd_export },
    { "merge", "join the shards of a batch (batch --shard K/N) into one gradebook and report",
      cmd_merge },
    { "override", "set a student's test or lab score by hand, with a reason, kept across regrades",
      cmd_override },
    { "validate", "check the grader: solutions full marks, stubs zero, mutants diagnosed",
      cmd_validate },
    { "mutate", "measure the tests: mechanical mutants of each solution, none may survive",
      cmd_mutate },
    { "rules", "print a lab's rules from its rubric, or write or check them in stub and handout",
      cmd_rules },
    { "new-lab", "scaffold the next lab: handout, contract, stub, tests, rubric, grader module",
      cmd_newlab },
    { "check-lab", "every check make test holds one lab to: validate, mutate, kit, content rules",
      cmd_checklab },
    { "explain", "show softmax turning one row of scores into weights, step by step",
      cmd_explain },
    { "drill", "practise: questions with answers and worked solutions, progress kept",
      cmd_drill },
    { "bench", "time libattn's attention paths on this machine and check they agree",
      cmd_bench },
    { "experiment", "print the answer key's numbers for an experiment (entropy, masking, saturation)",
      cmd_experiment },
    { "plot", "plot an experiment's numbers beside yours, or an attention heatmap, as a PNG",
      cmd_plot },
    { "similarity", "rank pairs of students' lab files by shared code fingerprints (a report, not a verdict)",
      cmd_similarity },
};
static const int n_commands = (int)(sizeof commands / sizeof commands[0]);

static const gr_command *find_command(const char *name)
{
    for (int i = 0; i < n_commands; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* The list every user sees first: one line per command. */
static void print_help(FILE *f)
{
    fputs("usage: attnlab <command> [options]\n"
          "\n"
          "attnlab teaches that attention scores are not attention weights: a score is any\n"
          "real number, a weight is what softmax makes of a row of scores.\n"
          "\n"
          "Commands:\n", f);
    int w = 0;
    for (int i = 0; i < n_commands; i++)
        if ((int)strlen(commands[i].name) > w)
            w = (int)strlen(commands[i].name);
    for (int i = 0; i < n_commands; i++)
        fprintf(f, "  %-*s  %s\n", w, commands[i].name, commands[i].summary);
    fputs("\n"
          "'attnlab <command> --help' or 'attnlab help <command>' shows a command's options\n"
          "and what its exit status means: 2 is always a usage error, 1 a failure of the\n"
          "command itself; a grade is not a failure (grade and batch exit 0 whatever the\n"
          "score), while status, validate and mutate exit 1 when what they check fails.\n", f);
}

/* One line for a name that is not a command, with the nearest command when it
   is a likely typo. Returns the usage exit status. */
static int unknown_command(const char *name)
{
    const char *near = NULL;
    int best = 3;                            /* suggest only within 2 edits */
    for (int i = 0; i < n_commands; i++) {
        int d = yr_edit_distance(name, commands[i].name);
        if (d < best) {
            best = d;
            near = commands[i].name;
        }
    }
    if (near)
        fprintf(stderr, "attnlab: '%s' is not a command (did you mean '%s'?); see "
                "'attnlab --help'\n", name, near);
    else
        fprintf(stderr, "attnlab: '%s' is not a command; see 'attnlab --help' for the list\n",
                name);
    return GR_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    int rc;
    if (argc < 2) {
        fputs("attnlab: no command given; see 'attnlab --help' for the list\n", stderr);
        return GR_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        (strcmp(name, "help") == 0 && argc == 2)) {
        print_help(stdout);
        rc = GR_EXIT_OK;
    } else if (strcmp(name, "help") == 0) {
        /* attnlab help NAME: the command prints its own usage for --help. */
        const gr_command *c = find_command(argv[2]);
        if (!c)
            return unknown_command(argv[2]);
        if (argc > 3) {
            fprintf(stderr, "attnlab help: give one command, e.g. 'attnlab help %s'\n",
                    c->name);
            return GR_EXIT_USAGE;
        }
        char help_flag[] = "--help";
        char *help_argv[] = { argv[2], help_flag, NULL };
        rc = c->run(2, help_argv);
    } else if (name[0] == '-') {
        fprintf(stderr, "attnlab: unknown option '%s' before the command; see "
                "'attnlab --help'\n", name);
        return GR_EXIT_USAGE;
    } else {
        const gr_command *c = find_command(name);
        if (!c)
            return unknown_command(name);
        rc = c->run(argc - 1, argv + 1);
    }

    /* Output that never arrived (a full disk, a closed pipe) is a failure, not
       a silent success. */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("attnlab: could not write the output (disk full or pipe closed?)\n", stderr);
        if (rc == GR_EXIT_OK)
            rc = GR_EXIT_FAILED;
    }
    return rc;
}
