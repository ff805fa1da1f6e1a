/* test_class_property.c: any order of the instructor's steps ends where one
 * fresh batch with the final settings starts (batch_settings.h, override.h).
 *
 * A class of four (two lab 1 solutions, two stubs) under a roster, a late
 * policy, hand-in times and a rubrics folder is batched, then put through a
 * seeded random sequence of steps: a batch again, a rubric change (a test's
 * points) with its regrade, grade --test on one student, an override, and a
 * sharded batch merged (whose gradebook must be that of one batch into a
 * fresh folder, then and there). At the end the class folder's gradebook,
 * tests.csv, report.md (but the line counting who was graded in this run) and
 * Canvas export must be those of one fresh batch with the final rubric and the
 * same overrides. Each sequence prints its seed and steps when it fails;
 * ATTNLAB_PROPERTY_SEED=N runs that one sequence.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures/fixture_kit.h"
#include "base/util.h"

Suite *test_suite(void);

#define SEQUENCES 8
#define STEPS 6
#define FLAGS "--lab 1 --roster roster.yaml --course course.yaml --times times.yaml " \
              "--rubrics rub --accept-late"

static char *dir, *attnlab;
static gr_strbuf steps;         /* what this sequence did, for a failure's message */
static int kinds[5];            /* how many steps of each kind the sequences took */

/* Run cmd (taken) in dir under the class's secret; it must succeed. */
static void ok(char *cmd)
{
    char *log = gr_xasprintf("%s/step.log", dir);
    int rc = fk_sh(log, "cd %s && export ATTNLAB_SECRET=property-test && %s", dir, cmd);
    gr_sb_printf(&steps, "  %s -> %d\n", cmd, rc);
    free(cmd);
    free(log);
    ck_assert_msg(rc == 0, "a step failed:\n%s", steps.s);
}
#define OK(...) ok(gr_xasprintf(__VA_ARGS__))

static void new_class(void)
{
    dir = fk_mkdtemp("property");
    attnlab = fk_attnlab();
    const char *root = fk_root();
    char *log = gr_xasprintf("%s/setup.log", dir);
    ck_assert_int_eq(fk_sh(log, "cd %s && mkdir -p sub/s001 sub/s002 sub/s003 sub/s004 rub && "
                           "for s in s001 s003; do cp %s/solutions/lab01-scores/lab01.c sub/$s/; done && "
                           "for s in s002 s004; do cp %s/data/stubs/lab01.c sub/$s/; done && "
                           "cp %s/data/rubrics/lab01.yaml rub/ && "
                           "printf 'students:\\n  - {id: s001, name: Ada}\\n  - {id: s002, name: Bob}\\n"
                           "  - {id: s003, name: Cy}\\n  - {id: s004, name: Di}\\n  - {id: s005, name: Ed}\\n'"
                           " > roster.yaml && "
                           "printf 'due: {1: 2026-01-01T00:00:00Z}\\ngrace_minutes: 60\\n"
                           "late_penalty_percent: 10\\nmax_late_days: 3\\n' > course.yaml && "
                           "printf 's001: 2026-01-03T00:00:00Z\\ns002: 2025-12-31T00:00:00Z\\n"
                           "s003: 2026-01-02T12:00:00Z\\n' > times.yaml",
                           dir, root, root, root), 0);
    free(log);
}

static char *text_of(const char *a, const char *b)
{
    char *path = gr_xasprintf("%s/%s/%s", dir, a, b), *t = gr_read_file(path, NULL);
    free(path);
    return t ? t : gr_xstrdup("(none)");
}

/* text without its lines holding drop (malloc'd). */
static char *without(const char *text, const char *drop)
{
    gr_strbuf b = {0};
    for (const char *l = text; *l;) {
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l + 1) : strlen(l);
        char *line = gr_xasprintf("%.*s", (int)n, l);
        if (!strstr(line, drop))
            gr_sb_append(&b, line);
        free(line);
        l += n;
    }
    return b.s ? gr_sb_take(&b) : gr_xstrdup("");
}

