/* labgen.c: what the grader and the test child know about the labs, written
 * from the labs' manifests (data/rubrics/labNN.yaml, see manifest.h).
 *
 *   labgen ROOT OUT    read every ROOT/data/rubrics/labNN.yaml, check each
 *                      against the tree (contract header, handout, syllabus),
 *                      and write into OUT:
 *     labNN_calls.h      the lab's call numbers for the wire (enum labNN_call)
 *     labNN_dispatch.c   the child's child_dispatch: a call into the student's function
 *     labs_gen.h         GR_N_LABS (the labs found), GR_MAX_USES, the modules' names
 *     labs_gen.c         the module registry and the function table (labmod.h)
 *
 * A file whose text has not changed is left alone, so nothing rebuilds for
 * nothing. Exit 1 with "file:line:column: what is wrong" on the first error.
 * make runs it before compiling anything of the grader.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"

#define MAX_LABS 99

/* ---- writing only what changed ------------------------------------------------------ */

typedef struct out_file {
    char path[1024];
    char *text;
    size_t len;
    FILE *f;
} out_file;

static FILE *begin(out_file *o, const char *dir, const char *name, const char *from)
{
    snprintf(o->path, sizeof o->path, "%s/%s", dir, name);
    o->text = NULL;
    o->f = open_memstream(&o->text, &o->len);
    if (!o->f) {
        perror("labgen");
        exit(2);
    }
    fprintf(o->f, "/* %s: written by labgen (grader/tools/labgen.c) from %s; do not edit.\n",
            name, from);
    return o->f;
}

static void finish(out_file *o)
{
    fclose(o->f);
    size_t old_len;
    FILE *old = fopen(o->path, "rb");
    int same = 0;
    if (old) {
        char *buf = malloc(o->len + 1);
        old_len = buf ? fread(buf, 1, o->len + 1, old) : 0;
        same = buf && old_len == o->len && memcmp(buf, o->text, o->len) == 0;
        free(buf);
        fclose(old);
    }
    if (!same) {
        char tmp[1100];
        snprintf(tmp, sizeof tmp, "%s.tmp", o->path);
        FILE *f = fopen(tmp, "wb");
        if (!f || fwrite(o->text, 1, o->len, f) != o->len || fclose(f) != 0 ||
            rename(tmp, o->path) != 0) {
            perror(o->path);
            exit(2);
        }
    }
    free(o->text);
}

/* ---- one lab ----------------------------------------------------------------------- */

/* The wire layout of one call of f (variant v, or -1): for each argument, its
   buffer, int or real index on the wire (-1 for a buffer off the wire). */
typedef struct wire {
    int slot[MF_MAX_ARGS];
    char kinds[MF_MAX_ARGS + 1];
    int n_ints, n_reals, n_bufs;
} wire;

static wire layout(const mf_function *f, int v)
{
    wire w = {{0}, "", 0, 0, 0};
    const mf_variant *var = v >= 0 ? &f->variants[v] : NULL;
    for (int k = 0; k < f->n_args; k++) {
        const mf_arg *a = &f->args[k];
        if (a->kind == 'n')
            w.slot[k] = w.n_ints++;
        else if (a->kind == 'r')
            w.slot[k] = w.n_reals++;
        else if (var && (strcmp(var->null, a->name) == 0 || strcmp(var->same, a->name) == 0))
            w.slot[k] = -1;
        else {
            w.kinds[w.n_bufs] = a->kind;
            w.slot[k] = w.n_bufs++;
        }
    }
    w.kinds[w.n_bufs] = '\0';
    return w;
}

static int arg_index(const mf_function *f, const char *name)
{
    for (int k = 0; k < f->n_args; k++)
        if (strcmp(f->args[k].name, name) == 0)
            return k;
    return -1;
}

/* A size of a shape as C: an int argument's wire value, or the number. */
static void dim_expr(const mf_function *f, const wire *w, const char *dim, char *out, size_t len)
{
    int k = arg_index(f, dim);
    if (k >= 0)
        snprintf(out, len, "n[%d]", w->slot[k]);
    else
        snprintf(out, len, "%s", dim);
}

