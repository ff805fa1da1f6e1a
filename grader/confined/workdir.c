/* workdir.c: see workdir.h. */
#include "confined/workdir.h"
#include "base/util.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *gr_workdir_make(const char *what, char *err, size_t errlen)
{
    const char *tmp = getenv("TMPDIR");
    char *work = gr_xasprintf("%s/attnlab-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", what);
    if (!mkdtemp(work)) {
        gr_set_err(err, errlen, "cannot create a work folder %s: %s", work, strerror(errno));
        free(work);
        return NULL;
    }
    chmod(work, 0711);
    return work;
}

/* One entry, deepest first; a folder a tool left unwritable is opened up first. */
static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    if (flag == FTW_DP)
        chmod(path, 0700);
    if (remove(path) != 0 && errno != ENOENT) {
        chmod(path, 0700);
        remove(path);
    }
    return 0;
}

void gr_workdir_remove(char *dir)
{
    if (dir) {
        chmod(dir, 0700);
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        rmdir(dir);
    }
    free(dir);
}
