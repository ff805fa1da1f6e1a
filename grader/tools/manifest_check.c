/* manifest_check.c: a lab's manifest against the rest of the course (see
 * manifest.h): the lab numbers, the contract header, the handout's sections,
 * the functions each calls, the points, and the syllabus. */
#include "manifest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sup_yamlread.h"

__attribute__((format(printf, 5, 6)))
static int fail(char *err, size_t errlen, const char *path, mf_pos at, const char *fmt, ...)
{
    int n = snprintf(err, errlen, "%s:%d:%d: ", path, at.line, at.column);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < errlen)
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int by_number(const void *a, const void *b)
{
    return ((const mf_lab *)a)->lab - ((const mf_lab *)b)->lab;
}

int mf_check_numbers(mf_lab *labs, int n, char *err, size_t errlen)
{
    qsort(labs, (size_t)n, sizeof *labs, by_number);
    for (int i = 0; i < n; i++) {
        if (labs[i].lab == i + 1)
            continue;
        if (i > 0 && labs[i].lab == labs[i - 1].lab)
            return fail(err, errlen, labs[i].path, labs[i].lab_at,
                        "lab %d again (%s is lab %d too)", labs[i].lab, labs[i - 1].path,
                        labs[i].lab);
        return fail(err, errlen, labs[i].path, labs[i].lab_at,
                    "lab %d, but there is no lab %d: labs are numbered 1, 2, ... without "
                    "a gap (add data/rubrics/lab%02d.yaml or renumber this one)",
                    labs[i].lab, i + 1, i + 1);
    }
    return 0;
}

/* ---- the contract header ----------------------------------------------------- */

/* s with comments and preprocessor lines blanked (newlines kept, for line numbers). */
static void strip_comments(char *s)
{
    int line_start = 1;
    for (char *p = s; *p; p++) {
        if (p[0] == '/' && p[1] == '*') {
            char *e = strstr(p + 2, "*/");
            char *stop = e ? e + 2 : p + strlen(p);
            for (; p < stop; p++)
                if (*p != '\n')
                    *p = ' ';
            p--;
            continue;
        }
        if ((p[0] == '/' && p[1] == '/') || (line_start && p[0] == '#'))
            for (; *p && *p != '\n'; p++)
                *p = ' ';
        if (!*p)
            break;
        if (*p == '\n')
            line_start = 1;
        else if (!isspace((unsigned char)*p))
            line_start = 0;
    }
}

/* s[0..n) with spaces only where two words meet ("const float*S" for
   "const  float *S"), into out. */
static void squeeze(const char *s, size_t n, char *out, size_t outlen)
{
    size_t o = 0;
    int space = 0;
    for (size_t i = 0; i < n && o + 2 < outlen; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isspace(c)) {
            space = 1;
            continue;
        }
        int word = isalnum(c) || c == '_';
        if (space && o > 0 && word && (isalnum((unsigned char)out[o - 1]) || out[o - 1] == '_'))
            out[o++] = ' ';
        space = 0;
        out[o++] = (char)c;
    }
    while (o > 0 && out[o - 1] == ';')
        o--;
    out[o] = '\0';
}

static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* The declaration of a function called lab_... in the stripped header after
   *from: its squeezed text in out, its line in *line; 0 when there is none. */
static int next_decl(const char *text, const char **from, char *out, size_t outlen, int *line)
{
    for (const char *p = *from; (p = strstr(p, "lab_")) != NULL; p++) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        while (isspace((unsigned char)*q))
            q++;
        if (*q != '(')
            continue;
        const char *start = p;   /* back over the return type to the statement's start */
        while (start > text && start[-1] != ';' && start[-1] != '}' && start[-1] != '{')
            start--;
        const char *end = strchr(q, ';');
        if (!end)
            return 0;
        squeeze(start, (size_t)(end - start), out, outlen);
        *line = line_of(text, p);
        *from = end;
        return 1;
    }
    return 0;
}

static int check_header(const char *root, const mf_lab *lab, char *err, size_t errlen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/labs/%s/lab%02d.h", root, lab->dir, lab->lab);
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text)
        return fail(err, errlen, lab->path, lab->lab_at, "lab %d's contract header %s: %s",
                    lab->lab, path, strerror(errno));
    strip_comments(text);
    int found[MF_MAX_FUNCS] = {0}, rc = 0, line;
    char decl[1024], want[1024];
    for (const char *p = text; rc == 0 && next_decl(text, &p, decl, sizeof decl, &line);) {
        int k = 0;
        for (; k < lab->n_fns; k++) {
            const mf_function *f = &lab->fns[k];
            squeeze(f->signature, strlen(f->signature), want, sizeof want);
            const char *name = strstr(decl, f->name);
            size_t nl = strlen(f->name);
            if (!name || (name[nl] != '(' && name[nl] != ' '))
                continue;
            if (strcmp(decl, want) != 0)
                rc = fail(err, errlen, lab->path, f->sig_at,
                          "the signature of %s is not what %s:%d declares:\n  manifest: %s\n"
                          "  header:   %s", f->name, path, line, want, decl);
            found[k] = 1;
            break;
        }
        if (rc == 0 && k == lab->n_fns)
            rc = fail(err, errlen, lab->path, lab->functions_at,
                      "%s:%d declares a function the manifest does not list: %s", path, line,
                      decl);
    }
    for (int k = 0; rc == 0 && k < lab->n_fns; k++)
        if (!found[k])
            rc = fail(err, errlen, lab->path, lab->fns[k].sig_at,
                      "%s is not declared in the contract header %s", lab->fns[k].name, path);
    free(text);
    return rc;
}

