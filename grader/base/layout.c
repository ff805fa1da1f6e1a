/* layout.c: where everything of a lab lives (see layout.h). */
#include "base/layout.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/labmod.h"
#include "base/util.h"

/* ---- a lab's files --------------------------------------------------------------- */

const char *gr_layout_dir(int lab)
{
    return lab >= 1 && lab <= GR_N_LABS ? gr_lab_modules[lab - 1]->dir : NULL;
}

char *gr_layout_name(int lab, const char *ext)
{
    return gr_layout_dir(lab) ? gr_xasprintf("lab%02d%s", lab, ext) : NULL;
}

/* root/rel (rel alone for no root), taking rel; NULL stays NULL. */
static char *under(const char *root, char *rel)
{
    if (!rel || !root || !*root)
        return rel;
    char *path = gr_xasprintf("%s/%s", root, rel);
    free(rel);
    return path;
}

char *gr_layout_path_of(const char *root, const char *dir, int lab, gr_layout_file what)
{
    char *rel;
    switch (what) {
    case GR_LAYOUT_FOLDER:        rel = gr_xasprintf("labs/%s", dir); break;
    case GR_LAYOUT_STUDENT:       rel = gr_xasprintf("labs/%s/lab%02d.c", dir, lab); break;
    case GR_LAYOUT_CONTRACT:      rel = gr_xasprintf("labs/%s/lab%02d.h", dir, lab); break;
    case GR_LAYOUT_HANDOUT:       rel = gr_xasprintf("labs/%s/README.md", dir); break;
    case GR_LAYOUT_VISIBLE_TESTS: rel = gr_xasprintf("labs/%s/test_lab%02d.c", dir, lab); break;
    case GR_LAYOUT_LAB_MAKEFILE:  rel = gr_xasprintf("labs/%s/Makefile", dir); break;
    case GR_LAYOUT_KIT_EXPECTED:  rel = gr_xasprintf("labs/%s/expected_lab%02d.h", dir, lab); break;
    case GR_LAYOUT_STUB:          rel = gr_xasprintf("data/stubs/lab%02d.c", lab); break;
    case GR_LAYOUT_RUBRIC:        rel = gr_xasprintf("data/rubrics/lab%02d.yaml", lab); break;
    case GR_LAYOUT_MUTANTS:       rel = gr_xasprintf("data/mutants/lab%02d", lab); break;
    case GR_LAYOUT_MUTANT_MANIFEST: rel = gr_xasprintf("data/mutants/lab%02d/manifest.yaml", lab); break;
    case GR_LAYOUT_EQUIVALENT:    rel = gr_xasprintf("data/mutants/lab%02d/equivalent.yaml", lab); break;
    case GR_LAYOUT_SOLUTION_FOLDER: rel = gr_xasprintf("solutions/%s", dir); break;
    case GR_LAYOUT_SOLUTION:      rel = gr_xasprintf("solutions/%s/lab%02d.c", dir, lab); break;
    case GR_LAYOUT_SOLUTION_MAKEFILE: rel = gr_xasprintf("solutions/%s/Makefile", dir); break;
    case GR_LAYOUT_MODULE:        rel = gr_xasprintf("grader/labs/lab%02d.c", lab); break;
    default:                      return NULL;
    }
    return under(root, rel);
}

/* what of a lab of the course, or NULL for no such lab. */
static char *of_lab(const char *root, int lab, gr_layout_file what)
{
    const char *dir = gr_layout_dir(lab);
    return dir ? gr_layout_path_of(root, dir, lab, what) : NULL;
}

char *gr_layout_folder(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_FOLDER); }
char *gr_layout_student(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_STUDENT); }
char *gr_layout_contract(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_CONTRACT); }
char *gr_layout_handout(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_HANDOUT); }
char *gr_layout_kit_expected(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_KIT_EXPECTED); }
char *gr_layout_stub(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_STUB); }
char *gr_layout_rubric(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_RUBRIC); }
char *gr_layout_mutants(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_MUTANTS); }
char *gr_layout_solution(const char *root, int lab) { return of_lab(root, lab, GR_LAYOUT_SOLUTION); }

char *gr_layout_mutant_manifest(const char *root, int lab)
{
    return of_lab(root, lab, GR_LAYOUT_MUTANT_MANIFEST);
}

char *gr_layout_equivalent(const char *root, int lab)
{
    return of_lab(root, lab, GR_LAYOUT_EQUIVALENT);
}

char *gr_layout_handout_at(int lab, const char *section)
{
    char *handout = gr_layout_handout(NULL, lab);
    char *at = handout ? gr_xasprintf("%s, section %s", handout, section) : NULL;
    free(handout);
    return at;
}

char *gr_layout_rubric_from(const char *root, const char *rubrics, int lab)
{
    return rubrics ? under(rubrics, gr_layout_name(lab, ".yaml")) : gr_layout_rubric(root, lab);
}

char *gr_layout_in_folder(const char *root, const char *dir, const char *file)
{
    return under(root, gr_xasprintf("labs/%s/%s", dir, file));
}

