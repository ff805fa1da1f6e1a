/* similarity_report.c: the terminal, Markdown and CSV similarity reports (see
 * similarity.h). Every name and line of student text is printed through a
 * filter: control characters become '?', so a folder name or a source line
 * cannot move the terminal's cursor or break a table; then escaped for its
 * medium (cells.h: Markdown and CSV; HTML as report.h). */
#include "class/similarity.h"

#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "report/report.h"
#include "base/util.h"

const char gr_sim_not_a_verdict[] =
    "A report, not a verdict: a shared fingerprint means two files have the same "
    "sequence of tokens (names and constants ignored, the stub's own text excluded). "
    "Short idioms, the handout's hints, a common textbook loop and permitted "
    "collaboration all make matches too; read the regions before you conclude anything.";

/* Columns of student text in the terminal's side-by-side view. */
#define TERM_CODE 40
/* Lines of a region the terminal shows before it says how many more there are. */
#define TERM_LINES 12
/* Students of an identical group the terminal names before it says how many more. */
#define TERM_IDS 10

/* ---- text filters ---------------------------------------------------------------------- */

/* s[0..n) with tabs expanded (to 4) and control bytes as '?', cut to at most
   width columns (width 0: no limit) with ".." marking a cut; into b. */
static void put_text(gr_strbuf *b, const char *s, size_t n, int width)
{
    int col = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int spaces = c == '\t' ? 4 - col % 4 : 0;
        if (width > 0 && col + (spaces ? spaces : 1) > width - 2 && i + 1 < n) {
            gr_sb_append(b, "..");
            return;
        }
        if (spaces) {
            for (int k = 0; k < spaces; k++)
                gr_sb_append(b, " ");
            col += spaces;
        } else {
            char one = c < 32 || c == 127 ? '?' : (char)c;
            gr_sb_appendn(b, &one, 1);
            col++;
        }
    }
}

/* A student's name or a path, control bytes as '?': a new string. */
static char *clean(const char *s)
{
    gr_strbuf b = {0};
    put_text(&b, s, strlen(s), 0);
    return gr_sb_take(&b);
}

/* s onto out escaped for its medium by esc: gr_md_text (Markdown) or
   gr_report_junit_xml_text (the HTML of a region's table). */
static void put_escaped(FILE *out, void (*esc)(gr_strbuf *, const char *), const char *s)
{
    gr_strbuf b = {0};
    esc(&b, s);
    if (b.s)
        fputs(b.s, out);
    free(b.s);
}

/* ---- what every report shows of a pair ------------------------------------------------- */

/* A pair with its regions and the lines they cover. */
typedef struct pair_view {
    const gr_sim_doc *a, *b;
    const gr_sim_pair *p;
    gr_sim_region *r;
    int n_r;
    int lines_a, lines_b;
} pair_view;

static void view_pair(pair_view *v, const gr_sim_lab *l, const gr_sim_pair *p)
{
    v->p = p;
    v->a = &l->docs[p->a];
    v->b = &l->docs[p->b];
    v->n_r = gr_sim_regions(&v->r, v->a, v->b, l->k);
    v->lines_a = gr_sim_region_lines(v->r, v->n_r, v->a, 0);
    v->lines_b = gr_sim_region_lines(v->r, v->n_r, v->b, 1);
}

/* The first and last line of region r in a (side 0) or b (side 1). */
static void region_lines(const pair_view *v, const gr_sim_region *r, int side, int *first,
                         int *last)
{
    const gr_sim_doc *d = side ? v->b : v->a;
    long t0 = side ? r->b0 : r->a0, t1 = side ? r->b1 : r->a1;
    *first = d->tok.line[t0];
    *last = d->tok.line[t1 - 1];
}

/* How many pairs of l a report lists. */
static long listed(const gr_sim_lab *l, const gr_sim_report_opts *o)
{
    return o->top > 0 && o->top < l->n_pairs ? o->top : l->n_pairs;
}

/* The pairs a report leaves out: "and 12 more pairs (--top 0 lists them all)"
   as a new string, NULL when it lists them all. */
