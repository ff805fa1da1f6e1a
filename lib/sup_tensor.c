/* sup_tensor.c: small tensors students may allocate and print, and the
 * one-sentence error every sup_ function reports through sup_error().
 *
 * Printing follows one format everywhere (tensors, plain matrices), close to
 * numpy's so a row can be pasted into Python or a YAML file:
 *
 *     W (2, 3):
 *     [[ 0.7054,  0.2595,  0.0351],
 *      [ 0.0000,    -inf,     nan]]
 *
 * 4 decimals, every number right-aligned to the widest one, -inf / inf / nan
 * spelled out, rows of the last axis on one line, and one blank line between
 * the matrices of a 3-D or 4-D tensor.
 *
 * This file is linked into the sandboxed test child too, so it needs nothing
 * beyond the C library (no libyaml, no libm functions).
 */
#include "labsup.h"
#include "sup_internal.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- errors ---------------------------------------------------------------- */

/* One buffer per thread, so two threads that fail at once do not mix sentences. */
static _Thread_local char sup_errbuf[1024];

void sup_set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sup_errbuf, sizeof sup_errbuf, fmt, ap);
    va_end(ap);
}

const char *sup_error(void)
{
    return sup_errbuf[0] ? sup_errbuf : "no sup_ function has failed yet";
}

/* ---- allocation --------------------------------------------------------------- */

sup_tensor *sup_tensor_alloc(int ndim, const int *shape)
{
    if (ndim < 1 || ndim > SUP_MAX_DIMS) {
        sup_set_error("sup_tensor_alloc: ndim is %d; a tensor has 1 to %d dimensions",
                      ndim, SUP_MAX_DIMS);
        return NULL;
    }
    if (!shape) {
        sup_set_error("sup_tensor_alloc: shape is NULL; pass an array of %d sizes", ndim);
        return NULL;
    }
    /* size = product of the shape; refuse before it can overflow a long or the
       bytes a size_t can count. */
    long size = 1;
    long max_elems = (long)(SIZE_MAX / sizeof(float) < (size_t)LONG_MAX
                            ? SIZE_MAX / sizeof(float) : (size_t)LONG_MAX);
    for (int k = 0; k < ndim; k++) {
        if (shape[k] < 1) {
            sup_set_error("sup_tensor_alloc: shape[%d] is %d; every size must be at least 1",
                          k, shape[k]);
            return NULL;
        }
        if (size > max_elems / shape[k]) {
            sup_set_error("sup_tensor_alloc: the shape asks for more floats than memory can "
                          "address; use smaller sizes");
            return NULL;
        }
        size *= shape[k];
    }

    sup_tensor *t = calloc(1, sizeof *t);
    float *data = calloc((size_t)size, sizeof(float));   /* zeroed: all bits 0 is 0.0f */
    if (!t || !data) {
        free(t);
        free(data);
        sup_set_error("sup_tensor_alloc: out of memory for %ld floats", size);
        return NULL;
    }
    t->ndim = ndim;
    for (int k = 0; k < ndim; k++)
        t->shape[k] = shape[k];
    t->size = size;
    t->data = data;
    return t;
}

void sup_tensor_free(sup_tensor *t)
{
    if (!t)
        return;
    free(t->data);
    free(t);
}

/* ---- printing ------------------------------------------------------------------ */

/* One number as the course prints it: 4 decimals, or inf / -inf / nan spelled
   out (the sign of a nan carries no meaning, so it is dropped). buf holds the
   widest float (FLT_MAX has 39 digits before the point). */
static void fmt_value(char buf[64], float v)
{
    if (isnan(v))
        strcpy(buf, "nan");
    else if (isinf(v))
        strcpy(buf, v > 0 ? "inf" : "-inf");
    else
        snprintf(buf, 64, "%.4f", (double)v);
}

/* Print x with the given shape, nested like numpy. depth is how many '[' are
   already open; width is the column width of every number. */
static void print_nested(FILE *f, const float *x, const int *shape, int ndim,
                         int depth, int width)
{
    char buf[64];
    fputc('[', f);
    if (ndim == 1) {
        for (int i = 0; i < shape[0]; i++) {
            fmt_value(buf, x[i]);
            fprintf(f, "%s%*s", i ? ", " : "", width, buf);
        }
    } else {
        long inner = 1;                      /* floats in one sub-block */
        for (int k = 1; k < ndim; k++)
            inner *= shape[k];
        for (int i = 0; i < shape[0]; i++) {
            if (i > 0) {
                /* Close a sub-block: a comma, then one line break per remaining
                   axis below this one (a blank line between matrices), then
                   indent past the brackets already open. */
                fputc(',', f);
                for (int k = 1; k < ndim; k++)
                    fputc('\n', f);
                fprintf(f, "%*s", depth + 1, "");
            }
            print_nested(f, x + (long)i * inner, shape + 1, ndim - 1, depth + 1, width);
        }
    }
    fputc(']', f);
}

/* The printer behind both public functions. */
static void print_shaped(FILE *f, const char *name, const float *x, int ndim, const int *shape)
{
    long size = 1;
    for (int k = 0; k < ndim; k++)
        size *= shape[k];

    /* Pass 1: the widest number, so every column lines up. */
    int width = 1;
    char buf[64];
    for (long n = 0; n < size; n++) {
        fmt_value(buf, x[n]);
        int w = (int)strlen(buf);
        if (w > width)
            width = w;
    }

    /* Pass 2: the header line, then the nested rows. */
    fprintf(f, "%s (", name ? name : "tensor");
    for (int k = 0; k < ndim; k++)
        fprintf(f, "%s%d", k ? ", " : "", shape[k]);
    fputs("):\n", f);
    print_nested(f, x, shape, ndim, 0, width);
    fputc('\n', f);
}

void sup_tensor_print(FILE *f, const char *name, const sup_tensor *t)
{
    if (!t || !t->data || t->ndim < 1 || t->ndim > SUP_MAX_DIMS) {
        fprintf(f, "%s: (no tensor: NULL or not from sup_tensor_alloc)\n",
                name ? name : "tensor");
        return;
    }
    print_shaped(f, name, t->data, t->ndim, t->shape);
}

void sup_print_matrix(FILE *f, const char *name, const float *x, int rows, int cols)
{
    if (!x || rows < 1 || cols < 1) {
        fprintf(f, "%s: (no matrix: x is NULL or rows = %d, cols = %d)\n",
                name ? name : "matrix", rows, cols);
        return;
    }
    int shape[2] = { rows, cols };
    print_shaped(f, name, x, 2, shape);
}
