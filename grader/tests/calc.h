/* calc.h: a CSV opened in LibreOffice Calc, as an instructor opens it, for
 * the suites that check no cell attnlab writes is evaluated (test_gradebook,
 * test_hostile_cells).
 *
 *   calc_have()        soffice on PATH: 1, else 0
 *   calc_convert(...)  CSV files imported with a separator and converted to
 *                      flat ODS, in one soffice run
 *   calc_read(...)     one converted file's text
 *   calc_open(...)     one CSV converted and read
 *
 * Without soffice (Debian's libreoffice-calc-nogui) a suite says it skipped
 * and passes; CI installs it.
 */
#ifndef ATTNLAB_CALC_H
#define ATTNLAB_CALC_H

#include <check.h>
#include <stdlib.h>

#include "fixtures/fixture_kit.h"
#include "base/util.h"

static inline int calc_have(void)
{
    return system("command -v soffice >/dev/null 2>&1") == 0;
}

/* Convert each CSV under dir that pattern (a shell pattern, relative to dir,
   without ".csv") names to NAME.fods in outdir with one soffice run,
   importing it as UTF-8 with separator sep (',' or ';', as a continental
   European locale reads it) and the double quote, everything else as a
   user's default (formulas evaluated), in a fresh profile under dir. */
static inline void calc_convert(const char *dir, const char *pattern, char sep,
                                const char *outdir)
{
    char *log = gr_xasprintf("%s/soffice.log", dir);
    fk_sh(log, "HOME=%s soffice -env:UserInstallation=file://%s/profile --headless --norestore "
          "--infilter=CSV:%d,34,76,1 --convert-to fods --outdir '%s' '%s'/%s.csv", dir, dir,
          (int)sep, outdir, dir, pattern);
    free(log);
}

/* The text of outdir/name.fods (malloc'd); its absence fails the test with
   soffice's output. */
static inline char *calc_read(const char *dir, const char *name, const char *outdir)
{
    char *fods = gr_xasprintf("%s/%s.fods", outdir, name), *text = gr_read_file(fods, NULL);
    char *log = gr_xasprintf("%s/soffice.log", dir), *out = gr_read_file(log, NULL);
    ck_assert_msg(text != NULL, "soffice made no %s: %s", fods, out ? out : "");
    free(out);
    free(log);
    free(fods);
    return text;
}

/* dir/name.csv converted (calc_convert) into outdir: the .fods text. */
static inline char *calc_open(const char *dir, const char *name, char sep, const char *outdir)
{
    calc_convert(dir, name, sep, outdir);
    return calc_read(dir, name, outdir);
}

#endif
