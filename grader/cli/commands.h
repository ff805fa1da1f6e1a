/* commands.h: the subcommands of the attnlab program, git-style.
 *
 *   attnlab <command> [options]
 *
 * Each command is one function cmd_NAME(argc, argv) in grader/cli/cmd_NAME.c:
 * argv[0] is the command's name, argv[1..] its options. It handles --help
 * itself (usage on stdout, return 0), so `attnlab help NAME` needs nothing
 * more than the table entry. It returns the process exit status:
 *
 *   GR_EXIT_OK      0  done
 *   GR_EXIT_FAILED  1  the job ran and failed (e.g. tests failed, a file could not be written)
 *   GR_EXIT_USAGE   2  the command line was wrong; one line on stderr says what to fix
 *
 * Adding a command: declare cmd_NAME here and add one line to the table in
 * grader/cli/main.c. The table lists only commands that are built.
 */
#ifndef GR_COMMANDS_H
#define GR_COMMANDS_H

#include <stdio.h>

#define GR_EXIT_OK     0
#define GR_EXIT_FAILED 1
#define GR_EXIT_USAGE  2

/* One row of the command table. */
typedef struct gr_command {
    const char *name;                     /* what the user types: "explain" */
    const char *summary;                  /* one line for `attnlab --help` */
    int (*run)(int argc, char **argv);    /* argv[0] is name; returns an exit status */
} gr_command;

/* attnlab grade: grade a submission in the sandbox and report. */
int cmd_grade(int argc, char **argv);

/* attnlab batch: grade a class into per-student results, a gradebook and a class report. */
int cmd_batch(int argc, char **argv);

/* attnlab export: a batch's gradebook as the CSV an LMS imports (Canvas, Moodle, generic). */
int cmd_export(int argc, char **argv);

/* attnlab merge: join the shards of a batch into one gradebook and class report. */
int cmd_merge(int argc, char **argv);

/* attnlab override: a test's or lab's score set by hand, with a reason (override.h). */
int cmd_override(int argc, char **argv);

/* attnlab validate: solutions full marks, stubs zero, mutants diagnosed. */
int cmd_validate(int argc, char **argv);

/* attnlab mutate: mechanical mutants of each solution graded; fails on a survivor. */
int cmd_mutate(int argc, char **argv);

/* attnlab check-lab N: every check make test holds lab N to, in minutes. */
int cmd_checklab(int argc, char **argv);

/* attnlab new-lab: scaffold the next lab from its functions' signatures and shapes. */
int cmd_newlab(int argc, char **argv);

/* The same in the tree at root (NULL: find it as the other commands do). */
int cmd_newlab_run(FILE *out, FILE *err, const char *root, int argc, char **argv);

/* attnlab explain: softmax of one row of scores, step by step, on stdout. */
int cmd_explain(int argc, char **argv);

/* The same, writing the table to out and usage errors to err (what tests call). */
int cmd_explain_run(FILE *out, FILE *err, int argc, char **argv);

/* attnlab drill: questions from data/drills/ and libattn-generated drills, one at a
   time, with Leitner-box progress under the XDG state directory. */
int cmd_drill(int argc, char **argv);

/* The same reading answers from in, writing to out and err, with the tree at root
   and progress in state_dir (NULL: find them as cmd_drill does). What tests call. */
int cmd_drill_run_in(FILE *in, FILE *out, FILE *err, const char *root, const char *state_dir,
                     int argc, char **argv);

/* attnlab bench: time libattn's attention paths (reference, online, fused) on this
   machine, and check their outputs agree. */
int cmd_bench(int argc, char **argv);

/* The same, writing the table or CSV to out and errors to err (what tests call). */
int cmd_bench_run(FILE *out, FILE *err, int argc, char **argv);

/* attnlab experiment: the answer key's numbers for one of the course's experiments. */
int cmd_experiment(int argc, char **argv);

/* The same, writing the table or CSV to out and errors to err (what tests call). */
int cmd_experiment_run(FILE *out, FILE *err, int argc, char **argv);

/* attnlab plot: an experiment's reference numbers beside a student's, as a PNG. */
int cmd_plot(int argc, char **argv);

/* The same, writing messages to out and errors to err (what tests call). */
int cmd_plot_run(FILE *out, FILE *err, int argc, char **argv);

/* cmd_plot_run with the tree and the child objects given (tests build their own
   child objects); NULL finds them from where attnlab lives, as cmd_plot_run does. */
int cmd_plot_run_in(FILE *out, FILE *err, const char *root, const char *child_dir,
                    int argc, char **argv);

/* attnlab rules: a lab's rules from its rubric, printed, written into the stub and
   handout, or checked there (rules.h). */
int cmd_rules(int argc, char **argv);

/* The same, writing to out and err, for the tree at root (NULL: find it from
   where attnlab lives, as cmd_rules does). What tests call. */
int cmd_rules_run(FILE *out, FILE *err, const char *root, int argc, char **argv);

/* attnlab status: every lab's visible tests, state, points and the next step. */
int cmd_status(int argc, char **argv);

/* The same, writing to out and err, for the tree at root with the child objects in
   child_dir (both NULL: find them from where attnlab lives). What tests call. */
int cmd_status_run(FILE *out, FILE *err, const char *root, const char *child_dir, int argc,
                   char **argv);

/* attnlab watch: regrade one lab's visible tests on each save until it passes. */
int cmd_watch(int argc, char **argv);

/* The same, writing to out and err, for the tree at root with the child objects in
   child_dir (both NULL: find them). What tests call. */
int cmd_watch_run(FILE *out, FILE *err, const char *root, const char *child_dir, int argc,
                  char **argv);

/* attnlab doctor: the tools and sandbox layers this machine has, and what to install. */
int cmd_doctor(int argc, char **argv);

/* The same, writing to out and err (what tests call). */
int cmd_doctor_run(FILE *out, FILE *err, int argc, char **argv);

/* attnlab similarity: pairs of students' lab files ranked by shared winnowed
   fingerprints, with the matching regions side by side (similarity.h). */
int cmd_similarity(int argc, char **argv);

/* The same, writing to out and err, for the tree at root (NULL: find it from
   where attnlab lives). What tests call. */
int cmd_similarity_run(FILE *out, FILE *err, const char *root, int argc, char **argv);

#endif /* GR_COMMANDS_H */
