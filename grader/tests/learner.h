/* learner.h (tests): what the suites of status, watch and the pristine
 * stubs share: a scratch folder, a submission folder made of chosen files,
 * the grader's child objects, and reading a whole file.
 *
 *   char *dir = scratch_dir("status");          a fresh folder under /tmp
 *   dir = learner_tree("watch", &sub, &state)   one with an empty labs/ and its own
 *                                               XDG_STATE_HOME (progress file)
 *   put_lab(sub, 1, "solutions/lab01-scores/lab01.c")
 *                                               sub/lab01-scores/lab01.c, a copy
 *   put_text(path, text)                        write text to path
 *   char *objs = fk_child_dir();               build/grader/child beside this test
 *                                               (fixtures/fixture_kit.h)
 *   char *s = read_text(path);                  the whole file (fails the test when missing)
 *   remove_tree(dir)                            rm -rf dir
 *
 * Run from the top of the tree (make test-unit does). */
#ifndef ATTNLAB_TEST_LEARNER_H
#define ATTNLAB_TEST_LEARNER_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/labmod.h"
#include "base/util.h"
#include "fixtures/fixture_kit.h"

static inline char *scratch_dir(const char *what)
{
    char *tmpl = gr_xasprintf("/tmp/attnlab-%s-XXXXXX", what);
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    return tmpl;
}

/* A scratch tree for status or watch, as a student's: scratch_dir(what), an
   empty labs/ in it (*sub), and XDG_STATE_HOME at its state/ (*state), so the
   progress file is the test's own. Returns the tree (remove_tree it). */
static inline char *learner_tree(const char *what, char **sub, char **state)
{
    char *dir = scratch_dir(what);
    *sub = gr_xasprintf("%s/labs", dir);
    *state = gr_xasprintf("%s/state", dir);
    ck_assert_int_eq(mkdir(*sub, 0755), 0);
    setenv("XDG_STATE_HOME", *state, 1);
    return dir;
}

static inline void put_text(const char *path, const char *text)
{
    ck_assert_msg(gr_write_file_atomic(path, text, strlen(text)) == 0, "cannot write %s", path);
}

static inline char *read_text(const char *path)
{
    size_t len;
    char *s = gr_read_file(path, &len);
    ck_assert_msg(s != NULL, "cannot read %s", path);
    return s;
}

/* sub/<lab's folder>/labNN.c as a copy of from. */
static inline void put_lab(const char *sub, int lab, const char *from)
{
    char *dir = gr_xasprintf("%s/%s", sub, gr_lab_modules[lab - 1]->dir);
    char *to = gr_xasprintf("%s/lab%02d.c", dir, lab);
    ck_assert(mkdir(dir, 0755) == 0 || access(dir, F_OK) == 0);
    char *text = read_text(from);
    put_text(to, text);
    free(text);
    free(to);
    free(dir);
}

static inline void remove_tree(const char *dir)
{
    char *cmd = gr_xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}

#endif
