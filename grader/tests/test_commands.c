/* test_commands.c: the built program's command table, run as a user runs it
 * (build/attnlab, from the repository root): every command listed by
 * `attnlab --help` answers --help with its usage on stdout and exit 0, every
 * option its usage lists (the list cli/opts.c makes from the command's table)
 * is in its entry of doc/attnlab.1 and every option that entry's synopsis
 * names is in the list, and a command the syllabus plans but attnlab lacks
 * says what to use instead. */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

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

Suite *test_suite(void)
{
    Suite *s = suite_create("commands");
    TCase *tc = tcase_create("commands");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, every_listed_command_has_help);
    tcase_add_test(tc, every_option_is_in_the_man_page);
    tcase_add_loop_test(tc, unknown_commands_suggest_the_right_one, 0,
                        (int)(sizeof unknown / sizeof unknown[0]));
    suite_add_tcase(s, tc);
    return s;
}