/* The element count of a's shape: child_elems of three sizes at a time. */
static void shape_expr(FILE *o, const mf_function *f, const wire *w, const mf_arg *a)
{
    char d[MF_MAX_DIMS + 2][64];
    int n = 0;
    for (int i = 0; i < a->n_dims; i++)
        dim_expr(f, w, a->dims[i], d[n++], sizeof d[0]);
    while (n % 3 != 0 && n != 1)
        snprintf(d[n++], sizeof d[0], "1");
    if (n == 1) {
        fprintf(o, "child_elems(%s, 1, 1)", d[0]);
        return;
    }
    if (n == 6)
        fprintf(o, "child_elems(child_elems(%s, %s, %s), child_elems(%s, %s, %s), 1)", d[0], d[1],
                d[2], d[3], d[4], d[5]);
    else
        fprintf(o, "child_elems(%s, %s, %s)", d[0], d[1], d[2]);
}

static void emit_case(FILE *o, const mf_lab *lab, const mf_function *f, int v)
{
    char name[128];
    mf_call_name(lab, f, v, name, sizeof name);
    wire w = layout(f, v);
    fprintf(o, "    case %s:\n", name);
    if (v >= 0) {
        const mf_variant *var = &f->variants[v];
        if (var->null[0])
            fprintf(o, "        /* %s passed as NULL, as the contract allows */\n", var->null);
        else
            fprintf(o, "        /* %s == %s: one array for both, as the contract allows */\n",
                    var->same, var->same_as);
    }
    fprintf(o, "        if (!child_call_shape(call, %d, %d, \"%s\")", w.n_ints, w.n_reals, w.kinds);
    for (int k = 0; k < f->n_args; k++) {
        const mf_arg *a = &f->args[k];
        if (a->kind == 'n' || a->kind == 'r' || w.slot[k] < 0 || a->n_dims == 0)
            continue;
        fprintf(o, " ||\n            !child_holds(&buf[%d], ", w.slot[k]);
        shape_expr(o, f, &w, a);
        fprintf(o, ")");
    }
    fprintf(o, ")\n            break;\n        return %s(", f->name);
    for (int k = 0; k < f->n_args; k++) {
        const mf_arg *a = &f->args[k];
        fprintf(o, "%s", k ? ", " : "");
        if (a->kind == 'n')
            fprintf(o, "(%s)n[%d]", a->type, w.slot[k]);
        else if (a->kind == 'r')
            fprintf(o, "(%s)call->reals[%d]", a->type, w.slot[k]);
        else if (w.slot[k] >= 0)
            fprintf(o, "buf[%d].data", w.slot[k]);
        else if (strcmp(f->variants[v].null, a->name) == 0)
            fprintf(o, "NULL");
        else
            fprintf(o, "buf[%d].data", w.slot[arg_index(f, f->variants[v].same_as)]);
    }
    fprintf(o, ");\n");
}

static void emit_dispatch(const char *out, const mf_lab *lab, const char *rubric)
{
    out_file of;
    char name[64];
    snprintf(name, sizeof name, "lab%02d_dispatch.c", lab->lab);
    FILE *o = begin(&of, out, name, rubric);
    fprintf(o, " * The child's side of lab %d (%s): unpacks a call (numbered in lab%02d_calls.h)\n"
            " * into the student's function, after checking its arguments' count and kinds\n"
            " * and that each array holds what its shape needs. No answers live here. */\n"
            "#include \"dispatch.h\"\n#include \"lab%02d_calls.h\"\n#include \"labs/%s/lab%02d.h\"\n\n"
            "int child_dispatch(const proto_call *call, int *no_such_call)\n{\n"
            "    const proto_buf *buf = call->bufs;\n    const int64_t *n = call->ints;\n"
            "    (void)buf;\n    (void)n;\n    switch (call->fn) {\n",
            lab->lab, lab->title, lab->lab, lab->lab, lab->dir, lab->lab);
    for (int k = 0; k < lab->n_fns; k++) {
        emit_case(o, lab, &lab->fns[k], -1);
        for (int v = 0; v < lab->fns[k].n_variants; v++)
            emit_case(o, lab, &lab->fns[k], v);
    }
    fprintf(o, "    default:\n        break;\n    }\n    *no_such_call = 1;\n    return 0;\n}\n");
    finish(&of);
}