static char *more_pairs(const gr_sim_lab *l, const gr_sim_report_opts *o)
{
    long more = l->n_pairs - listed(l, o);
    return more > 0 ? gr_xasprintf("... and %ld more pair%s (--top 0 lists them all)", more,
                                   more == 1 ? "" : "s") : NULL;
}

/* A doc's student as a table names it: "s000", or "s000 +13" when 13 others
   handed in the same file (the group's line names them). A new string. */
static char *doc_name(const gr_sim_doc *d)
{
    char *c = clean(d->student);
    if (!d->n_same)
        return c;
    char *s = gr_xasprintf("%s +%d", c, d->n_same);
    free(c);
    return s;
}

/* "14 students handed in the same lab02.c, byte for byte: " then, with
   escape (NULL: as is), the ids: every one when max is 0, else the first
   max and how many more. A new string. */
static char *group_line(const gr_sim_lab *l, const gr_sim_doc *d, void (*esc)(gr_strbuf *, const char *),
                        int max)
{
    gr_strbuf b = {0};
    gr_sb_printf(&b, "%d students handed in the same %s, byte for byte: ", gr_sim_doc_students(d),
                 l->source);
    for (int i = 0; i <= d->n_same; i++) {
        if (max > 0 && i == max) {
            gr_sb_printf(&b, " and %d more (--out FILE lists them all)", d->n_same + 1 - max);
            break;
        }
        char *c = clean(i == 0 ? d->student : d->same[i - 1]);
        if (i)
            gr_sb_append(&b, ", ");
        esc ? esc(&b, c) : gr_sb_append(&b, c);
        free(c);
    }
    return gr_sb_take(&b);
}

/* "300 files (2 with nothing beyond the stub's own text); 4321 pairs share
   fingerprints", as a new string. */
static char *lab_summary(const gr_sim_lab *l)
{
    gr_strbuf b = {0};
    gr_sb_printf(&b, "%d file%s", l->n_files, l->n_files == 1 ? "" : "s");
    if (l->n_empty)
        gr_sb_printf(&b, " (%d with nothing beyond the stub's own text)", l->n_empty);
    if (l->n_same)
        gr_sb_printf(&b, "%s%d the same as an earlier student's, byte for byte", l->n_empty ? "; " : ", ",
                     l->n_same);
    gr_sb_printf(&b, "; %ld pair%s of different files share%s fingerprints", l->n_pairs,
                 l->n_pairs == 1 ? "" : "s", l->n_pairs == 1 ? "s" : "");
    if (l->n_common)
        gr_sb_printf(&b, " (%ld fingerprint%s found in more than %d files ignored, as common "
                     "text)", l->n_common, l->n_common == 1 ? "" : "s", l->max_files);
    return gr_sb_take(&b);
}

/* The settings sentence: what k and w guarantee. A new string. */
static char *settings(const gr_sim_lab *labs, int n)
{
    int k = n > 0 ? labs[0].k : GR_SIM_K, w = n > 0 ? labs[0].w : GR_SIM_W;
    return gr_xasprintf("Fingerprints: %d-token k-grams winnowed in windows of %d: every "
                        "shared run of %d tokens or more is found, none shorter than %d.",
                        k, w, w + k - 1, k);
}

/* ---- terminal ------------------------------------------------------------------------------ */

/* Print text wrapped at 78 columns, each line behind indent. */
static void print_wrapped(FILE *out, const char *indent, const char *text)
{
    const char *p = text;
    while (*p) {
        size_t room = 78 - strlen(indent), n = strlen(p);
        if (n > room) {
            n = room;
            while (n > 0 && p[n] != ' ')
                n--;
            if (n == 0)
                n = room;
        }
        fprintf(out, "%s%.*s\n", indent, (int)n, p);
        p += n;
        while (*p == ' ')
            p++;
    }
}

/* One side's line for the side-by-side view: "  12  text", padded to its column. */
static void side_line(gr_strbuf *b, const gr_sim_doc *d, int line, int last, int pad)
{
    size_t start = b->len;
    if (line <= last) {
        size_t n;
        const char *s = gr_sim_doc_line(d, line, &n);
        gr_sb_printf(b, "%5d  ", line);
        put_text(b, s, n, TERM_CODE);
    }
    while (pad && b->len - start < (size_t)(TERM_CODE + 7))
        gr_sb_append(b, " ");
}

