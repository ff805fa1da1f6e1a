/* warnings.c: the batch's warnings block (see warnings.h): what an instructor
 * should look at before trusting the gradebook, each with the ids it
 * concerns, a few ids a line at most. */
#include "class/warnings.h"
#include "base/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cells.h"
#include "report/report.h"
#include "base/util.h"

#define IDS_SHOWN 5     /* ids a line names before "and N more" */

/* A growing list of ids for one line of the block. */
typedef struct idlist {
    gr_strbuf ids;
    int n;
} idlist;

/* s made safe for the block's medium: Markdown text, or a terminal's (a
   path a forgiving rule found may hold any byte). */
static void put(gr_strbuf *b, int md, const char *s)
{
    if (md)
        gr_md_text(b, s);
    else
        gr_report_term_text(b, s);
}

static void id_add(idlist *l, int md, const char *id, const char *note)
{
    if (l->n++ >= IDS_SHOWN)
        return;
    gr_sb_append(&l->ids, l->n > 1 ? ", " : "");
    put(&l->ids, md, id);
    if (note) {
        gr_sb_append(&l->ids, " (");
        put(&l->ids, md, note);
        gr_sb_append(&l->ids, ")");
    }
}

/* One line of the block when l has ids: "- what (5): a, b, c, d, e and 3 more". */
static void id_line(gr_strbuf *b, int md, idlist *l, const char *what)
{
    if (l->n > 0) {
        gr_sb_printf(b, "%s%s (%d): %s", md ? "- " : "  ", what, l->n, l->ids.s);
        if (l->n > IDS_SHOWN)
            gr_sb_printf(b, " and %d more", l->n - IDS_SHOWN);
        gr_sb_append(b, "\n");
    }
    free(l->ids.s);
    memset(l, 0, sizeof *l);
}

/* The first lab of s found by a forgiving rule, as "lab 1: why". */
static char *forgiven_note(const gr_class *c, const gr_student *s)
{
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        const gr_intake_lab *il = &s->intake.labs[lab - 1];
        if (c->labs[lab - 1] && il->status == GR_INTAKE_FOUND && il->how)
            return gr_xasprintf("%s", il->rel);
    }
    return NULL;
}

/* Labs of s whose file was not graded for a reason of the upload itself. */
static int lab_verdict_is(const gr_student *s, int lab, gr_verdict v)
{
    const gr_lab_result *l = gr_class_lab(s, lab);
    return l && l->n_tests > 0 && l->tests[0].verdict == v;
}

void gr_warnings_block(gr_strbuf *b, const gr_class *c, int md)
{
    idlist empty = {0}, forgiven = {0}, off_roster = {0}, no_folder = {0}, odd = {0};
    idlist not_graded = {0};
    idlist missing[GR_N_LABS];
    memset(missing, 0, sizeof missing);
    for (int i = 0; i < c->n; i++) {
        const gr_student *s = &c->students[i];
        if (s->same_as)
            continue;                         /* a group's other submitter: graded as one */
        if (!s->submitted) {
            id_add(&no_folder, md, s->id, NULL);
            continue;
        }
        if (c->roster && !s->on_roster)
            id_add(&off_roster, md, s->id, NULL);
        if (s->not_graded)
            id_add(&not_graded, md, s->id, s->not_graded);
        if (s->intake.empty) {
            id_add(&empty, md, s->id, NULL);
            continue;                         /* every lab missing: said once */
        }
        char *note = forgiven_note(c, s);
        if (note)
            id_add(&forgiven, md, s->id, note);
        free(note);
        for (int lab = 1; lab <= GR_N_LABS; lab++) {
            if (!c->labs[lab - 1])
                continue;
            if (s->intake.labs[lab - 1].status == GR_INTAKE_MISSING)
                id_add(&missing[lab - 1], md, s->id, NULL);
            else if (lab_verdict_is(s, lab, GR_AMBIGUOUS) || lab_verdict_is(s, lab, GR_UNREADABLE)) {
                char what[32];
                snprintf(what, sizeof what, "lab %d", lab);
                id_add(&odd, md, s->id, what);
            }
        }
    }
    int any = empty.n || forgiven.n || off_roster.n || no_folder.n || odd.n || not_graded.n;
    for (int lab = 0; lab < GR_N_LABS; lab++)
        any |= missing[lab].n > 0;
    if (!any)
        return;
    gr_sb_append(b, md ? "\n## Warnings\n\n" : "\nWarnings\n");
    id_line(b, md, &not_graded, "Not graded: their results do not read back, their rows empty");
    id_line(b, md, &empty, "Empty submissions, not one file");
    id_line(b, md, &forgiven, "Found by a forgiving rule, each report saying which file and why");
    id_line(b, md, &off_roster, "Folders not on the roster");
    id_line(b, md, &no_folder, "On the roster, no folder");
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        char what[96];
        snprintf(what, sizeof what, "%s missing", gr_layout_dir(lab));
        id_line(b, md, &missing[lab - 1], what);
    }
    id_line(b, md, &odd, "Lab files not graded: ambiguous, or not a regular file");
}
