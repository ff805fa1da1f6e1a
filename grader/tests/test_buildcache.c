/* test_buildcache.c: the build cache (buildcache.h). A second build of the
 * same bytes gets the first one's program without running a tool; one byte
 * more in the file, another rubric or another child object is a new build; a
 * failed build is never kept; an entry whose stored key differs from the
 * build's (a hash collision, a tampered entry) is never used; a file that is
 * not a regular file is built, uncached, to its own verdict; a full cache
 * drops its oldest programs; ATTNLAB_BUILD_CACHE=off keeps nothing.
 * Run from the repository root. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confined/buildcache.h"
#include "confined/workdir.h"
#include "base/labmod.h"
#include "base/layout.h"
#include "base/rubric.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

Suite *test_suite(void);

static char *dir, *cache, *work, *child;
static gr_rubric rubric;

static void setup(void)
{
    dir = fk_suite_dir("buildcache");
    cache = gr_xasprintf("%s/cache", dir);
    work = gr_xasprintf("%s/work", dir);
    ck_assert_int_eq(mkdir(work, 0711), 0);
    child = fk_child_dir();
    char *path = gr_layout_rubric_from(".", NULL, 1), err[512];
    ck_assert_msg(gr_rubric_load(path, &rubric, err, sizeof err) == 0, "%s", err);
    free(path);
    setenv("ATTNLAB_BUILD_CACHE", cache, 1);
}

static int entries(void)
{
    DIR *d = opendir(cache);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Build the file holding text (or src as it is, for NULL) as lab 1 through the cache. */
static void build(const char *name, const char *text, gr_build *b)
{
    char *src = gr_xasprintf("%s/%s", dir, name), err[512] = "";
    if (text)
        ck_assert_int_eq(gr_write_file_atomic(src, text, strlen(text)), 0);
    gr_paths paths = {".", child, work};
    ck_assert_msg(gr_buildcache_build(&rubric, gr_layout_dir(1), src, &paths, b, err, sizeof err) == 0,
                  "%s", err);
    free(src);
}

static char *solution(void)
{
    char *path = gr_layout_solution(".", 1);
    char *text = gr_read_file(path, NULL);
    ck_assert_ptr_nonnull(text);
    free(path);
    return text;
}

