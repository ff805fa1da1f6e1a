/* srccheck.h: a lab's rules on what its source file may include, applied to
 * the student's #include lines and to the preprocessor's record of the text
 * that is compiled (scan.h); each refusal a message for the student, its lists
 * bounded (shown.h): five items, then how many more.
 */
#ifndef GR_SRCCHECK_H
#define GR_SRCCHECK_H

#include <stddef.h>

#include "confined/scan.h"
#include "base/rubric.h"

typedef struct gr_src_rules {
    const gr_rubric *r;       /* allowed_headers */
    const char *source;       /* the lab file's name: labNN.c */
    const char *contract;     /* the contract header: labNN.h */
} gr_src_rules;

/* What is refused among ds's #include and #line directives (the message ends
   with the headers the lab allows), or NULL when all are allowed. malloc'd. */
char *gr_srccheck_includes(const gr_src_rules *sr, const gr_directive_scan *ds);

/* What the preprocessed text pre[0..len) shows refused (gr_scan_preprocessed),
   or NULL: a construct (asm, an assembler-bound attribute or pragma, a forged
   line marker) or a file entered that is not an allowed header (the message
   then ends with the headers the lab allows). n_inc is the number of #include
   lines the directive scan found. malloc'd. */
char *gr_srccheck_preprocessed(const gr_src_rules *sr, const char *pre, size_t len, int n_inc);

#endif