char *gr_layout_folder_of(const char *root, const char *what)
{
    static const char *const folders[][2] = {
        { "labs", "labs" }, { "stubs", "data/stubs" }, { "rubrics", "data/rubrics" },
        { "mutants", "data/mutants" }, { "solutions", "solutions" },
    };
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++)
        if (strcmp(what, folders[i][0]) == 0)
            return under(root, gr_xstrdup(folders[i][1]));
    return NULL;
}

/* ---- finding the root ------------------------------------------------------------ */

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir's parent into out ("/usr/local/bin" -> "/usr/local", "/bin" -> ""). */
static void parent_of(char *out, size_t len, const char *dir)
{
    snprintf(out, len, "%s", dir);
    char *slash = strrchr(out, '/');
    if (slash)
        *slash = '\0';
}

/* The nearest folder at or above dir holding data/rubrics into root: 0, or -1. */
static int walk_up(char *root, size_t root_len, const char *dir)
{
    char d[PATH_MAX], probe[PATH_MAX + 16];
    snprintf(d, sizeof d, "%s", dir);
    for (;;) {
        snprintf(probe, sizeof probe, "%s/data/rubrics", d);
        if (is_dir(probe)) {
            snprintf(root, root_len, "%s", d);
            return 0;
        }
        char *slash = strrchr(d, '/');
        if (!slash || slash == d)
            return -1;
        *slash = '\0';
    }
}

/* Two layouts, both found from the folder that holds the running program:
     a build    <tree>/build/attnlab, child objects in build/grader/child, the
                course data in the tree above (the nearest data/rubrics)
     installed  PREFIX/bin/attnlab, child objects in PREFIX/lib/attnlab/child,
                the course data in PREFIX/share/attnlab (make install)
   The installed data wins over a tree above it, so a staged or relocated
   install always reads its own copy. */
int gr_layout_locate(char *root, size_t root_len, char *child_dir, size_t child_len,
                     char *err, size_t errlen)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0) {
        snprintf(err, errlen, "cannot find the attnlab program itself: %s", strerror(errno));
        return -1;
    }
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0'; /* the folder of the program: <tree>/build or PREFIX/bin */
    char prefix[PATH_MAX], share[PATH_MAX + 32], probe[PATH_MAX + 64];
    parent_of(prefix, sizeof prefix, exe);
    snprintf(share, sizeof share, "%s/share/attnlab", prefix);
    snprintf(probe, sizeof probe, "%s/data/rubrics", share);

    /* root first: cmd_drill needs only the course data, and reads root even
       when the child objects are missing */
    const char *env = getenv("ATTNLAB_ROOT");
    if (env && *env) {
        snprintf(root, root_len, "%s", env);
    } else if (is_dir(probe)) {
        snprintf(root, root_len, "%s", share);
    } else if (walk_up(root, root_len, exe) != 0) {
        snprintf(err, errlen, "cannot find attnlab's course data (data/rubrics): not in %s "
                 "(an install) nor in any folder above %s (a source tree); install with "
                 "'make install PREFIX=...', or set ATTNLAB_ROOT to a source tree or to "
                 "PREFIX/share/attnlab", share, exe);
        return -1;
    }

    char built[PATH_MAX + 16], installed[PATH_MAX + 32];
    snprintf(built, sizeof built, "%s/grader/child", exe);
    snprintf(installed, sizeof installed, "%s/lib/attnlab/child", prefix);
    snprintf(child_dir, child_len, "%s", is_dir(built) || !is_dir(installed) ? built : installed);
    if (!is_dir(child_dir)) {
        snprintf(err, errlen, "the grader's child objects are missing: not in %s (a build) nor "
                 "in %s (an install); run 'make' in the source tree, or 'make install' again",
                 built, installed);
        return -1;
    }
    return 0;
}

int gr_layout_root_has_labs(const char *root)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char *file = gr_layout_student(root, lab);
        int found = access(file, F_OK) == 0;
        free(file);
        if (found)
            return 1;
    }
    return 0;
}

char *gr_layout_default_submission(const char *root, char *err, size_t errlen)
{
    if (gr_layout_root_has_labs(root))
        return gr_layout_folder_of(root, "labs");
    if (is_dir("labs"))
        return gr_xstrdup("labs");
    snprintf(err, errlen, "no labs/ here to grade: this attnlab is installed (course data in "
             "%s), so pass --submission DIR, the folder that holds labNN-name/labNN.c", root);
    return NULL;
}

int gr_layout_parse_labs(const char *s, int *labs, char *err, size_t errlen)
{
    memset(labs, 0, GR_N_LABS * sizeof labs[0]);
    if (strcmp(s, "all") == 0) {
        for (int i = 0; i < GR_N_LABS; i++)
            labs[i] = 1;
        return 0;
    }
    const char *p = s;
    for (;;) {
        char *end;
        long n = strtol(p, &end, 10);
        if (end == p || n < 1 || n > GR_N_LABS || (*end != ',' && *end != '\0')) {
            snprintf(err, errlen, "--lab takes 'all', a lab number 1 to %d, or a list like 1,3 (got '%s')",
                     GR_N_LABS, s);
            return -1;
        }
        labs[n - 1] = 1;
        if (*end == '\0')
            return 0;
        p = end + 1;
    }
}
