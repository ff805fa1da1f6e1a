/* workdir.h: the private work folders of a grading run, made and removed in one
 * place for grading, validation, plots and the sandbox alike. */
#ifndef GR_WORKDIR_H
#define GR_WORKDIR_H

#include <stddef.h>

/* A new private work folder under TMPDIR (or /tmp) named attnlab-WHAT-XXXXXX,
   mode 0711 so that the sandbox's unprivileged user can reach a program inside
   it but not list it; NULL with err on failure. */
char *gr_workdir_make(const char *what, char *err, size_t errlen);

/* Remove a work folder and everything in it (links are removed, never
   followed), and free the path. NULL is fine. */
void gr_workdir_remove(char *dir);

#endif
