/* classout.c: the class files of a batch output folder (see classout.h). */
#include "class/classout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "class/classreport.h"
#include "util.h"

int gr_class_write(const gr_class *c, const char *root, const char *out, int bom, FILE *notes,
                   char *err, size_t errlen)
{
    char *csv = gr_gradebook_csv(c, bom), *md = gr_class_report(c, 1);
    char *csv_path = gr_xasprintf("%s/gradebook.csv", out);
    char *md_path = gr_xasprintf("%s/report.md", out);
    int rc = 0;
    if (gr_write_file_atomic(csv_path, csv, strlen(csv)) != 0 ||
        gr_write_file_atomic(md_path, md, strlen(md)) != 0) {
        gr_set_err(err, errlen, "cannot write the gradebook or report in %s: %s", out,
                   strerror(errno));
        rc = -1;
    }
    if (rc == 0 && gr_class_histogram(notes, c, root, out) != 0)
        rc = 1;
    free(csv);
    free(md);
    free(csv_path);
    free(md_path);
    return rc;
}

void gr_class_print(FILE *f, const gr_class *c, const char *out, int png)
{
    char *text = gr_class_report(c, 0);
    fputs(text, f);
    if (png)
        fprintf(f, "\nwrote %s/gradebook.csv, %s/report.md and %s/histogram.png\n", out, out, out);
    else
        fprintf(f, "\nwrote %s/gradebook.csv and %s/report.md (no histogram PNG: see above)\n",
                out, out);
    free(text);
}