/* One row of the calls table: buffers, ints and reals of the call. */
static void emit_call_row(FILE *o, const mf_lab *lab, const mf_function *f, int v, int number)
{
    char name[128];
    mf_call_name(lab, f, v, name, sizeof name);
    wire w = layout(f, v);
    fprintf(o, " *   %d %s = %s(", number, name, f->name);
    for (int k = 0; k < f->n_args; k++)
        fprintf(o, "%s%s", k ? ", " : "", w.slot[k] >= 0 || f->args[k].kind == 'n' ||
                f->args[k].kind == 'r' ? f->args[k].name
                : strcmp(f->variants[v].null, f->args[k].name) == 0 ? "NULL"
                : f->variants[v].same_as);
    fprintf(o, ")\n *       buffers \"%s\":", w.kinds);
    for (int k = 0; k < f->n_args; k++) {
        const mf_arg *a = &f->args[k];
        if (a->kind == 'n' || a->kind == 'r' || w.slot[k] < 0)
            continue;
        fprintf(o, " %s", a->name);
        for (int i = 0; i < a->n_dims; i++)
            fprintf(o, "%s%s", i ? "," : "[", a->dims[i]);
        fprintf(o, "%s", a->n_dims ? "]" : "");
    }
    fprintf(o, "%s; ints:", w.n_bufs ? "" : " -");
    for (int k = 0; k < f->n_args; k++)
        if (f->args[k].kind == 'n')
            fprintf(o, " %s", f->args[k].name);
    fprintf(o, "%s; reals:", w.n_ints ? "" : " -");
    for (int k = 0; k < f->n_args; k++)
        if (f->args[k].kind == 'r')
            fprintf(o, " %s (%s)", f->args[k].name, f->args[k].type);
    fprintf(o, "%s\n", w.n_reals ? "" : " -");
}

static void emit_calls(const char *out, const mf_lab *lab, const char *rubric)
{
    out_file of;
    char name[64], id[128];
    snprintf(name, sizeof name, "lab%02d_calls.h", lab->lab);
    FILE *o = begin(&of, out, name, rubric);
    fprintf(o, " * The calls the grader can make into lab %d (%s), numbered for the wire\n"
            " * (proto_call.fn): the grader's module (grader/labs/lab%02d.c) builds each, the\n"
            " * child's dispatch (lab%02d_dispatch.c) unpacks it. Buffers, ints and reals go in\n"
            " * the order of the function's arguments.\n *\n",
            lab->lab, lab->title, lab->lab, lab->lab);
    int number = 0;
    for (int k = 0; k < lab->n_fns; k++)
        for (int v = -1; v < lab->fns[k].n_variants; v++)
            emit_call_row(o, lab, &lab->fns[k], v, number++);
    fprintf(o, " */\n#ifndef LAB%02d_CALLS_H\n#define LAB%02d_CALLS_H\n\nenum lab%02d_call {\n",
            lab->lab, lab->lab, lab->lab);
    number = 0;
    for (int k = 0; k < lab->n_fns; k++)
        for (int v = -1; v < lab->fns[k].n_variants; v++) {
            mf_call_name(lab, &lab->fns[k], v, id, sizeof id);
            fprintf(o, "    %s = %d,\n", id, number++);
        }
    fprintf(o, "    LAB%02d_N_CALLS\n};\n\n#endif\n", lab->lab);
    finish(&of);
}

/* ---- every lab ------------------------------------------------------------------------ */

