/* cells.h: how a score and a spreadsheet cell are written, the same in every
 * report (terminal, feedback, Markdown, CSV).
 *
 *   gr_points      a score exactly, as short as it goes: 6.25, 112.5, 10, 5.625
 *   gr_points1     the same with at least one decimal (10.0), for reports
 *   gr_csv_text    one CSV cell of text: quoted per RFC 4180, and neutralised
 *                  when a spreadsheet would read it as a formula
 *   gr_csv_points  one CSV cell holding a score, left a number
 */
#ifndef GR_CELLS_H
#define GR_CELLS_H

#include "util.h"

#define GR_POINTS_LEN 40

/* x with as many decimals as it has (up to 15 significant digits, so sums of
   quarter points never show float noise), no trailing zeros, never "-0".
   Returns buf. */
const char *gr_points(char buf[GR_POINTS_LEN], double x);

/* The same with at least one decimal, so that a column of points reads as
   points: 1 -> "1.0", 3.5 -> "3.5", 6.25 -> "6.25". Returns buf. */
const char *gr_points1(char buf[GR_POINTS_LEN], double x);

/* The UTF-8 byte order mark --csv-bom writes first: Excel reads a CSV as
   UTF-8 only when the file starts with it (else as the system's code page). */
#define GR_CSV_BOM "\xEF\xBB\xBF"

/* Append s (NULL: empty) as one cell. A cell that starts with =, +, -, @, a
   tab or a carriage return is one a spreadsheet evaluates (OWASP's CSV
   injection guidance), so it gets a leading apostrophe and is kept as text;
   a plain decimal number ("-3", "4.5") is left alone so that it stays a
   number. Quoted when it holds a comma, a double quote, CR or LF (or was
   neutralised), a double quote inside doubled (RFC 4180). */
void gr_csv_text(gr_strbuf *b, const char *s);

/* Append x as one numeric cell (gr_points). */
void gr_csv_points(gr_strbuf *b, double x);

#endif
