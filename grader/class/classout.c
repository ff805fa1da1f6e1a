/* classout.c: the class files of a batch output folder (see classout.h). */
#include "class/classout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "class/classhtml.h"
#include "class/classreport.h"
#include "class/clusters.h"
#include "class/items.h"
#include "base/util.h"

int gr_classout_write(const gr_class *c, const char *root, const char *out, int bom, FILE *notes,
                   char *err, size_t errlen)
{
    char *csv = gr_classreport_gradebook_csv(c, bom), *md = gr_classreport_text(c, 1);
    char *csv_path = gr_xasprintf("%s/gradebook.csv", out);
    char *md_path = gr_xasprintf("%s/report.md", out);
    int rc = 0;
    if (gr_write_file_atomic(csv_path, csv, strlen(csv)) != 0 ||
        gr_write_file_atomic(md_path, md, strlen(md)) != 0) {
        gr_set_err(err, errlen, "cannot write the gradebook or report in %s: %s", out,
                   strerror(errno));
        rc = -1;
    }
    gr_items it;
    gr_items_analyse(c, &it);
    char *tests = gr_items_csv(c, &it, bom), *tests_path = gr_xasprintf("%s/tests.csv", out);
    gr_items_free(&it);
    if (rc == 0 && gr_write_file_atomic(tests_path, tests, strlen(tests)) != 0) {
        gr_set_err(err, errlen, "cannot write %s: %s", tests_path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && gr_clusters_write(c, out, err, errlen) != 0)
        rc = -1;
    if (rc == 0 && gr_classreport_histogram(notes, c, root, out) != 0)
        rc = 1;
    /* after the histogram, which it embeds */
    gr_html_opts ho = {root, c->submissions, out};
    char *html = rc >= 0 ? gr_classhtml_page(c, &ho) : NULL, *html_path = gr_xasprintf("%s/report.html", out);
    if (html && gr_write_file_atomic(html_path, html, strlen(html)) != 0) {
        gr_set_err(err, errlen, "cannot write %s: %s", html_path, strerror(errno));
        rc = -1;
    }
    free(html);
    free(html_path);
    free(tests);
    free(tests_path);
    free(csv);
    free(md);
    free(csv_path);
    free(md_path);
    return rc;
}

void gr_classout_print(FILE *f, const gr_class *c, const char *out, int png)
{
    char *text = gr_classreport_text(c, 0);
    fputs(text, f);
    fprintf(f, "\nwrote %s/gradebook.csv, tests.csv, report.md, clusters.json, report.html and %s\n", out,
            png ? "histogram.png" : "no histogram PNG (see above)");
    free(text);
}