static void same_files(const char *a, const char *b, const char *const *names)
{
    for (; *names; names++) {
        char *x = text_of(a, *names), *y = text_of(b, *names);
        char *xs = without(x, "in this run"), *ys = without(y, "in this run");
        size_t at = 0;
        while (xs[at] && xs[at] == ys[at])
            at++;
        while (at > 0 && xs[at - 1] != '\n')
            at--;
        ck_assert_msg(strcmp(xs, ys) == 0, "%s/%s differs from %s/%s after:\n%s"
                      "from: %.200s\nvs:   %.200s", a, *names, b, *names, steps.s, xs + at,
                      ys + at);
        free(xs);
        free(ys);
        free(x);
        free(y);
    }
}

/* One random step of the sequence. */
static void step(unsigned *seed)
{
    static const char *const ids[] = {"s001", "s002", "s003", "s004"};
    const char *id = ids[rand_r(seed) % 4];
    char points[8];
    int kind = rand_r(seed) % 5;
    kinds[kind]++;
    switch (kind) {
    case 0:
        OK("%s batch sub --out out -q", attnlab);
        break;
    case 1:                     /* dot_worked_example worth 1, 2 or 3: regraded in part */
        snprintf(points, sizeof points, "%u", 1 + rand_r(seed) % 3);
        OK("sed -i '/kind: dot_worked$/{n;s/points: .*/points: %s/}' rub/lab01.yaml", points);
        OK("%s batch sub --out out --rubrics rub --reason 'points %s' -q", attnlab, points);
        break;
    case 2: {
        char *cmd = gr_xasprintf("%s grade --lab 1 --test dot_small_integers --submission "
                                 "sub/%s --student %s --json out/students/%s/results.json -q",
                                 attnlab, id, id, id);
        ok(cmd);
        break;
    }
    case 3:                     /* within 0 .. 1 whatever the rubric's points */
        OK("%s override out --student %s --lab 1 --test dot_worked_example --points 1 "
           "--reason appeal", attnlab, id);
        break;
    default:                    /* two shards merged are one batch, then and there */
        OK("rm -rf sh1 sh2 merged one && %s batch sub --out sh1 --shard 1/2 " FLAGS " -q",
           attnlab);
        OK("%s batch sub --out sh2 --shard 2/2 " FLAGS " -q && %s merge sh1 sh2 --out merged "
           "--rubrics rub -q", attnlab, attnlab);
        OK("%s batch sub --out one " FLAGS " -q", attnlab);
        same_files("merged", "one", (const char *const[]){"gradebook.csv", "tests.csv", NULL});
        break;
    }
}

static void sequence(unsigned seed)
{
    new_class();
    steps.len = 0;
    if (steps.s)
        steps.s[0] = '\0';
    gr_sb_printf(&steps, "seed %u:\n", seed);
    OK("%s batch sub --out out " FLAGS " -q", attnlab);
    for (int i = 0; i < STEPS; i++)
        step(&seed);
    OK("%s batch sub --out out --export canvas -q", attnlab);
    OK("mkdir fresh && { cp out/overrides.txt fresh/ 2>/dev/null || true; } && %s batch sub "
       "--out fresh " FLAGS " --export canvas -q", attnlab);
    same_files("out", "fresh", (const char *const[]){"gradebook.csv", "tests.csv", "report.md",
                                                    "canvas.csv", NULL});
    fk_rm_rf(dir);
    free(dir);
    free(attnlab);
}

START_TEST(any_order_of_steps_ends_as_one_fresh_batch)
{
    const char *one = getenv("ATTNLAB_PROPERTY_SEED");
    if (one) {
        sequence((unsigned)strtoul(one, NULL, 10));
        return;
    }
    for (unsigned s = 1; s <= SEQUENCES; s++)
        sequence(s * 7919u);
    for (int k = 0; k < 5; k++)         /* every kind of step was taken */
        ck_assert_msg(kinds[k] > 0, "no step of kind %d in %d sequences", k, SEQUENCES);
    free(steps.s);
}
END_TEST

Suite *test_suite(void)
{
    Suite *s = suite_create("class_property");
    TCase *tc = tcase_create("sequences");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, any_order_of_steps_ends_as_one_fresh_batch);
    suite_add_tcase(s, tc);
    return s;
}
