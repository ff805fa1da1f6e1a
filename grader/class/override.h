/* override.h: grades set by hand (attnlab override), kept in the class folder.
 *
 * An override names a student, a lab and perhaps one test of it, and either
 * sets points (the test's or the lab's score) or adds an adjustment to the
 * lab's score, with a reason. It is kept in DIR/overrides.txt, never in a
 * results.json, so no regrade loses it: every batch applies the folder's
 * overrides to the class it writes (class.h, gr_class_raw), the gradebook,
 * the reports and every export show the score with them, and the student's
 * feedback names each. Each is also a line of DIR/regrades.log (regrade.h):
 * the lab's score before and after, the reason, "override ...".
 *
 * DIR/overrides.txt: a header line, then one line per override, fields
 * separated by tabs: when (UTC), student, lab (its number), test ("-": the
 * lab's score), kind ("points" or "adjust"), value, reason. An override is
 * never edited in place: a later one of the same test or lab takes over.
 */
#ifndef GR_OVERRIDE_H
#define GR_OVERRIDE_H

#include <stddef.h>
#include "class/class.h"

/* DIR/overrides.txt into c->overrides (none when the file does not exist).
   0, or -1 with err ("DIR/overrides.txt:LINE: what is wrong"). */
int gr_override_load(const char *dir, gr_class *c, char *err, size_t errlen);

/* Record o in the class folder dir: checked against the student's results
   (dir/students/ID/results.json: the lab graded, the test one of it, the
   score in 0 .. its maximum), appended to overrides.txt and regrades.log.
   *old and *now get the lab's score before and after. 0, or -1 with err. */
int gr_override_add(const char *dir, const gr_class_override *o, double *old, double *now,
                    char *err, size_t errlen);

#endif