/* ---- the handout, uses, points ------------------------------------------------ */

/* 1 when the handout has a "## N." section. */
static int has_section(const char *text, int n)
{
    char want[16];
    int w = snprintf(want, sizeof want, "## %d.", n);
    for (const char *p = text; p; p = strchr(p, '\n')) {
        if (*p == '\n')
            p++;
        if (strncmp(p, want, (size_t)w) == 0)
            return 1;
    }
    return 0;
}

static int check_handout(const char *root, const mf_lab *lab, char *err, size_t errlen)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/labs/%s/README.md", root, lab->dir);
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text)
        return fail(err, errlen, lab->path, lab->lab_at, "lab %d's handout %s: %s", lab->lab,
                    path, strerror(errno));
    int rc = 0;
    for (int k = 0; rc == 0 && k < lab->n_fns; k++)
        if (!has_section(text, lab->fns[k].handout))
            rc = fail(err, errlen, lab->path, lab->fns[k].handout_at,
                      "handout: %s has no section \"## %d. ...\"", path, lab->fns[k].handout);
    free(text);
    return rc;
}

static int check_uses(const mf_lab *lab, char *err, size_t errlen)
{
    for (int k = 0; k < lab->n_fns; k++) {
        const mf_function *f = &lab->fns[k];
        for (int u = 0; u < f->n_uses; u++) {
            int j = 0;
            while (j < lab->n_fns && strcmp(lab->fns[j].name, f->uses[u]) != 0)
                j++;
            if (j == lab->n_fns || j == k)
                return fail(err, errlen, lab->path, f->uses_at,
                            "uses: %s is %s of lab %d", f->uses[u],
                            j == k ? "the function itself, not another function"
                                   : "no function", lab->lab);
        }
    }
    return 0;
}

static int check_points(const mf_lab *lab, char *err, size_t errlen)
{
    double sum = 0;
    for (int k = 0; k < lab->n_fns; k++)
        sum += lab->fns[k].points;
    if (fabs(sum - lab->test_points) > 1e-9)
        return fail(err, errlen, lab->path, lab->functions_at,
                    "the functions' points add up to %g, the tests' to %g", sum,
                    lab->test_points);
    return 0;
}

int mf_check_tree(const char *root, const mf_lab *lab, char *err, size_t errlen)
{
    if (check_uses(lab, err, errlen) != 0 || check_points(lab, err, errlen) != 0 ||
        check_header(root, lab, err, errlen) != 0 || check_handout(root, lab, err, errlen) != 0)
        return -1;
    return 0;
}

/* ---- the syllabus ---------------------------------------------------------------- */

static const mf_function *fn_named(const mf_lab *lab, const char *name, size_t len)
{
    for (int k = 0; k < lab->n_fns; k++)
        if (strlen(lab->fns[k].name) == len && strncmp(lab->fns[k].name, name, len) == 0)
            return &lab->fns[k];
    return NULL;
}

/* One line of lab's section of the syllabus: its points, or a function's row. */
static int syllabus_line(const char *path, int line, const char *p, const mf_lab *lab,
                         char *err, size_t errlen)
{
    while (*p == ' ')
        p++;
    double pts;
    mf_pos at = {line, 1};
    if (sscanf(p, "- **Points: %lf", &pts) == 1) {
        if (fabs(pts - lab->test_points) > 1e-9)
            return fail(err, errlen, path, at, "lab %d is worth %g points here, %g in %s",
                        lab->lab, pts, lab->test_points, lab->path);
        return 0;
    }
    if (strncmp(p, "| `lab_", 7) != 0)
        return 0;
    const char *name = p + 3, *end = strchr(name, '`');
    if (!end || sscanf(end + 1, " | %lf", &pts) != 1)
        return 0;
    const mf_function *f = fn_named(lab, name, (size_t)(end - name));
    if (!f)
        return fail(err, errlen, path, at, "%.*s is no function of lab %d (%s)",
                    (int)(end - name), name, lab->lab, lab->path);
    if (fabs(pts - f->points) > 1e-9)
        return fail(err, errlen, path, at, "%s is worth %g points here, %g in %s", f->name,
                    pts, f->points, lab->path);
    return 0;
}

int mf_check_syllabus(const char *path, const mf_lab *labs, int n, char *warn, size_t warnlen,
                      char *err, size_t errlen)
{
    size_t len;
    char *text = yr_read_file(path, &len);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    if (warn && warnlen)
        warn[0] = '\0';
    int listed[100] = {0}, rc = 0, line = 0;
    const mf_lab *cur = NULL;
    for (char *p = text, *nl; rc == 0 && p && *p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        line++;
        int num;
        if (strncmp(p, "#", 1) == 0) {
            cur = NULL;
            if (sscanf(p, "### Lab %d:", &num) == 1 && num >= 1 && num <= 99) {
                listed[num] = 1;
                for (int k = 0; k < n; k++)
                    if (labs[k].lab == num)
                        cur = &labs[k];
            }
            continue;
        }
        if (cur)
            rc = syllabus_line(path, line, p, cur, err, errlen);
    }
    free(text);
    for (int k = 0; rc == 0 && k < n && warn; k++)
        if (!listed[labs[k].lab]) {
            size_t w = strlen(warn);
            snprintf(warn + w, warnlen - w, "%s%s: warning: lab %d (%s) has no section "
                     "\"### Lab %d: ...\"", w ? "\n" : "", path, labs[k].lab, labs[k].path,
                     labs[k].lab);
        }
    return rc;
}
