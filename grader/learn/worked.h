/* worked.h: one row of scores turned into weights by libattn, every step kept,
 * and the printers that show it: the table, the step-by-step legend and the
 * lessons of `attnlab explain`, which `attnlab drill` prints as the worked
 * solution after each answer.
 *
 *   gr_worked_row r;
 *   gr_worked_compute(&r, scores, mask, n, dk, temperature);   // mask may be NULL
 *   gr_worked_table(out, &r);
 *   gr_worked_lessons(out, &r);
 *   gr_worked_free(&r);
 *
 * The steps, in order: score, scaled (/ sqrt(d_k)), tempered (/ T), after mask
 * (-inf), exp(s - m), weight = exp(s - m) / sum. Every number comes from
 * libattn (attn_temperature, attn_bool_mask, attn_softmax); only exp(s - m),
 * which attn_softmax keeps to itself, is recomputed in double to show the step.
 */
#ifndef GR_WORKED_H
#define GR_WORKED_H

#include <stdio.h>

/* One row, every step kept so the table can show it. Arrays have n entries. */
typedef struct gr_worked_row {
    int n;
    long dk;                 /* scaled by 1/sqrt(dk), or 0 for no scaling */
    float temperature;       /* divided by T > 0, or 0 for none */
    int has_mask;            /* a mask was given (the table shows its columns) */
    float *raw;              /* scores as given */
    float *scaled;           /* after the scaling only */
    float *edited;           /* after the scaling and the temperature */
    unsigned char *mask;     /* 1 = blocked; all 0 without a mask */
    float *masked;           /* after the mask: what softmax sees */
    double m;                /* the shift: largest masked score (nan if any is nan) */
    double *ex;              /* exp(masked - m), in double */
    double ex_sum;
    float *w;                /* weights from attn_softmax */
    double w_sum;
    long fully_masked;       /* what attn_softmax returned: 1 if every key is -inf */
    float *w_nomask;         /* weights without the mask, for comparison */
    float *w_raw;            /* weights of the raw scores with the mask (no scale/T) */
} gr_worked_row;

/* Run raw[0..n) through libattn step by step into r: scale by 1/sqrt(dk) when
   dk > 0, divide by temperature when it is > 0, block the keys where mask is 1
   (mask may be NULL), softmax. raw and mask are copied; n >= 1. */
void gr_worked_compute(gr_worked_row *r, const float *raw, const unsigned char *mask, int n,
                       long dk, float temperature);

/* Free what gr_worked_compute allocated. */
void gr_worked_free(gr_worked_row *r);

/* The table (one line per key, one column per step, a sum line) and the
   step-by-step legend with this row's numbers. */
void gr_worked_table(FILE *out, const gr_worked_row *r);

/* "What this row shows:": at most three lessons, most important first. */
void gr_worked_lessons(FILE *out, const gr_worked_row *r);

/* A header line, then one CSV line per key (explain's --format csv). */
void gr_worked_csv(FILE *out, const gr_worked_row *r);

/* A number as the table prints it: 4 decimals (scientific when huge), or inf,
   -inf, nan. Returns buf or a literal. */
const char *gr_worked_num(char buf[48], double v);

/* Print text wrapped at 78 columns: the first line after lead, the rest
   indented under it, breaking only at spaces: every other character is printed
   as it is (a drill's "H ~ ln T" keeps its '~'). */
void gr_worked_print_wrapped(FILE *out, const char *lead, const char *text);

#endif /* GR_WORKED_H */
