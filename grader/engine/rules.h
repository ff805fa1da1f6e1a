/* rules.h: a lab's rules, written from its rubric into the stub and the handout.
 *
 * The rubric (data/rubrics/labNN.yaml: allowed_headers, allowed_symbols,
 * limits) is the one source of what graded code may include, call and use.
 * The same text stands in two places, between marker lines:
 *
 *   data/stubs/labNN.c          the pristine stub, in its header comment, each
 *                               line behind " * " (labs/labNN-name/labNN.c is
 *                               the student's copy of it, see progress.h)
 *    * BEGIN RULES (generated from data/rubrics/labNN.yaml by attnlab rules)
 *    * - Allowed headers: ...
 *    * END RULES
 *
 *   labs/labNN-name/README.md   in its rules section, lines as they are
 *   <!-- BEGIN RULES (generated from data/rubrics/labNN.yaml by attnlab rules) -->
 *   - Allowed headers: ...
 *   <!-- END RULES -->
 *
 * `attnlab rules` prints the text, `attnlab rules --write` rewrites the blocks
 * (and a copy in labs/ that is still the pristine stub follows it), and
 * `attnlab validate` fails when a block differs from its rubric.
 */
#ifndef GR_RULES_H
#define GR_RULES_H

#include <stddef.h>

#include "base/rubric.h"

/* The rules text of rubric r (lines ending in '\n', no comment prefix), for
   the lab whose contract header is contract ("lab01.h"). NULL with err when
   the rubric allows a symbol the text cannot place in a group (math, memory,
   output, support code). The caller frees it. */
char *gr_rules_text(const gr_rubric *r, const char *contract, char *err, size_t errlen);

/* Compare the rules block of the file at path (a lab's .c or README.md, told
   apart by the name's ending) with text. 0 when they are the same; 1 when
   they differ or the block is missing or broken, with diff saying where
   ("file:line: ..." and what to do); -1 when the file cannot be read (err). */
int gr_rules_check_file(const char *path, const char *rubric_name, const char *text,
                        char *diff, size_t difflen, char *err, size_t errlen);

/* Rewrite the rules block of the file at path with text, atomically; *changed
   says whether anything changed. 0, or -1 with err (no block, unreadable or
   unwritable file). */
int gr_rules_write_file(const char *path, const char *rubric_name, const char *text,
                        int *changed, char *err, size_t errlen);

/* Lab lab's rules text from its rubric under root (NULL with err when the rubric
   does not load or cannot be grouped), with the rubric's name as the markers
   give it ("data/rubrics/labNN.yaml") in *rubric_name and the files holding
   its block in files[0] (the stub) and files[1] (the handout). The caller
   frees the text, *rubric_name and both files; nothing on NULL. */
char *gr_rules_for_lab(const char *root, int lab, char **rubric_name, char *files[2],
                       char *err, size_t errlen);

/* Check both blocks of lab lab under root: 0 when they match its rubric; 1
   with diff naming the first file and line that differs; -1 with err when a
   rubric or a file cannot be read. */
int gr_rules_check_lab(const char *root, int lab, char *diff, size_t difflen, char *err,
                       size_t errlen);

#endif
