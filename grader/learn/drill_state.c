/* drill_state.c: the learner's drill progress, Leitner boxes in one text file
 * under the XDG state directory (see drill.h).
 *
 * The file is written whole and atomically (a temporary file, fsync, rename),
 * so an interrupted session leaves the previous progress, never half of it:
 *
 *   # attnlab drill progress: id, box (1-5), last session, times right, times wrong
 *   sessions 3
 *   masks/zero-is-a-score	1	3	0	2
 */
#include "learn/drill.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"

char *gr_drill_state_dir(char *err, size_t errlen)
{
    const char *xdg = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    /* The XDG spec: a relative $XDG_STATE_HOME is invalid and is ignored. */
    if (xdg && xdg[0] == '/')
        return gr_xasprintf("%s/attnlab", xdg);
    if (home && home[0] == '/')
        return gr_xasprintf("%s/.local/state/attnlab", home);
    gr_set_err(err, errlen, "neither XDG_STATE_HOME nor HOME is an absolute path, so there is "
               "nowhere to keep drill progress; set XDG_STATE_HOME to a folder of yours");
    return NULL;
}

void gr_drill_progress_free(gr_drill_progress *p)
{
    for (int i = 0; i < p->n; i++)
        free(p->cards[i].id);
    free(p->cards);
    memset(p, 0, sizeof *p);
}

gr_drill_card *gr_drill_card_of(gr_drill_progress *p, const char *id)
{
    for (int i = 0; i < p->n; i++)
        if (strcmp(p->cards[i].id, id) == 0)
            return &p->cards[i];
    return NULL;
}

/* The card of id, added in box 0 when it was never asked. */
static gr_drill_card *card_add(gr_drill_progress *p, const char *id)
{
    gr_drill_card *c = gr_drill_card_of(p, id);
    if (c)
        return c;
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->cards = gr_xrealloc(p->cards, (size_t)p->cap * sizeof *p->cards);
    }
    c = &p->cards[p->n++];
    memset(c, 0, sizeof *c);
    c->id = gr_xstrdup(id);
    return c;
}

void gr_drill_record(gr_drill_progress *p, const char *id, long session, int right)
{
    gr_drill_card *c = card_add(p, id);
    if (c->box == 0)
        c->box = 1;             /* a new question starts in box 1 */
    if (right) {
        c->box = c->box < GR_DRILL_BOXES ? c->box + 1 : GR_DRILL_BOXES;
        c->right++;
    } else {
        c->box = 1;             /* missed: back to the box asked every session */
        c->wrong++;
    }
    c->last = session;
}

int gr_drill_due(const gr_drill_card *c, long session)
{
    return !c || c->box == 0 || session - c->last >= GR_DRILL_GAP(c->box);
}

int gr_drill_progress_load(const char *path, gr_drill_progress *p, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    size_t len;
    char *text = gr_read_file(path, &len);
    if (!text) {
        if (errno == ENOENT)
            return 0;           /* nothing yet: a first session */
        gr_set_err(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    int line_no = 0, rc = 0;
    for (char *line = text, *next; line && *line && rc == 0; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line_no++;
        char id[256];
        int box, used = 0;
        long last, right, wrong;
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (sscanf(line, "sessions %ld%n", &p->sessions, &used) == 1 && line[used] == '\0' &&
            p->sessions >= 0)
            continue;
        if (sscanf(line, "%255[^\t]\t%d\t%ld\t%ld\t%ld%n", id, &box, &last, &right, &wrong,
                   &used) == 5 && line[used] == '\0' && box >= 1 && box <= GR_DRILL_BOXES &&
            last >= 0 && right >= 0 && wrong >= 0 && !gr_drill_card_of(p, id)) {
            gr_drill_card *c = card_add(p, id);
            c->box = box;
            c->last = last;
            c->right = right;
            c->wrong = wrong;
            continue;
        }
        gr_set_err(err, errlen, "%s:%d: not a progress line (expected \"sessions N\" or "
                   "ID<tab>BOX 1-%d<tab>LAST<tab>RIGHT<tab>WRONG, each id once); fix the line or "
                   "delete the file to start over", path, line_no, GR_DRILL_BOXES);
        rc = -1;
    }
    free(text);
    if (rc != 0)
        gr_drill_progress_free(p);
    return rc;
}

/* mkdir -p for the folder that holds path. */
static int make_parent(const char *path)
{
    char *dir = gr_xstrdup(path);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1; rc == 0; p++) {
            if (*p != '/' && *p != '\0')
                continue;
            char keep = *p;
            *p = '\0';
            if (mkdir(dir, 0700) != 0 && errno != EEXIST)
                rc = -1;
            *p = keep;
            if (!keep)
                break;
        }
    }
    free(dir);
    return rc;
}

int gr_drill_progress_save(const char *path, const gr_drill_progress *p, char *err,
                           size_t errlen)
{
    gr_strbuf sb = {0};
    gr_sb_append(&sb, "# attnlab drill progress: id, box (1-5), last session, times right, "
                      "times wrong\n");
    gr_sb_printf(&sb, "sessions %ld\n", p->sessions);
    for (int i = 0; i < p->n; i++)
        if (p->cards[i].box > 0)
            gr_sb_printf(&sb, "%s\t%d\t%ld\t%ld\t%ld\n", p->cards[i].id, p->cards[i].box,
                         p->cards[i].last, p->cards[i].right, p->cards[i].wrong);
    char *text = gr_sb_take(&sb);
    int rc = 0;
    if (make_parent(path) != 0 || gr_write_file_atomic(path, text, strlen(text)) != 0) {
        gr_set_err(err, errlen, "%s: cannot write drill progress: %s", path, strerror(errno));
        rc = -1;
    }
    free(text);
    return rc;
}
