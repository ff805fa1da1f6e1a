/* drill_session.h: one session of `attnlab drill` (the questions of the
 * banks and the generated drills in the order the Leitner boxes give, one at
 * a time from in, with feedback and the score on out) and the --stats table.
 * The command (cli/cmd_drill.c) reads the options, loads the banks and the
 * progress, and saves the progress a session changed.
 */
#ifndef GR_DRILL_SESSION_H
#define GR_DRILL_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "learn/drill.h"

/* Ask count questions (of the bank named bank, or of every bank and the
   generated drills when NULL; a bank asks each question once a session)
   from in, the order and the generated numbers fixed by seed, recording each
   answer in p. Returns how many were answered: when some were, p->sessions
   is this session's number, and p is the caller's to save. */
int gr_drill_session(FILE *in, FILE *out, const gr_drill_bank *banks, int nb, const char *bank,
                     long count, uint64_t seed, gr_drill_progress *p);

/* The progress table: each bank's questions by box, due, right and wrong
   (path names the progress file). */
void gr_drill_session_print_stats(FILE *out, const gr_drill_bank *banks, int nb,
                                  gr_drill_progress *p, const char *path);

#endif
