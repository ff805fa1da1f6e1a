/* similarity_set.c: one lab's files from a folder of submissions (see similarity.h).
 *
 *   SUBMISSIONS/<student>/labNN-name/labNN.c    the labs/ layout
 *   SUBMISSIONS/<student>/labNN.c               a flat upload (Gradescope, an LMS)
 *
 * and the other near-misses grading forgives (intake.h: any case, a wrapping
 * folder). Files are read only through gr_intake_read: a link, a FIFO or a
 * device planted in a submission is skipped with a warning, never followed;
 * two candidates for one lab are skipped, as grading does not guess. */
#include "class/similarity.h"
#include "base/layout.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/intake.h"
#include "base/labmod.h"
#include "base/rubric.h"
#include "base/util.h"

static int cmp_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

int gr_sim_students(char ***names, const char *submissions, FILE *warn, char *err,
                    size_t errlen)
{
    *names = NULL;
    DIR *dir = opendir(submissions);
    if (!dir) {
        gr_set_err(err, errlen, "cannot read the submissions folder %s: %s", submissions,
                   strerror(errno));
        return -1;
    }
    int n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.')
            continue;                        /* ., .. and hidden files (.DS_Store, .git) */
        char *path = gr_xasprintf("%s/%s", submissions, e->d_name);
        struct stat st;
        int found = lstat(path, &st) == 0;
        free(path);
        if (found && S_ISLNK(st.st_mode))    /* never followed: it may lead anywhere */
            fprintf(warn, "attnlab similarity: skipped %s: a symbolic link, not a student's "
                    "folder\n", e->d_name);
        if (!found || !S_ISDIR(st.st_mode))
            continue;                        /* a roster file is not a student */
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            *names = gr_xrealloc(*names, (size_t)cap * sizeof **names);
        }
        (*names)[n++] = gr_xstrdup(e->d_name);
    }
    closedir(dir);
    if (n > 1)
        qsort(*names, (size_t)n, sizeof **names, cmp_name);
    return n;
}

void gr_sim_names_free(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Add the pristine file at path (what: "stub" or "contract header"; layout.h
   names both: data/stubs/ holds the stub, as labs/ holds a student's working
   copy) to the base, taking path. 0, or -1 with err. */
static int add_pristine(gr_sim_base *b, char *path, const char *what, int k, char *err,
                        size_t errlen)
{
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text) {
        gr_set_err(err, errlen, "cannot read %s, the pristine %s whose text every student "
                   "starts with: %s", path, what, strerror(errno));
        free(path);
        return -1;
    }
    gr_sim_base_add(b, text, len, k);
    free(text);
    free(path);
    return 0;
}

/* Find and read student's file for lab as grading does (intake.h). 0 with
   *text, *len and *shown (the path as the report names it); 1 when the
   student has no file for the lab or it was skipped (with a line on warn). */
static int read_student_file(const char *submissions, const char *student, int lab,
                             FILE *warn, char **text, size_t *len, char **shown)
{
    char *folder = gr_xasprintf("%s/%s", submissions, student);
    gr_intake in;
    char why[512];
    int rc = gr_intake_scan(folder, &in, why, sizeof why) == 0 ? 1 : -1;
    const gr_intake_lab *il = &in.labs[lab - 1];
    if (rc < 0) {
        fprintf(warn, "attnlab similarity: skipped %s: %s\n", student, why);
    } else if (il->status == GR_INTAKE_AMBIGUOUS) {
        fprintf(warn, "attnlab similarity: skipped %s/%s: %s/%s is there too, and grading "
                "does not guess which is the lab's\n", student, il->rel, student, il->other);
    } else if (il->status == GR_INTAKE_FOUND) {
        *shown = gr_xasprintf("%s/%s", student, il->rel);
        rc = gr_intake_read(folder, il->rel, GR_SIM_MAX_FILE, text, len, why, sizeof why);
        if (rc > 0)                 /* why: "lab02.c is a symbolic link, not a regular file" */
            fprintf(warn, "attnlab similarity: skipped %s: %s/%s\n", *shown, student, why);
        else if (rc < 0)
            fprintf(warn, "attnlab similarity: skipped %s: %s\n", *shown, strerror(errno));
        if (rc != 0) {
            free(*shown);
            *shown = NULL;
        }
    }
    gr_intake_free(&in);            /* a failed scan leaves it empty, too */
    free(folder);
    return rc == 0 ? 0 : 1;
}

