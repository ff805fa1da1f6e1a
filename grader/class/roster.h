/* roster.h: the class roster (roster.yaml): who is in the class, with the
 * names, emails and LMS ids the gradebook and the exports need. Batch merges
 * it with the students' folders; export reads it alone.
 */
#ifndef GR_ROSTER_H
#define GR_ROSTER_H

#include <stddef.h>
#include "class/class.h"

/* Read the roster at path into c: each student's name, email and the
   optional sis_user_id, sis_login_id and section (an LMS export's columns);
   roster students without a folder become rows of their own. 0, or -1 with
   "path:line:column: ..." in err. */
int gr_roster_load(const char *path, gr_class *c, char *err, size_t errlen);

#endif
