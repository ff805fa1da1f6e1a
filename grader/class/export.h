/* export.h: a batch's grades as the file an LMS imports (attnlab export, and
 * attnlab batch --export).
 *
 * The grades come from DIR/gradebook.csv as attnlab batch wrote it (the final
 * total of each student, late penalties applied, under the points-possible
 * row): nothing is graded again. Each format is one gradebook column:
 *
 *   canvas   Canvas's gradebook import CSV (Instructor Guide, "How do I
 *            import grades in the Gradebook?", community.canvaslms.com
 *            .../Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807): Student, ID, SIS User ID,
 *            SIS Login ID, Section, then the assignment's column, and a
 *            "Points Possible" row second. Canvas matches a row by its ID,
 *            SIS User ID or SIS Login ID; a column named "NAME (N)" updates
 *            the assignment of id N, any other name makes a new assignment.
 *   moodle   Moodle's grade import CSV (MoodleDocs, "Grade import",
 *            docs.moodle.org/311/en/Grade_import): Email
 *            address and ID number, either to map to the user field of that
 *            name ("Map from" / "Map to"), and the grade column.
 *   generic  id, email, name, points, possible, percent.
 *
 * The roster (batch.h) gives the SIS User ID (else the student's id), SIS
 * Login ID and Section, and the name and email where the gradebook has none.
 * Every text cell is written as the gradebook's are (gr_csv_text): a cell a
 * spreadsheet would evaluate is kept as text. A student who handed nothing
 * in gets an empty grade cell (no grade), not a 0.
 */
#ifndef GR_EXPORT_H
#define GR_EXPORT_H

#include <stddef.h>
#include "class/class.h"

typedef enum gr_export_format {
    GR_LMS_CANVAS,
    GR_LMS_MOODLE,
    GR_LMS_GENERIC
} gr_export_format;

/* One student of the gradebook. */
typedef struct gr_export_row {
    char *id, *name, *email;      /* as the gradebook has them (neutralising undone) */
    int graded;                   /* 0: no total (on the roster, nothing handed in) */
    double points;                /* the final total */
} gr_export_row;

/* A gradebook read back. */
typedef struct gr_export_book {
    gr_export_row *rows;
    int n;
    double possible;              /* the total's points possible */
} gr_export_book;

/* "canvas", "moodle" or "generic" into *f: 0, or -1. */
int gr_export_format_parse(const char *name, gr_export_format *f);

/* The file an export writes in DIR by default: "canvas.csv" ... */
const char *gr_export_file_name(gr_export_format f);

/* Read gradebook.csv text (len bytes; path names it in errors) into b (free
   with gr_export_book_free): 0, or -1 with "path:line: what is wrong" in err. */
int gr_export_book_parse(const char *text, size_t len, const char *path, gr_export_book *b,
                      char *err, size_t errlen);

void gr_export_book_free(gr_export_book *b);

/* The export of b in format f as CSV text (malloc'd; CRLF line ends, RFC 4180),
   assignment naming the grade column, roster (NULL: none) giving the SIS
   fields, names and emails by id. */
char *gr_export_csv(const gr_export_book *b, const gr_class *roster, gr_export_format f,
                 const char *assignment);

/* Export DIR's gradebook.csv in format f to out (NULL: DIR/gr_export_file_name,
   "-": stdout), with the roster file (NULL: none). *written (malloc'd, may be
   NULL) gets the path written. 0; -1 with err when DIR holds no readable
   gradebook or the roster is wrong (nothing is written); -2 with err when
   the file cannot be written. */
int gr_export_write(const char *dir, const char *roster, gr_export_format f, const char *assignment,
                  const char *out, char **written, char *err, size_t errlen);

#endif
