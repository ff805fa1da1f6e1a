/* clusters_html.c: report.html's section "Mistakes not in the catalogue"
 * (clusters.h), every text HTML-escaped. */
#include "class/clusters.h"
#include "base/layout.h"
#include "class/classhtml_parts.h"

void gr_clusters_html(gr_strbuf *b, const gr_class *c)
{
    gr_clusters cl;
    gr_clusters_find(c, &cl);
    gr_sb_append(b, "<section id=\"clusters\"><h2>Mistakes not in the catalogue</h2>\n"
                    "<p>Wrong answers on fixed-input tests that matched no known misconception, "
                    "grouped by identical output (rounded to 4 significant digits): each cluster "
                    "is one mistake two or more students made, largest first, to reteach and to "
                    "add to the lab's catalogue. Clusters never change a grade; "
                    "<code>clusters.json</code> has them as data.</p>\n");
    if (cl.n == 0) {
        gr_sb_append(b, "<p>No two students made the same uncatalogued mistake.</p>\n</section>\n");
        gr_clusters_free(&cl);
        return;
    }
    gr_sb_append(b, "<table class=\"clusters\"><thead><tr><th class=\"n\">#</th><th>lab</th>"
                    "<th class=\"n\">students</th><th>expected vs got, per test</th><th>who</th>"
                    "</tr></thead>\n<tbody>\n");
    for (int i = 0; i < cl.n; i++) {
        const gr_cluster *k = &cl.c[i];
        gr_sb_printf(b, "<tr><td class=\"n\">%d</td><td>", i + 1);
        gr_classhtml_esc(b, gr_layout_dir(k->lab));
        gr_sb_printf(b, "</td><td class=\"n\">%d</td><td>", k->n_students);
        for (int j = 0; j < k->n_tests; j++) {
            const gr_cluster_test *t = &k->tests[j];
            gr_sb_append(b, j ? "<br><b>" : "<b>");
            gr_classhtml_esc(b, t->test);
            gr_sb_append(b, "</b>: <code>");
            gr_classhtml_esc(b, t->excerpt && *t->excerpt ? t->excerpt : "(no excerpt)");
            gr_sb_append(b, "</code>");
            if (t->relation) {
                gr_sb_append(b, "<br><span class=\"flag\">");
                gr_classhtml_esc(b, t->relation);
                gr_sb_append(b, "</span>");
            }
        }
        gr_sb_append(b, "</td><td>");
        for (int s = 0; s < k->n_students; s++) {
            gr_sb_append(b, s ? ", " : "");
            gr_classhtml_student_link(b, c, k->students[s]);
        }
        gr_sb_append(b, "</td></tr>\n");
    }
    gr_sb_append(b, "</tbody></table>\n</section>\n");
    gr_clusters_free(&cl);
}