/* The doc of l whose file is text[0..len) byte for byte, or NULL. */
static gr_sim_doc *same_file(gr_sim_lab *l, const char *text, size_t len)
{
    for (int i = 0; i < l->n_docs; i++)
        if (l->docs[i].len == len && memcmp(l->docs[i].text, text, len) == 0)
            return &l->docs[i];
    return NULL;
}

int gr_sim_lab_load(gr_sim_lab *l, const char *root, const char *submissions,
                    char *const *names, int n, int lab, int k, int w, int max_files,
                    FILE *warn, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    const gr_lab_module *mod = gr_lab_modules[lab - 1];
    l->lab = lab;
    l->dir = mod->dir;
    l->k = k;
    l->w = w;
    l->max_files = max_files;

    /* The rubric names the file a student submits, as grading reads it. */
    char *rpath = gr_layout_rubric_from(root, NULL, lab);
    gr_rubric r;
    int rc = gr_rubric_load(rpath, &r, err, errlen);
    free(rpath);
    if (rc != 0)
        return -1;
    l->source = gr_xstrdup(r.source);
    gr_rubric_free(&r);

    gr_sim_base base = {0};
    if (add_pristine(&base, gr_layout_stub(root, lab), "stub", k, err, errlen) != 0 ||
        add_pristine(&base, gr_layout_contract(root, lab), "contract header", k, err, errlen) != 0) {
        gr_sim_base_free(&base);
        gr_sim_lab_free(l);
        return -1;
    }

    l->docs = gr_xcalloc((size_t)n + 1, sizeof *l->docs);
    for (int i = 0; i < n; i++) {
        char *text, *shown;
        size_t len;
        if (read_student_file(submissions, names[i], lab, warn, &text, &len, &shown) != 0)
            continue;
        l->n_files++;
        gr_sim_doc *d = same_file(l, text, len);
        if (d) {                             /* one more student of a group */
            d->same = gr_xrealloc(d->same, (size_t)(d->n_same + 1) * sizeof *d->same);
            d->same[d->n_same++] = gr_xstrdup(names[i]);
            l->n_same++;
            free(text);
            free(shown);
            continue;
        }
        d = &l->docs[l->n_docs];
        gr_sim_doc_init(d, gr_xstrdup(names[i]), shown, text, len, &base, k, w);
        if (d->n_fp == 0) {                  /* nothing beyond the stub: no evidence either way */
            gr_sim_doc_free(d);
            l->n_empty++;
            continue;
        }
        l->n_docs++;
    }
    gr_sim_base_free(&base);
    l->n_common = gr_sim_discount_common(l->docs, l->n_docs, max_files);
    l->n_pairs = gr_sim_rank_pairs(&l->pairs, l->docs, l->n_docs);
    return 0;
}

/* For qsort_r: the larger group first, then the earlier student. */
static int by_group_size(const void *x, const void *y, void *docs)
{
    const gr_sim_doc *d = docs;
    int p = *(const int *)x, q = *(const int *)y;
    return d[p].n_same != d[q].n_same ? d[q].n_same - d[p].n_same : p - q;
}

int gr_sim_groups(const gr_sim_lab *l, int **order)
{
    int n = 0;
    *order = NULL;
    for (int d = 0; d < l->n_docs; d++)
        if (l->docs[d].n_same) {
            *order = gr_xrealloc(*order, (size_t)(n + 1) * sizeof **order);
            (*order)[n++] = d;
        }
    if (n > 1)
        qsort_r(*order, (size_t)n, sizeof **order, by_group_size, l->docs);
    return n;
}

void gr_sim_lab_free(gr_sim_lab *l)
{
    for (int i = 0; i < l->n_docs; i++)
        gr_sim_doc_free(&l->docs[i]);
    free(l->docs);
    free(l->source);
    free(l->pairs);
    memset(l, 0, sizeof *l);
}