static void emit_registry(const char *out, const mf_lab *labs, int n)
{
    out_file of;
    int max_uses = 2;
    for (int l = 0; l < n; l++)
        for (int k = 0; k < labs[l].n_fns; k++)
            if (labs[l].fns[k].n_uses > max_uses)
                max_uses = labs[l].fns[k].n_uses;
    FILE *o = begin(&of, out, "labs_gen.h", "data/rubrics/lab*.yaml");
    fprintf(o, " * Included by labmod.h: how many labs the course has (lab numbers run\n"
            " * 1..GR_N_LABS, one per rubric) and each lab's module (grader/labs/labNN.c). */\n"
            "#ifndef GR_LABS_GEN_H\n#define GR_LABS_GEN_H\n\n#define GR_N_LABS %d\n"
            "/* The most functions of its lab a function calls. */\n#define GR_MAX_USES %d\n"
            "/* The most student functions a lab may have. */\n#define GR_MAX_LAB_FUNCTIONS %d\n\n",
            n, max_uses, MF_MAX_FUNCS);
    for (int l = 0; l < n; l++)
        fprintf(o, "extern const gr_lab_module gr_lab%02d_module;\n", labs[l].lab);
    fprintf(o, "\n#endif\n");
    finish(&of);

    o = begin(&of, out, "labs_gen.c", "data/rubrics/lab*.yaml");
    fprintf(o, " * The module registry and the function table of labmod.h. */\n"
            "#include \"base/labmod.h\"\n\nconst gr_lab_module *const gr_lab_modules[GR_N_LABS] = {\n");
    for (int l = 0; l < n; l++)
        fprintf(o, "    &gr_lab%02d_module,\n", labs[l].lab);
    fprintf(o, "};\n\nconst gr_lab_info gr_labs[GR_N_LABS] = {\n");
    for (int l = 0; l < n; l++)
        fprintf(o, "    {%d, \"%s\", \"%s\", \"%s\", \"%s\"},\n", labs[l].lab, labs[l].name,
                labs[l].dir, labs[l].title, labs[l].source);
    fprintf(o, "};\n\nconst gr_lab_function gr_lab_functions[] = {\n");
    int total = 0;
    for (int l = 0; l < n; l++) {
        int call = 0;
        for (int k = 0; k < labs[l].n_fns; k++, total++) {
            const mf_function *f = &labs[l].fns[k];
            fprintf(o, "    {.lab = %d, .name = \"%s\",\n     .handout = \"labs/%s/README.md, "
                    "section %d\",\n     .uses = {", labs[l].lab, f->name, labs[l].dir,
                    f->handout);
            for (int u = 0; u < f->n_uses; u++)
                fprintf(o, "%s\"%s\"", u ? ", " : "", f->uses[u]);
            fprintf(o, "},\n     .points = %.17g, .first_call = %d, .n_calls = %d},\n",
                    f->points, call, 1 + f->n_variants);
            call += 1 + f->n_variants;
        }
    }
    fprintf(o, "};\n\nconst int gr_n_lab_functions = %d;\n", total);
    finish(&of);
}

static int load_all(const char *root, mf_lab *labs, int *n)
{
    char pattern[1024], err[2048];
    snprintf(pattern, sizeof pattern, "%s/data/rubrics/lab*.yaml", root);
    glob_t g;
    *n = 0;
    if (glob(pattern, 0, NULL, &g) != 0) {
        fprintf(stderr, "labgen: no rubric matches %s: a course has at least lab 1\n", pattern);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < g.gl_pathc; i++) {
        if (*n == MAX_LABS) {
            fprintf(stderr, "labgen: more than %d rubrics in %s\n", MAX_LABS, pattern);
            rc = -1;
        } else if (mf_load(g.gl_pathv[i], &labs[(*n)++], err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            rc = -1;
        }
    }
    globfree(&g);
    if (rc == 0 && mf_check_numbers(labs, *n, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        rc = -1;
    }
    return rc;
}

/* Each lab has its grader module, and its manifest agrees with the tree. */
static int check_all(const char *root, const mf_lab *labs, int n)
{
    char err[4096], warn[4096], path[1024];
    struct stat st;
    for (int l = 0; l < n; l++) {
        snprintf(path, sizeof path, "%s/grader/labs/lab%02d.c", root, labs[l].lab);
        if (stat(path, &st) != 0) {
            fprintf(stderr, "%s:%d:%d: lab %d has no grader module %s (it defines "
                    "gr_lab%02d_module)\n", labs[l].path, labs[l].lab_at.line,
                    labs[l].lab_at.column, labs[l].lab, path, labs[l].lab);
            return -1;
        }
        if (mf_check_tree(root, &labs[l], err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return -1;
        }
    }
    /* a tree without the syllabus (the Gradescope bundle) builds without its check */
    snprintf(path, sizeof path, "%s/syllabus.md", root);
    if (stat(path, &st) != 0)
        return 0;
    if (mf_check_syllabus(path, labs, n, warn, sizeof warn, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    if (warn[0])
        fprintf(stderr, "%s\n", warn);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: labgen ROOT OUT\n");
        return 2;
    }
    static mf_lab labs[MAX_LABS];
    int n, rc = load_all(argv[1], labs, &n);
    if (rc == 0)
        rc = check_all(argv[1], labs, n);
    if (rc == 0) {
        mkdir(argv[2], 0755);
        for (int l = 0; l < n; l++) {
            char rubric[64];
            snprintf(rubric, sizeof rubric, "data/rubrics/lab%02d.yaml", labs[l].lab);
            emit_calls(argv[2], &labs[l], rubric);
            emit_dispatch(argv[2], &labs[l], rubric);
        }
        emit_registry(argv[2], labs, n);
    }
    for (int l = 0; l < n; l++)
        mf_free(&labs[l]);
    return rc == 0 ? 0 : 1;
}
