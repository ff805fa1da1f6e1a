/* test_commands.c: the built program's command table, run as a user runs it
 * (build/attnlab, from the repository root): every command listed by
 * `attnlab --help` answers --help with its usage on stdout and exit 0, every
 * option its usage lists (the list cli/opts.c makes from the command's table)
 * is in its entry of doc/attnlab.1 and every option that entry's synopsis
 * names is in the list, and a command the syllabus plans but attnlab lacks
 * says what to use instead. The option layer itself (cli/opts.h) is checked
 * on a table of its own: each kind stored, each usage error's one line, the
 * order options end at, and the usage text, by hand. */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "base/util.h"

Suite *test_suite(void);

/* Run build/attnlab with args (shell words); its exit status, stdout and stderr. */
static int run(const char *args, char **out, char **err)
{
    char o[] = "/tmp/attnlab-test-commands-out-XXXXXX", e[] = "/tmp/attnlab-test-commands-err-XXXXXX";
    ck_assert_msg(access("build/attnlab", X_OK) == 0, "build/attnlab is missing: run make first");
    int fo = mkstemp(o), fe = mkstemp(e);
    ck_assert(fo >= 0 && fe >= 0);
    char *cmd = gr_xasprintf("build/attnlab %s >%s 2>%s </dev/null", args, o, e);
    int st = system(cmd);
    free(cmd);
    *out = gr_read_file(o, NULL);
    *err = gr_read_file(e, NULL);
    ck_assert(*out && *err);
    close(fo);
    close(fe);
    unlink(o);
    unlink(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

START_TEST(every_listed_command_has_help)
{
    char *out, *err;
    ck_assert_int_eq(run("--help", &out, &err), 0);
    const char *p = strstr(out, "Commands:\n");
    ck_assert_ptr_nonnull(p);
    int n = 0;
    for (p = strchr(p, '\n') + 1; strncmp(p, "  ", 2) == 0; p = strchr(p, '\n') + 1) {
        char name[32];
        ck_assert_int_eq(sscanf(p, " %31s", name), 1);
        char *args = gr_xasprintf("%s --help", name), *o, *e;
        ck_assert_msg(run(args, &o, &e) == 0, "attnlab %s --help: %s", name, e);
        char *usage = gr_xasprintf("usage: attnlab %s", name);
        ck_assert_msg(strncmp(o, usage, strlen(usage)) == 0, "attnlab %s --help printed:\n%s", name, o);
        /* each says what its exit status means (the list's line defers to them) */
        ck_assert_msg(strstr(o, "Exit status: 0 "), "attnlab %s --help has no exit status", name);
        ck_assert_str_eq(e, "");
        free(usage);
        free(args);
        free(o);
        free(e);
        n++;
    }
    ck_assert_int_ge(n, 7);
    /* grade and batch exit 0 whatever the score: the list never says tests failing is 1 */
    ck_assert_msg(!strstr(out, "tests failed") && strstr(out, "grade and batch exit 0 whatever "
                  "the\nscore"), "%s", out);
    free(out);
    free(err);
}
END_TEST

/* The commands `attnlab --help` lists, as a NULL-terminated malloc'd list. */
static char **listed_commands(void)
{
    char *out, *err, **names = gr_xcalloc(64, sizeof *names);
    ck_assert_int_eq(run("--help", &out, &err), 0);
    const char *p = strstr(out, "Commands:\n");
    ck_assert_ptr_nonnull(p);
    int n = 0;
    for (p = strchr(p, '\n') + 1; strncmp(p, "  ", 2) == 0 && n < 63; p = strchr(p, '\n') + 1) {
        char name[32];
        ck_assert_int_eq(sscanf(p, " %31s", name), 1);
        names[n++] = gr_xstrdup(name);
    }
    free(out);
    free(err);
    return names;
}

/* NAME's entry of the man page's COMMANDS: from its ".TP" to the next one
   (malloc'd), or NULL when it has none. Dashes are plain '-' in it. */
static char *man_entry(const char *man, const char *name)
{
    gr_strbuf want = {0};
    gr_sb_append(&want, "\n.TP\n.B");
    const char *start = NULL;
    for (const char *p = strstr(man, want.s); p && !start; p = strstr(p + 1, want.s)) {
        const char *word = p + strlen(want.s) + (p[strlen(want.s)] == 'R' ? 2 : 1);
        char got[64];
        size_t k = 0;
        for (; word[0] && !strchr(" \n", word[0]) && k < sizeof got - 1; word++)
            if (word[0] != '\\')
                got[k++] = word[0];
        got[k] = '\0';
        if (strcmp(got, name) == 0)
            start = p + 1;
    }
    free(want.s);
    if (!start)
        return NULL;
    const char *end = strstr(start, "\n.TP\n");
    const char *sh = strstr(start, "\n.SH ");
    if (!end || (sh && sh < end))
        end = sh ? sh : start + strlen(start);
    gr_strbuf b = {0};
    for (const char *q = start; q < end; q++)
        if (!(q[0] == '\\' && q[1] == '-'))
            gr_sb_appendn(&b, q, 1);
    return gr_sb_take(&b);
}

/* Does text name the option --opt (not only a longer one, --opt-more), or
   its letter -key (key 0: none)? */
static int names_option(const char *text, const char *opt, char key)
{
    size_t n = strlen(opt);
    for (const char *p = strstr(text, "--"); p; p = strstr(p + 2, "--"))
        if (strncmp(p + 2, opt, n) == 0 && !(isalnum((unsigned char)p[2 + n]) || p[2 + n] == '-'))
            return 1;
    for (const char *p = strchr(text, '-'); key && p; p = strchr(p + 1, '-'))
        if (p[1] == key && !isalnum((unsigned char)p[2]) && (p == text || p[-1] != '-'))
            return 1;
    return 0;
}

/* Every option cmd's usage lists is in its man entry, and every option the
   entry's synopsis (its first line) names is in the usage's list. */
static void check_man(const char *cmd, const char *usage, const char *man)
{
    char *entry = man_entry(man, cmd);
    ck_assert_msg(entry, "doc/attnlab.1 has no entry for the command %s", cmd);
    gr_strbuf listed = {0};
    for (const char *l = usage; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        const char *o = l + strspn(l, " ");
        if (o - l != 2 || o[0] != '-')
            continue;
        char key = o[1] != '-' ? o[1] : 0, name[64];
        if (key)
            o += 4;                                   /* "-v, --verbose" */
        if (sscanf(o, "--%63[a-zA-Z0-9-]", name) != 1)
            continue;
        ck_assert_msg(names_option(entry, name, key), "attnlab %s --help lists --%s, and its entry in "
                      "doc/attnlab.1 does not name it", cmd, name);
        gr_sb_printf(&listed, " --%s ", name);
    }
    char *line_end = strchr(entry, '\n') ? strchr(strchr(entry, '\n') + 1, '\n') : NULL;
    for (const char *p = strstr(entry, "--"); p && (!line_end || p < line_end); p = strstr(p + 2, "--")) {
        char name[64], key[72];
        if (sscanf(p, "--%63[a-zA-Z0-9-]", name) != 1)
            continue;
        snprintf(key, sizeof key, " --%s ", name);
        ck_assert_msg(listed.s && strstr(listed.s, key), "doc/attnlab.1's synopsis of %s names "
                      "--%s, which attnlab %s --help does not list", cmd, name, cmd);
    }
    free(listed.s);
    free(entry);
}

START_TEST(every_option_is_in_the_man_page)
{
    char *man = gr_read_file("doc/attnlab.1", NULL);
    ck_assert_msg(man, "cannot read doc/attnlab.1");
    char **names = listed_commands();
    for (int i = 0; names[i]; i++) {
        char *args = gr_xasprintf("%s --help", names[i]), *o, *e;
        ck_assert_int_eq(run(args, &o, &e), 0);
        check_man(names[i], o, man);
        free(args);
        free(o);
        free(e);
        free(names[i]);
    }
    free(names);
    free(man);
}
END_TEST

/* One line on stderr, exit 2; a typo of a command suggests it. */
static const struct { const char *args, *says; } unknown[] = {
    { "grde", "'grde' is not a command (did you mean 'grade'?)" },
    { "dril", "'dril' is not a command (did you mean 'drill'?)" },
    { "simlarity", "'simlarity' is not a command (did you mean 'similarity'?)" },
    { "xyzzy", "'xyzzy' is not a command; see 'attnlab --help' for the list" },
    { "help xyzzy", "'xyzzy' is not a command" },
};

START_TEST(unknown_commands_suggest_the_right_one)
{
    char *out, *err;
    ck_assert_int_eq(run(unknown[_i].args, &out, &err), 2);
    ck_assert_str_eq(out, "");
    ck_assert_msg(strstr(err, unknown[_i].says) != NULL, "attnlab %s said: %s", unknown[_i].args, err);
    ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);   /* one line */
    free(out);
    free(err);
}
END_TEST

/* check-lab: a lab number or exit 2; a tree whose build fails gets the build's
   log end and no other step (exit 1), each step's log kept under the tree. */
START_TEST(check_lab_says_what_failed)
{
    char *out, *err;
    ck_assert_int_eq(run("check-lab", &out, &err), 2);
    ck_assert_msg(strstr(err, "give one lab number"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(run("check-lab 99", &out, &err), 2);
    ck_assert_msg(strstr(err, "the lab is a number from 1 to"), "%s", err);
    free(out);
    free(err);
    char dir[] = "/tmp/attnlab-test-checklab-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *mk = gr_xasprintf("%s/Makefile", dir);
    const char *broken = "all:\n\t@echo the build broke here; false\n%:\n\t@false\n";
    ck_assert_int_eq(gr_write_file_atomic(mk, broken, strlen(broken)), 0);
    setenv("ATTNLAB_ROOT", dir, 1);
    int rc = run("check-lab 1", &out, &err);
    unsetenv("ATTNLAB_ROOT");
    ck_assert_msg(rc == 1, "exit %d: %s%s", rc, out, err);
    ck_assert_msg(strstr(out, "build              FAIL") && strstr(out, "the build broke here") &&
                  strstr(out, "validate           not run: the build failed") &&
                  strstr(out, "test_stubs         not run") && strstr(out, "check-lab 1: FAILED"),
                  "%s", out);
    char *log = gr_xasprintf("%s/build/check-lab/lab01/build.log", dir);
    char *text = gr_read_file(log, NULL);
    ck_assert_msg(text && strstr(text, "the build broke here"), "%s: %s", log, text ? text : "none");
    char *rm = gr_xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(rm), 0);
    free(rm);
    free(text);
    free(log);
    free(mk);
    free(out);
    free(err);
}
END_TEST

/* ---- the option layer, on a table of its own -------------------------------------------- */

typedef struct toy {
    int verbose, colour, count, n;
    const char *name;
    int pair[2];
} toy;

/* --pair A/B into to[0], to[1]; B above A. */
static int pair_option(void *to, const char *value, char *why, size_t whylen)
{
    int *p = to, a, b;
    char tail;
    if (sscanf(value, "%d/%d%c", &a, &b, &tail) != 2 || b <= a)
        return gr_opt_fail(why, whylen, "--pair takes A/B with A below B (got '%s')", value);
    p[0] = a;
    p[1] = b;
    return 0;
}

static const gr_cmd_spec toy_cmd = {
    .name = "toy",
    .synopsis = "[-v] [--name TEXT] ARG",
    .about = "A table for the tests.\n",
    .after = "Exit status: 0.\n",
    .max_args = 1,
    .column = 18,
};

/* Parse args (a NULL-terminated list) by the toy table into t: the status;
   *first, and what was printed on out and err (malloc'd). */
static int toy_parse(const char *const *args, gr_cmd_spec cmd, toy *t, int *first, char **out,
                     char **err)
{
    const gr_opt opts[] = {
        GR_FLAG("verbose", 'v', &t->verbose, "say more"),
        GR_FLAG("colour", 0, &t->colour, "in colour"),
        GR_TEXT("name", 0, &t->name, "TEXT", "a name,\non two lines"),
        GR_INT("count", 'c', &t->count, "N", "how many", 1, 9, "a whole number from 1 to 9",
               .example = "3"),
        GR_INT("n", 0, &t->n, "N", "a one-letter long name", 0, 5, "0 to 5"),
        GR_CALL("pair", 0, pair_option, t->pair, "A/B-and-a-long-value", "two numbers"),
    };
    static char text[16][64];                    /* argv's own text, kept: t->name points in */
    char *argv[16] = {strcpy(text[0], "toy")};
    int argc = 1;
    for (; args[argc - 1] && argc < 15; argc++)
        argv[argc] = strncpy(text[argc], args[argc - 1], sizeof text[argc] - 1);
    size_t no, ne;
    FILE *o = open_memstream(out, &no), *e = open_memstream(err, &ne);
    memset(t, 0, sizeof *t);
    *first = -1;
    int rc = gr_opts_parse(&cmd, opts, GR_N_OPTS(opts), argc, argv, o, e, first);
    fclose(o);
    fclose(e);
    return rc;
}

START_TEST(options_are_stored_by_kind)
{
    const char *args[] = {"-v", "--name", "abc", "--count=5", "--pair", "2/7", "--n", "0", "x",
                          "--colour", NULL};
    toy t;
    int first;
    char *out, *err;
    ck_assert_int_eq(toy_parse(args, toy_cmd, &t, &first, &out, &err), 0);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, "");
    ck_assert_int_eq(t.verbose, 1);
    ck_assert_int_eq(t.colour, 1);               /* after the argument: options are permuted */
    ck_assert_str_eq(t.name, "abc");
    ck_assert_int_eq(t.count, 5);
    ck_assert_int_eq(t.n, 0);
    ck_assert_int_eq(t.pair[0], 2);
    ck_assert_int_eq(t.pair[1], 7);
    ck_assert_int_eq(first, 10);                 /* "x", moved behind the options */
    free(out);
    free(err);
}
END_TEST

/* in_order: the first argument ends the options, the rest are arguments. */
START_TEST(options_end_at_the_first_argument_in_order)
{
    const char *args[] = {"x", "--colour", NULL};
    gr_cmd_spec cmd = toy_cmd;
    cmd.in_order = 1;
    cmd.max_args = -1;
    toy t;
    int first;
    char *out, *err;
    ck_assert_int_eq(toy_parse(args, cmd, &t, &first, &out, &err), 0);
    ck_assert_int_eq(t.colour, 0);
    ck_assert_int_eq(first, 1);
    free(out);
    free(err);
}
END_TEST

/* Each bad command line: exit 2, its one line on err, nothing on out. */
static const struct { const char *args[4]; const char *says; } bad_lines[] = {
    { {"--bogus"}, "unknown option '--bogus'" },
    { {"-x"}, "unknown option '-x'" },
    { {"-n", "1"}, "unknown option '-n' (did you mean '--n'?)" },
    { {"--count"}, "--count needs a value, e.g. --count 3" },
    { {"--name"}, "--name needs a value" },
    { {"-c"}, "--count needs a value, e.g. --count 3" },
    { {"--count", "0"}, "--count takes a whole number from 1 to 9 (got '0')" },
    { {"-c", "5x"}, "--count takes a whole number from 1 to 9 (got '5x')" },
    { {"--verbose=1"}, "--verbose takes no value (got '--verbose=1')" },
    { {"--co", "1"}, "'--co' is short for more than one option (--colour, --count); write it out" },
    { {"--pair", "3/2"}, "--pair takes A/B with A below B (got '3/2')" },
    { {"a", "b"}, "unexpected argument 'b'" },
};

START_TEST(each_usage_error_is_one_line)
{
    toy t;
    int first;
    char *out, *err;
    ck_assert_int_eq(toy_parse(bad_lines[_i].args, toy_cmd, &t, &first, &out, &err), GR_EXIT_USAGE);
    char *want = gr_xasprintf("attnlab toy: %s (see 'attnlab toy --help')\n", bad_lines[_i].says);
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(out, "");
    free(want);
    free(out);
    free(err);
}
END_TEST

/* --help and -h print the usage on out, its options list from the table. */
START_TEST(usage_lists_the_table)
{
    static const char want[] =
        "usage: attnlab toy [-v] [--name TEXT] ARG\n"
        "\n"
        "A table for the tests.\n"
        "\n"
        "  -v, --verbose   say more\n"
        "  --colour        in colour\n"
        "  --name TEXT     a name,\n"
        "                  on two lines\n"
        "  -c, --count N   how many\n"
        "  --n N           a one-letter long name\n"
        "  --pair A/B-and-a-long-value\n"
        "                  two numbers\n"
        "\n"
        "Exit status: 0.\n";
    const char *const helps[][2] = {{"--help", NULL}, {"-h", NULL}};
    for (int i = 0; i < 2; i++) {
        toy t;
        int first;
        char *out, *err;
        ck_assert_int_eq(toy_parse(helps[i], toy_cmd, &t, &first, &out, &err), GR_OPTS_HELP);
        ck_assert_str_eq(out, want);
        ck_assert_str_eq(err, "");
        free(out);
        free(err);
    }
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("commands");
    TCase *tc = tcase_create("commands");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, every_listed_command_has_help);
    tcase_add_test(tc, every_option_is_in_the_man_page);
    tcase_add_test(tc, check_lab_says_what_failed);
    tcase_add_loop_test(tc, unknown_commands_suggest_the_right_one, 0,
                        (int)(sizeof unknown / sizeof unknown[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("options");
    tcase_add_test(tc, options_are_stored_by_kind);
    tcase_add_test(tc, options_end_at_the_first_argument_in_order);
    tcase_add_loop_test(tc, each_usage_error_is_one_line, 0,
                        (int)(sizeof bad_lines / sizeof bad_lines[0]));
    tcase_add_test(tc, usage_lists_the_table);
    suite_add_tcase(s, tc);
    return s;
}
