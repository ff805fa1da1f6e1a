/* cells.h: how a score and a spreadsheet cell are written, the same in every
 * report (terminal, feedback, Markdown, CSV).
 *
 *   gr_points      a score exactly, as short as it goes: 6.25, 112.5, 10, 5.625
 *   gr_points1     the same with at least one decimal (10.0), for reports
 *   gr_csv_text    one CSV cell of text: always quoted (RFC 4180), and
 *                  neutralised wherever a spreadsheet could read a formula
 *   gr_csv_untext  gr_csv_text's neutralising undone, for a reader
 *   gr_csv_points  one CSV cell holding a score, left a number
 *   gr_md_text     text in Markdown: every character that could be markup
 *                  escaped, so an id stays one table cell of plain text
 *   gr_md_code     text as a Markdown code span
 *
 * Every writer of a format uses these, and no other escaping of its own (HTML
 * and XML: gr_report_junit_xml_text, report.h).
 */
#ifndef GR_CELLS_H
#define GR_CELLS_H

#include "base/util.h"

#define GR_POINTS_LEN 40

/* Points are doubles summed test by test, so a sum can sit a few ulps off the
   decimal it stands for (75.3499999999999 for 75.35). Every place a score is
   shown or written snaps it first: x rounded to millionths, the double
   nearest that decimal: rubric points have at most three decimals and a late
   penalty's percent at most one (rubric.c and course.c refuse more), so every
   raw or late score is a whole number of millionths. Above 1e9, and for NaN or infinity, x itself. */
double gr_points_snap(double x);

/* x snapped (gr_points_snap) with as many decimals as it has, no trailing
   zeros, never "-0". Returns buf. */
const char *gr_points(char buf[GR_POINTS_LEN], double x);

/* The same with at least one decimal, so that a column of points reads as
   points: 1 -> "1.0", 3.5 -> "3.5", 6.25 -> "6.25". Returns buf. */
const char *gr_points1(char buf[GR_POINTS_LEN], double x);

/* The UTF-8 byte order mark --csv-bom writes first: Excel reads a CSV as
   UTF-8 only when the file starts with it (else as the system's code page). */
#define GR_CSV_BOM "\xEF\xBB\xBF"

/* Append s as one text cell (NULL or "": an empty cell, the same to every
   reader). A text cell is anything attnlab did not compute: ids, names,
   emails, test names, paths, an assignment's name; the headers attnlab spells
   and every number are written bare. Always quoted, a double quote inside
   doubled (RFC 4180), so a separator inside stays inside for any reader that
   honours quotes. For one that does not, or splits on another separator (';'
   in most continental European locales, a tab), every place a cell could
   start is neutralised as OWASP's CSV injection advice says: the start of s
   and each point after a ',', ';', tab, CR or LF, spaces and double quotes
   skipped (a reader may trim or unquote them); a piece there that starts
   with =, +, -, @, a tab or a CR gets a leading apostrophe, so a
   spreadsheet keeps it as text. A piece that is a plain
   decimal number ("-3", "4.5") is left alone, so it stays a number; one that
   starts with an apostrophe gets another, so gr_csv_untext gives s back
   exactly. */
void gr_csv_text(gr_strbuf *b, const char *s);

/* s as one field of a tab-separated log (regrades.log), unquoted: the
   neutralising of gr_csv_text, so a spreadsheet that opens the log runs no
   formula. s must hold no tab or line end (the caller makes them spaces). */
void gr_tsv_text(gr_strbuf *b, const char *s);

/* The text of a quoted cell as gr_csv_text had it, in place: the apostrophe
   gr_csv_text put at each place a cell could start is dropped. Returns s. */
char *gr_csv_untext(char *s);

/* Append x as one numeric cell (gr_points). */
void gr_csv_points(gr_strbuf *b, double x);

/* Append s (NULL: nothing) as Markdown text that renders as exactly s, on one
   line and inside one table cell: < > & as entities (so no HTML tag or
   entity comes through), \ ` * _ [ ] ( ) ! | # ~ $ escaped with a backslash
   (no emphasis, link, image, code, heading, table cell or math), control
   bytes, newlines and tabs as a space. */
void gr_md_text(gr_strbuf *b, const char *s);

/* Append s (NULL: nothing) as a Markdown code span: a backquote in it as ',
   control bytes as a space (a renderer shows < and & in a span as text). Not
   for a table cell: a | would still end the cell. */
void gr_md_code(gr_strbuf *b, const char *s);

#endif
