/* roster.c: the class roster (roster.yaml): who is in the class, with the
 * names, emails and LMS ids the gradebook and the exports need. Batch merges it
 * with the students' folders; export reads it alone. */
#include "class/roster.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sup_yamlread.h"
#include "base/util.h"

static int by_id(const void *a, const void *b)
{
    return strcmp(((const gr_student *)a)->id, ((const gr_student *)b)->id);
}

/* One roster entry as read. */
typedef struct roster_entry {
    const char *id, *name, *email;
    const char *sis_user_id, *sis_login_id, *section;   /* for an LMS export (export.h) */
} roster_entry;

static int rd_str(yr_doc *d, const yaml_node_t *v, const char *label, const char **out)
{
    return yr_get_string(d, v, label, YR_NONEMPTY, out);
}
static int rd_id(yr_doc *d, const yaml_node_t *v, void *t) { return rd_str(d, v, "id", &((roster_entry *)t)->id); }
static int rd_name(yr_doc *d, const yaml_node_t *v, void *t) { return rd_str(d, v, "name", &((roster_entry *)t)->name); }
static int rd_email(yr_doc *d, const yaml_node_t *v, void *t) { return rd_str(d, v, "email", &((roster_entry *)t)->email); }
static int rd_sis_user(yr_doc *d, const yaml_node_t *v, void *t) { return rd_str(d, v, "sis_user_id", &((roster_entry *)t)->sis_user_id); }
static int rd_sis_login(yr_doc *d, const yaml_node_t *v, void *t) { return rd_str(d, v, "sis_login_id", &((roster_entry *)t)->sis_login_id); }
static int rd_section(yr_doc *d, const yaml_node_t *v, void *t) { return rd_str(d, v, "section", &((roster_entry *)t)->section); }

static const yr_field entry_fields[] = {
    {"id", 1, rd_id},
    {"name", 0, rd_name},
    {"email", 0, rd_email},
    {"sis_user_id", 0, rd_sis_user},
    {"sis_login_id", 0, rd_sis_login},
    {"section", 0, rd_section},
};

/* The student of c with this id, added (without a submission) when new.
   c->students[0..n_sorted) are sorted by id (the folders); roster students
   appended after them are found by the caller's own check. */
static gr_student *student_of(gr_class *c, int n_sorted, const char *id)
{
    gr_student key = { .id = (char *)(uintptr_t)id };
    gr_student *s = n_sorted > 0 ? bsearch(&key, c->students, (size_t)n_sorted,
                                           sizeof *c->students, by_id) : NULL;
    if (s)
        return s;
    c->students = gr_xrealloc(c->students, (size_t)(c->n + 1) * sizeof *c->students);
    s = &c->students[c->n++];
    memset(s, 0, sizeof *s);
    s->id = gr_xstrdup(id);
    return s;
}

/* Roster item k's id, for finding an id listed twice by sorting. */
typedef struct roster_seen { const char *id; int item; } roster_seen;

static int seen_by_id(const void *a, const void *b)
{
    const roster_seen *x = a, *y = b;
    int c = strcmp(x->id, y->id);
    return c ? c : (x->item > y->item) - (x->item < y->item);
}

/* The id the roster lists twice first (the earliest second listing), or NULL.
   Sorting keeps a class of 100,000 quick, where comparing every pair took minutes. */
static const roster_seen *roster_twice(roster_seen *seen, int n)
{
    qsort(seen, (size_t)n, sizeof *seen, seen_by_id);
    const roster_seen *twice = NULL;
    for (int i = 1; i < n; i++)
        if (strcmp(seen[i - 1].id, seen[i].id) == 0 && (!twice || seen[i].item < twice->item))
            twice = &seen[i];
    return twice;
}

/* students: [{id, name, email}, ...] into c. */
static int rd_students(yr_doc *d, const yaml_node_t *v, void *target)
{
    gr_class *c = target;
    int n = 0;
    if (yr_get_seq(d, v, "students", "[{id: s001, name: Ada Lovelace, email: ada@example.edu}]", &n) != 0)
        return -1;
    if (c->n > 1)
        qsort(c->students, (size_t)c->n, sizeof *c->students, by_id);
    int n_sorted = c->n, rc = 0;
    roster_seen *seen = gr_xcalloc((size_t)(n > 0 ? n : 1), sizeof *seen);
    for (int i = 0; i < n && rc == 0; i++) {
        const yaml_node_t *item = yr_item(d, v, i);
        roster_entry e = {0};
        char where[32];
        snprintf(where, sizeof where, "student %d", i + 1);
        if (!item || yr_walk(d, item, where, where, entry_fields, YR_N_FIELDS(entry_fields), &e) != 0) {
            rc = item ? -1 : yr_fail_at(d, v, "students: the YAML document is damaged");
            break;
        }
        gr_student *s = student_of(c, n_sorted, e.id);
        seen[i] = (roster_seen){ e.id, i };   /* the document's own text, alive until it closes */
        s->on_roster = 1;
        free(s->name);
        free(s->email);
        s->name = gr_xstrdup(e.name ? e.name : "");
        s->email = gr_xstrdup(e.email ? e.email : "");
        s->sis_user_id = e.sis_user_id ? gr_xstrdup(e.sis_user_id) : NULL;
        s->sis_login_id = e.sis_login_id ? gr_xstrdup(e.sis_login_id) : NULL;
        s->section = e.section ? gr_xstrdup(e.section) : NULL;
    }
    const roster_seen *twice = rc == 0 ? roster_twice(seen, n) : NULL;
    if (twice)
        rc = yr_fail_at(d, yr_item(d, v, twice->item), "student %s is on the roster twice",
                        twice->id);
    free(seen);
    return rc;
}

static const yr_field roster_fields[] = {
    {"students", 1, rd_students},
};

int gr_roster_load(const char *path, gr_class *c, char *err, size_t errlen)
{
    static const yr_spec spec = {
        "the roster", "the roster is empty; it needs students: [{id: ..., name: ...}]", NULL,
        roster_fields, YR_N_FIELDS(roster_fields), NULL, NULL,
    };
    int rc = yr_load_file(path, &spec, c, err, errlen);
    if (c->n > 1)                          /* an empty class has no array to sort */
        qsort(c->students, (size_t)c->n, sizeof *c->students, by_id);
    return rc;
}
