/* class.c: the model of a class (see class.h). */
#include "class/class.h"

#include <stdlib.h>
#include <string.h>

#include "cells.h"

const gr_lab_result *gr_class_lab(const gr_student *s, int lab)
{
    for (int i = 0; i < s->report.n_labs; i++)
        if (s->report.labs[i].lab == lab)
            return &s->report.labs[i];
    return NULL;
}

double gr_class_adjusted(const gr_class *c, const gr_student *s, int lab)
{
    const gr_lab_result *l = gr_class_lab(s, lab);
    double raw = l ? l->score : 0;
    return c->course ? gr_course_adjust(c->course, raw, s->days_late[lab - 1]) : raw;
}

void gr_class_free(gr_class *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->students[i].id);
        free(c->students[i].folder);
        free(c->students[i].same_as);
        free(c->students[i].name);
        free(c->students[i].email);
        free(c->students[i].sis_user_id);
        free(c->students[i].sis_login_id);
        free(c->students[i].section);
        free(c->students[i].not_graded);
        gr_intake_free(&c->students[i].intake);
        gr_result_free(&c->students[i].report);
    }
    free(c->students);
    free(c->times_from);
    memset(c, 0, sizeof *c);
}

void gr_class_csv_student(gr_strbuf *b, const gr_student *s)
{
    gr_csv_text(b, s->id);
    gr_sb_append(b, ",");
    gr_csv_text(b, s->name);
    gr_sb_append(b, ",");
    gr_csv_text(b, s->email);
}