static void print_region_term(FILE *out, const pair_view *v, const gr_sim_region *r, int i)
{
    int fa, la, fb, lb;
    region_lines(v, r, 0, &fa, &la);
    region_lines(v, r, 1, &fb, &lb);
    char *pa = clean(v->a->path), *pb = clean(v->b->path);
    fprintf(out, "    region %d, %ld tokens: %s lines %d-%d ~ %s lines %d-%d\n", i + 1,
            r->a1 - r->a0, pa, fa, la, pb, fb, lb);
    free(pa);
    free(pb);
    int rows = la - fa > lb - fb ? la - fa + 1 : lb - fb + 1;
    int shown = rows > TERM_LINES ? TERM_LINES : rows;
    for (int k = 0; k < shown; k++) {
        gr_strbuf b = {0};
        gr_sb_append(&b, "    ");
        side_line(&b, v->a, fa + k, la, 1);
        gr_sb_append(&b, " | ");
        side_line(&b, v->b, fb + k, lb, 0);
        while (b.len > 0 && b.s[b.len - 1] == ' ')
            b.s[--b.len] = '\0';
        fprintf(out, "%s\n", b.s);
        free(b.s);
    }
    if (rows > shown)
        fprintf(out, "    ... %d more line%s (--out FILE writes them all)\n", rows - shown,
                rows - shown == 1 ? "" : "s");
}

void gr_sim_print_table(FILE *out, const gr_sim_lab *labs, int n, const gr_sim_report_opts *o)
{
    char *sub = clean(o->submissions);
    fprintf(out, "Similarity of the lab files in %s\n", sub);
    free(sub);
    print_wrapped(out, "", gr_sim_not_a_verdict);
    char *set = settings(labs, n);
    print_wrapped(out, "", set);
    free(set);
    for (int li = 0; li < n; li++) {
        const gr_sim_lab *l = &labs[li];
        long top = listed(l, o);
        char *sum = lab_summary(l);
        char *line = gr_xasprintf("Lab %d (%s): %s%s", l->lab, l->dir, sum,
                                  top == 0 ? "." : top < l->n_pairs ? "; the top ones:" : ":");
        fputc('\n', out);
        print_wrapped(out, "", line);
        free(line);
        free(sum);
        int *order, n_groups = gr_sim_groups(l, &order);
        for (int g = 0; g < n_groups; g++) {
            char *g_line = group_line(l, &l->docs[order[g]], NULL, TERM_IDS);
            print_wrapped(out, "  ", g_line);
            free(g_line);
        }
        free(order);
        if (top == 0)
            continue;
        fprintf(out, "  %4s  %7s  %6s  %7s  %7s  %s\n", "rank", "Jaccard", "shared", "lines A",
                "lines B", "student A ~ student B");
        pair_view *views = gr_xcalloc((size_t)top, sizeof *views);
        for (long i = 0; i < top; i++) {
            pair_view *v = &views[i];
            view_pair(v, l, &l->pairs[i]);
            char *sa = doc_name(v->a), *sb = doc_name(v->b);
            fprintf(out, "  %4ld  %7.3f  %6ld  %7d  %7d  %s ~ %s\n", i + 1, v->p->jaccard,
                    v->p->shared, v->lines_a, v->lines_b, sa, sb);
            free(sa);
            free(sb);
        }
        char *more = more_pairs(l, o);
        if (more)
            fprintf(out, "  %s\n", more);
        free(more);
        for (long i = 0; i < top && i < o->detail; i++) {
            pair_view *v = &views[i];
            char *sa = doc_name(v->a), *sb = doc_name(v->b);
            fprintf(out, "\n  #%ld %s ~ %s: Jaccard %.3f, %ld shared fingerprints, %d "
                    "region%s\n", i + 1, sa, sb, v->p->jaccard, v->p->shared, v->n_r,
                    v->n_r == 1 ? "" : "s");
            free(sa);
            free(sb);
            for (int r = 0; r < v->n_r; r++)
                print_region_term(out, v, &v->r[r], r);
        }
        for (long i = 0; i < top; i++)
            free(views[i].r);
        free(views);
    }
}

