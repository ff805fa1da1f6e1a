/* compare.h: deciding whether a child's outputs are right, explaining the first
 * mismatch to a person, and naming the misconception a wrong answer matches. */
#ifndef GR_COMPARE_H
#define GR_COMPARE_H

#include "base/labmod.h"
#include "base/util.h"

typedef struct gr_mismatch {
    int buf;               /* which buffer */
    long index;            /* first wrong element */
    long n_wrong;          /* wrong elements in all outputs */
    long n_total;          /* elements in all outputs */
} gr_mismatch;

/* Compare every OUT/INOUT buffer of got with want (arrays laid out like c's
   buffers). Returns the number of wrong elements; m (may be NULL) gets the first. */
long gr_compare(const gr_case *c, void *const want[PROTO_MAX_BUFS],
                void *const got[PROTO_MAX_BUFS], double abs_tol, double rel_tol,
                gr_mismatch *m);

/* Append element k of buffer b's data: "nan", "inf", "-inf" or %g with digits
   significant digits for a float, the number for an integer. */
void gr_compare_value(gr_strbuf *out, const proto_buf *b, const void *data, long k, int digits);

/* Append "S[1][2][3]", element k of buffer buf named from its shape as the
   contract spells it: "W[r][c]" for a 2-D array, "W[b][h][i][j]" for a
   per-head one, "S[k]" when flat. */
void gr_compare_index_name(gr_strbuf *out, const gr_case *c, int buf, long k);

/* Append a person-readable account of mismatch m: where (named index), expected,
   got, relative error, the output row around it, and the module's input window. */
void gr_compare_explain(const gr_lab_module *mod, const gr_case *c,
                        void *const got[PROTO_MAX_BUFS], const gr_mismatch *m,
                        gr_strbuf *out);

/* The first misconception of mod whose prediction for c matches got within the
   tolerance on every output while differing from the expected output; or NULL. */
const gr_misconception *gr_compare_diagnose(const gr_lab_module *mod, const gr_case *c,
                                            void *const got[PROTO_MAX_BUFS],
                                            double abs_tol, double rel_tol);

#endif
