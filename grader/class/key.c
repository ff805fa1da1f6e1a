/* key.c: the key of a student's grade and the key file (see key.h). */
#include "class/key.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/layout.h"
#include "engine/seed.h"

#define KEY_MAGIC "attnlab key 1\n"

/* The bytes of the student's file for lab into m with its length, so that
   nothing read from one file can pass for another's; a file that is not
   there, ambiguous or not a regular file is keyed by what it is. */
static void add_source(gr_strbuf *m, const char *dir, const gr_intake_lab *il)
{
    if (il->status != GR_INTAKE_FOUND) {
        gr_sb_printf(m, "source %s %s %s\n", il->status == GR_INTAKE_MISSING ? "missing" : "ambiguous",
                     il->rel ? il->rel : "", il->other ? il->other : "");
        return;
    }
    size_t len = 0;
    char *data = NULL, why[512] = "";
    int rc = gr_intake_read(dir, il->rel, GR_INTAKE_MAX_FILE, &data, &len, why, sizeof why);
    if (rc == 0) {
        gr_sb_printf(m, "source %s %zu\n", il->rel, len);
        gr_sb_appendn(m, data, len);
    } else {
        gr_sb_printf(m, "source %s unreadable %s\n", il->rel, rc > 0 ? why : strerror(errno));
    }
    free(data);
}

/* The bytes of path (the grader's own file) into m with its tag and length
   ("absent" when it cannot be read). */
static void add_file(gr_strbuf *m, const char *tag, const char *path)
{
    size_t len = 0;
    char *data = gr_read_file(path, &len);
    if (data) {
        gr_sb_printf(m, "%s %zu\n", tag, len);
        gr_sb_appendn(m, data, len);
    } else {
        gr_sb_printf(m, "%s absent\n", tag);
    }
    free(data);
}

char *gr_key_digest(const char *data, size_t len)
{
    static const unsigned char k1[16] = "attnlab digest 1", k2[16] = "attnlab digest 2";
    return gr_xasprintf("%016llx%016llx", (unsigned long long)gr_siphash24(k1, data, len),
                        (unsigned long long)gr_siphash24(k2, data, len));
}

char *gr_key_program(void)
{
    static char *once;                  /* the running program does not change */
    if (!once) {
        size_t len = 0;
        char *exe = gr_read_file("/proc/self/exe", &len);
        once = exe ? gr_key_digest(exe, len) : gr_xstrdup("unknown");
        free(exe);
    }
    return gr_xstrdup(once);
}

void gr_key_lab_files(gr_strbuf *m, const gr_batch_opts *o, int lab)
{
    char *rubric = gr_layout_rubric_from(o->root, o->rubrics, lab);
    char *header = gr_layout_contract(o->root, lab);
    gr_sb_printf(m, "lab %d\n", lab);
    add_file(m, "rubric", rubric);
    add_file(m, "header", header);
    free(rubric);
    free(header);
}

char *gr_key_make(const gr_batch_opts *o, const char *program, const char *id, const char *dir,
                  const gr_intake *intake, int side)
{
    gr_strbuf m = {0};
    gr_sb_printf(&m, "attnlab batch key 1\nprogram %s\n", program);
    for (int lab = 1; lab <= GR_N_LABS; lab++) {
        if (!o->labs[lab - 1])
            continue;
        if (!side)
            gr_key_lab_files(&m, o, lab);
        else
            gr_sb_printf(&m, "lab %d\n", lab);
        add_source(&m, dir, &intake->labs[lab - 1]);
    }
    char *hex = gr_key_digest(m.s, m.len);
    free(m.s);
    char *key = gr_xasprintf("%016llx", (unsigned long long)gr_seed(o->secret, id, 0, hex));
    free(hex);
    return key;
}

char *gr_key_file_text(const char *key, const char *side)
{
    return gr_xasprintf(KEY_MAGIC "full %s\nside %s\n", key, side);
}

int gr_key_holds(const char *path, int side, const char *key, char *why, size_t whylen)
{
    size_t len = 0;
    char *text = gr_read_file(path, &len);
    char *want = gr_xasprintf("\n%s %s\n", side ? "side" : "full", key);
    int same = text && strncmp(text, KEY_MAGIC, strlen(KEY_MAGIC)) == 0 &&
               strstr(text + strlen(KEY_MAGIC) - 1, want) != NULL;
    if (!text)
        gr_set_err(why, whylen, "its results have no key of what they were graded from");
    else if (!same)
        gr_set_err(why, whylen, "its files, a rubric or contract header, the secret or attnlab "
                   "itself changed since it was graded");
    free(want);
    free(text);
    return same;
}