/* ---- Markdown -------------------------------------------------------------------------------- */

/* Lines first..last of d in a <pre>, numbered, HTML-escaped. */
static void md_pre(FILE *out, const gr_sim_doc *d, int first, int last)
{
    fputs("<pre>\n", out);
    for (int line = first; line <= last; line++) {
        size_t n;
        const char *s = gr_sim_doc_line(d, line, &n);
        gr_strbuf b = {0};
        put_text(&b, s, n, 0);
        fprintf(out, "%5d  ", line);
        put_escaped(out, gr_report_junit_xml_text, b.s ? b.s : "");
        fputc('\n', out);
        free(b.s);
    }
    fputs("</pre>", out);
}

static void md_pair(FILE *out, const pair_view *v, long rank)
{
    char *sa = doc_name(v->a), *sb = doc_name(v->b);
    char *pa = clean(v->a->path), *pb = clean(v->b->path);
    fprintf(out, "\n### %ld. ", rank);
    put_escaped(out, gr_md_text, sa);
    fputs(" ~ ", out);
    put_escaped(out, gr_md_text, sb);
    fprintf(out, "\n\nJaccard %.3f: %ld shared fingerprints of %ld and %ld; %d region%s.\n\n",
            v->p->jaccard, v->p->shared, v->a->n_distinct, v->b->n_distinct, v->n_r,
            v->n_r == 1 ? "" : "s");
    fputs("<table>\n", out);
    for (int i = 0; i < v->n_r; i++) {
        int fa, la, fb, lb;
        region_lines(v, &v->r[i], 0, &fa, &la);
        region_lines(v, &v->r[i], 1, &fb, &lb);
        fputs("<tr><th>", out);
        put_escaped(out, gr_report_junit_xml_text, pa);
        fprintf(out, " lines %d-%d</th><th>", fa, la);
        put_escaped(out, gr_report_junit_xml_text, pb);
        fprintf(out, " lines %d-%d</th></tr>\n<tr><td>", fb, lb);
        md_pre(out, v->a, fa, la);
        fputs("</td><td>", out);
        md_pre(out, v->b, fb, lb);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    free(sa);
    free(sb);
    free(pa);
    free(pb);
}

void gr_sim_print_markdown(FILE *out, const gr_sim_lab *labs, int n,
                           const gr_sim_report_opts *o)
{
    char *sub = clean(o->submissions);
    fputs("# Similarity report: ", out);
    put_escaped(out, gr_md_text, sub);
    free(sub);
    char *set = settings(labs, n);
    fprintf(out, "\n\n> **%s**\n\n%s\n", gr_sim_not_a_verdict, set);
    free(set);
    for (int li = 0; li < n; li++) {
        const gr_sim_lab *l = &labs[li];
        long top = listed(l, o);
        char *sum = lab_summary(l);
        fprintf(out, "\n## Lab %d (%s)\n\n%s.\n", l->lab, l->dir, sum);
        free(sum);
        int *order, n_groups = gr_sim_groups(l, &order);
        for (int g = 0; g < n_groups; g++) {
            char *line = group_line(l, &l->docs[order[g]], gr_md_text, 0);
            fprintf(out, "\n- %s\n", line);
            free(line);
        }
        free(order);
        if (top == 0)
            continue;
        fputs("\n| rank | student A | student B | Jaccard | shared | lines A | lines B |\n"
              "|---:|---|---|---:|---:|---:|---:|\n", out);
        pair_view *views = gr_xcalloc((size_t)top, sizeof *views);
        for (long i = 0; i < top; i++) {
            pair_view *v = &views[i];
            view_pair(v, l, &l->pairs[i]);
            char *sa = doc_name(v->a), *sb = doc_name(v->b);
            fprintf(out, "| %ld | ", i + 1);
            put_escaped(out, gr_md_text, sa);
            fputs(" | ", out);
            put_escaped(out, gr_md_text, sb);
            fprintf(out, " | %.3f | %ld | %d | %d |\n", v->p->jaccard, v->p->shared,
                    v->lines_a, v->lines_b);
            free(sa);
            free(sb);
        }
        char *more = more_pairs(l, o);
        if (more)
            fprintf(out, "\n%s\n", more);
        free(more);
        fputs("\nJaccard: shared / (A's + B's - shared) distinct fingerprints. Lines: "
              "lines of each file inside a matching region. A +N after a student: N more "
              "handed in the same file.\n", out);
        for (long i = 0; i < top; i++) {
            md_pair(out, &views[i], i + 1);
            free(views[i].r);
        }
        free(views);
    }
}

/* ---- CSV ------------------------------------------------------------------------------------- */

/* An identical group's row: rank "same", its first student as A and no B, its
   file's own counts, and every student of it in same_file. */
static void csv_group(gr_strbuf *b, const gr_sim_lab *l, const gr_sim_doc *d)
{
    char *s = clean(d->student), *p = clean(d->path);
    gr_sb_printf(b, "%d,same,", l->lab);
    gr_csv_text(b, s);
    gr_sb_printf(b, ",,1.000000,%ld,%ld,%ld,%d,%d,", d->n_distinct, d->n_distinct, d->n_distinct,
                 d->n_lines, d->n_lines);
    gr_csv_text(b, p);
    gr_sb_append(b, ",,,");
    gr_strbuf all = {0};
    for (int i = 0; i <= d->n_same; i++) {
        char *c = clean(i ? d->same[i - 1] : d->student);
        gr_sb_printf(&all, "%s%s", i ? " " : "", c);
        free(c);
    }
    gr_csv_text(b, all.s);
    gr_sb_append(b, "\r\n");
    free(all.s);
    free(s);
    free(p);
}

void gr_sim_print_csv(FILE *out, const gr_sim_lab *labs, int n, const gr_sim_report_opts *o)
{
    gr_strbuf b = {0};
    if (o->bom)
        gr_sb_append(&b, GR_CSV_BOM);
    gr_sb_append(&b, "lab,rank,student_a,student_b,jaccard,shared,fingerprints_a,fingerprints_b,"
                     "lines_a,lines_b,file_a,file_b,regions,same_file\r\n");
    for (int li = 0; li < n; li++) {
        const gr_sim_lab *l = &labs[li];
        long top = listed(l, o);
        int *order, n_groups = gr_sim_groups(l, &order);
        for (int g = 0; g < n_groups; g++)
            csv_group(&b, l, &l->docs[order[g]]);
        free(order);
        for (long i = 0; i < top; i++) {
            pair_view v;
            view_pair(&v, l, &l->pairs[i]);
            char *sa = clean(v.a->student), *sb = clean(v.b->student);
            char *pa = clean(v.a->path), *pb = clean(v.b->path);
            gr_sb_printf(&b, "%d,%ld,", l->lab, i + 1);
            gr_csv_text(&b, sa);
            gr_sb_append(&b, ",");
            gr_csv_text(&b, sb);
            gr_sb_printf(&b, ",%.6f,%ld,%ld,%ld,%d,%d,", v.p->jaccard, v.p->shared,
                         v.a->n_distinct, v.b->n_distinct, v.lines_a, v.lines_b);
            gr_csv_text(&b, pa);
            gr_sb_append(&b, ",");
            gr_csv_text(&b, pb);
            gr_sb_append(&b, ",");
            /* each region as A's lines:B's lines, e.g. 12-30:40-58 61-70:80-89 */
            gr_strbuf regions = {0};
            for (int r = 0; r < v.n_r; r++) {
                int fa, la, fb, lb;
                region_lines(&v, &v.r[r], 0, &fa, &la);
                region_lines(&v, &v.r[r], 1, &fb, &lb);
                gr_sb_printf(&regions, "%s%d-%d:%d-%d", r ? " " : "", fa, la, fb, lb);
            }
            gr_csv_text(&b, regions.s);
            gr_sb_append(&b, ",\r\n");
            free(regions.s);
            free(v.r);
            free(sa);
            free(sb);
            free(pa);
            free(pb);
        }
    }
    if (b.s)
        fwrite(b.s, 1, b.len, out);
    free(b.s);
}
