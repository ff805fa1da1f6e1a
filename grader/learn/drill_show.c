/* drill_show.c: a drill question and the feedback on an answer as a session
 * prints them (see drill.h). The text is printed as written, wrapped only at
 * spaces: test_drill_render holds every bank's every question to it.
 */
#include "learn/drill.h"

#include <stdio.h>
#include <string.h>

#include "learn/worked.h"

void gr_drill_print_question(FILE *out, const gr_drill_question *q, const char *bank, int no,
                             int total)
{
    fprintf(out, "\n[%d/%d] %s, %s%s%s\n", no, total, bank, q->lesson,
            q->section ? ", " : "", q->section ? q->section : "");
    /* Generated prompts hold matrices, one row a line: print their lines as they are. */
    if (strchr(q->prompt, '\n'))
        fprintf(out, "%s\n", q->prompt);
    else
        gr_worked_print_wrapped(out, "", q->prompt);
    for (int i = 0; i < q->n_choices; i++) {
        char lead[8];
        snprintf(lead, sizeof lead, "  %c) ", 'a' + i);
        gr_worked_print_wrapped(out, lead, q->choices[i]);
    }
}

/* The right answer as a sentence ends it: "b) scores", "true", "0.0871". */
static void print_answer(FILE *out, const gr_drill_question *q)
{
    if (q->kind == GR_DRILL_CHOICE)
        fprintf(out, "%c) %s", 'a' + q->answer, q->answer_text);
    else
        fputs(q->answer_text, out);
}

/* How the feedback on a verdict other than right opens. */
static const char *missed_lead(gr_drill_verdict v)
{
    switch (v) {
    case GR_DRILL_WRONG:   return "Wrong: the answer is ";
    case GR_DRILL_UNKNOWN: return "Not recognised again, so it counts as missed: the answer is ";
    default:               return "No answer: it is ";
    }
}

void gr_drill_print_feedback(FILE *out, const gr_drill_question *q, gr_drill_verdict v)
{
    if (v == GR_DRILL_RIGHT) {
        fputs("Right", out);
        if (q->kind == GR_DRILL_NUMERIC) {
            fputs(": ", out);
            print_answer(out, q);
        }
        fputs(".\n", out);
    } else {
        fputs(missed_lead(v), out);
        print_answer(out, q);
        if (q->kind == GR_DRILL_NUMERIC)
            fprintf(out, " (any answer that rounds to it at %d decimal%s counts as right)",
                    q->decimals, q->decimals == 1 ? "" : "s");
        fputs(".\n", out);
    }
    gr_worked_print_wrapped(out, "Why: ", q->explanation);
    gr_drill_print_worked(out, q);
}