static int same_file(const char *a, const char *b)
{
    size_t la, lb;
    char *x = gr_read_file(a, &la), *y = gr_read_file(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

START_TEST(the_same_bytes_build_once)
{
    char *text = solution();
    gr_build a, b, c;
    build("lab01.c", text, &a);
    ck_assert(a.ok);
    ck_assert_int_eq(entries(), 1);
    build("lab01.c", text, &b);
    ck_assert(b.ok);
    ck_assert_int_eq(entries(), 1);
    ck_assert_str_ne(a.exe, b.exe);              /* its own copy, in the work folder */
    ck_assert_msg(same_file(a.exe, b.exe), "the kept program differs from the one built");
    ck_assert_int_eq(b.static_bytes, a.static_bytes);
    struct stat st;
    ck_assert_int_eq(stat(b.exe, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0755);  /* the sandbox's user runs it */
    /* one byte more (a space in a comment) is another file: built again */
    char *edited = gr_xasprintf("%s ", text);
    build("lab01.c", edited, &c);
    ck_assert(c.ok);
    ck_assert_int_eq(entries(), 2);
    /* a build's warnings come back with its program, every byte of them */
    char *warns = gr_xasprintf("%s\nstatic int never_used;\n", text);
    gr_build w1, w2;
    build("lab01.c", warns, &w1);
    build("lab01.c", warns, &w2);
    ck_assert_int_eq(entries(), 3);
    ck_assert_ptr_nonnull(w1.log);
    ck_assert_ptr_nonnull(strstr(w1.log, "never_used"));
    ck_assert_ptr_nonnull(w2.log);
    ck_assert_str_eq(w2.log, w1.log);
    gr_build_free(&a);
    gr_build_free(&b);
    gr_build_free(&c);
    gr_build_free(&w1);
    gr_build_free(&w2);
    free(warns);
    free(edited);
    free(text);
}
END_TEST

START_TEST(a_failed_build_is_never_kept)
{
    gr_build b;
    build("lab01.c", "int lab_dot_scores(void) { return }\n", &b);
    ck_assert(!b.ok);
    ck_assert_int_eq(b.verdict, GR_COMPILE_ERROR);
    ck_assert_int_eq(entries(), 0);
    gr_build_free(&b);
}
END_TEST

START_TEST(an_entry_with_another_key_is_not_used)
{
    char *text = solution();
    gr_build a, b;
    build("lab01.c", text, &a);
    ck_assert_int_eq(entries(), 1);
    /* the entry's program replaced and its key changed by one byte: as if another
       build's key hashed to this name. The next build must not take it. */
    DIR *d = opendir(cache);
    struct dirent *e;
    while ((e = readdir(d)) != NULL && e->d_name[0] == '.')
        ;
    ck_assert_ptr_nonnull(e);
    char *key = gr_xasprintf("%s/%s/key", cache, e->d_name);
    char *exe = gr_xasprintf("%s/%s/exe", cache, e->d_name);
    closedir(d);
    size_t len;
    char *k = gr_read_file(key, &len);
    k[len - 1] ^= 1;
    ck_assert_int_eq(gr_write_file_atomic(key, k, len), 0);
    ck_assert_int_eq(gr_write_file_atomic(exe, "not a program", 13), 0);
    build("lab01.c", text, &b);
    ck_assert(b.ok);
    ck_assert_msg(same_file(a.exe, b.exe), "a build took an entry whose key is not its own");
    gr_build_free(&a);
    gr_build_free(&b);
    free(k);
    free(key);
    free(exe);
    free(text);
}
END_TEST

START_TEST(a_link_is_built_uncached_to_its_verdict)
{
    char *target = gr_layout_solution(fk_root(), 1), *link = gr_xasprintf("%s/lab01.c", dir);
    unlink(link);
    ck_assert_int_eq(symlink(target, link), 0);
    gr_build b;
    build("lab01.c", NULL, &b);
    ck_assert(!b.ok);
    ck_assert_ptr_nonnull(strstr(b.message, "not a regular file"));
    ck_assert_int_eq(entries(), 0);
    gr_build_free(&b);
    unlink(link);
    free(link);
    free(target);
}
END_TEST

START_TEST(off_keeps_nothing)
{
    setenv("ATTNLAB_BUILD_CACHE", "off", 1);
    ck_assert_ptr_null(gr_buildcache_dir());
    char *text = solution();
    gr_build b;
    build("lab01.c", text, &b);
    ck_assert(b.ok);
    ck_assert_int_eq(access(cache, F_OK), -1);
    gr_build_free(&b);
    free(text);
}
END_TEST

START_TEST(a_full_cache_drops_its_oldest)
{
    ck_assert_int_eq(mkdir(cache, 0700), 0);
    for (int i = 0; i < GR_BUILDCACHE_ENTRIES; i++) {  /* old entries, made by hand */
        char *e = gr_xasprintf("%s/old%04d", cache, i);
        ck_assert_int_eq(mkdir(e, 0700), 0);
        struct timespec t[2] = {{1000000 + i, 0}, {1000000 + i, 0}};
        ck_assert_int_eq(utimensat(AT_FDCWD, e, t, 0), 0);
        free(e);
    }
    char *text = solution();
    gr_build b;
    build("lab01.c", text, &b);
    ck_assert_int_eq(entries(), GR_BUILDCACHE_ENTRIES);
    char *oldest = gr_xasprintf("%s/old0000", cache), *next = gr_xasprintf("%s/old0001", cache);
    ck_assert_int_eq(access(oldest, F_OK), -1);
    ck_assert_int_eq(access(next, F_OK), 0);
    gr_build_free(&b);
    free(oldest);
    free(next);
    free(text);
}
END_TEST

static void each_setup(void)
{
    setenv("ATTNLAB_BUILD_CACHE", cache, 1);
    gr_workdir_remove(gr_xstrdup(cache));
}

Suite *test_suite(void)
{
    Suite *s = suite_create("buildcache");
    TCase *tc = tcase_create("cache");
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_add_checked_fixture(tc, each_setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, the_same_bytes_build_once);
    tcase_add_test(tc, a_failed_build_is_never_kept);
    tcase_add_test(tc, an_entry_with_another_key_is_not_used);
    tcase_add_test(tc, a_link_is_built_uncached_to_its_verdict);
    tcase_add_test(tc, off_keeps_nothing);
    tcase_add_test(tc, a_full_cache_drops_its_oldest);
    suite_add_tcase(s, tc);
    return s;
}
