/* gnuplot.h: drawing a PNG with one of the course's gnuplot scripts
 * (data/plots/NAME.gp), for `attnlab plot` and the class report of `attnlab
 * batch`. gnuplot runs as a trusted tool (confined/tool.h: fork/exec, no
 * shell, a deadline) as `gnuplot -d -c script.gp DAT PNG ARGS...`, drawing
 * into a temporary file beside the PNG that is renamed once complete.
 */
#ifndef GR_GNUPLOT_H
#define GR_GNUPLOT_H

#include <stdio.h>

/* Draw png from dat with root/data/plots/NAME.gp and the extra arguments
   args (NULL-ended). 0, or -1 after a message on err that starts
   "attnlab CMD: " and, when gnuplot is missing, says how to install it and to
   run 'attnlab AGAIN' then. */
int gr_gnuplot_draw(FILE *err, const char *cmd, const char *again, const char *root,
                    const char *name, const char *dat, const char *png,
                    const char *const *args);

#endif
