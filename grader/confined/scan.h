/* scan.h: what the compiler's own intermediate files say about a student's code.
 *
 * The grader checks exactly what is compiled: the preprocessor's output (the
 * .i file that the compiler then reads) and the compiler's assembly (the .s
 * file that the assembler then reads), never the student's text as it looks.
 *
 *   gr_scan_normalise     the one copy of the student's file that both the
 *                         checks and the compiler read: no byte-order mark,
 *                         LF line ends, no NUL byte
 *   gr_scan_directives    the #include lines of the student's text, for early,
 *                         line-by-line feedback
 *   gr_scan_preprocessed  every file the preprocessor entered, by path; in the
 *                         student's own lines: inline assembly in any spelling,
 *                         attributes whose strings reach the assembler
 *                         (section, symver, alias ...), pragmas that change
 *                         code generation
 *   gr_scan_assembly      read as the assembler reads it (statements split at
 *                         newlines and ';', comments, quoted names and labels):
 *                         every directive is one a C compiler emits for plain
 *                         C, every section one plain C code lives in, with
 *                         ordinary flags: no .incbin, .include, macros, LTO or
 *                         loader sections (scan_asm.c)
 *   gr_scan_section_allowed
 *                         the same section rule, for the object's section table
 */
#ifndef GR_SCAN_H
#define GR_SCAN_H

#include <stddef.h>

/* Make text[0..*len) (a buffer of *len + 1 bytes) the copy that is checked
   and compiled, in place: a UTF-8 byte-order mark at the start removed, CR LF
   and lone CR line ends made LF (GCC reads both as one newline), *len updated
   and text NUL-terminated. 0, or the 1-based line of the first NUL byte, which
   GCC would silently drop: such a file is refused, not normalised. */
int gr_scan_normalise(char *text, size_t *len);

/* One #include (or #include_next, #import) line of the student's text. */
typedef struct gr_include_line {
    char *name;        /* as written between <> or "", or the rest of the line */
    int line;
    int computed;      /* #include MACRO: not checkable */
} gr_include_line;

typedef struct gr_directive_scan {
    gr_include_line *inc;
    int n_inc;
    int line_directive;   /* line of a #line or "# 12 "file"" directive, or 0 */
} gr_directive_scan;

/* Find every #include and any #line directive in the student's text, directive
   by directive as the preprocessor sees them (trigraphs, line splices, comments,
   CR LF and lone CR line ends). A friendly first check that names lines; the
   preprocessor's own record (gr_scan_preprocessed) is the one that decides. */
void gr_scan_directives(const char *src, size_t len, gr_directive_scan *ds);
void gr_scan_directives_free(gr_directive_scan *ds);

/* One file the preprocessor entered from the student's own lines. */
typedef struct gr_pp_include {
    char *path;            /* as the preprocessor names it: "inc/lab01.h", "/usr/include/math.h" */
    int line;              /* the student's line that included it */
} gr_pp_include;

typedef struct gr_pp_facts {
    gr_pp_include *direct; /* files entered from the student's file, in order */
    int n_direct;
    char *foreign;         /* the first file entered (at any depth) that is neither under
                              the pristine include folder nor a system header, or NULL */
    int refused_line;      /* the student's line of the first refused construct, or 0 */
    char refused[160];     /* what it is, for a person: "inline assembly (__asm__)" */
} gr_pp_facts;

/* Scan preprocessed text[0..len) (read by length: a NUL byte ends nothing)
   whose main file is named source; inc_dir is the folder of the pristine
   headers as the preprocessor names it ("inc"). System headers are those under
   /usr/. A line marker the preprocessor would not have written (one that
   leaves the student's file without entering a header) is refused. */
void gr_scan_preprocessed(const char *text, size_t len, const char *source, const char *inc_dir,
                          gr_pp_facts *pf);
void gr_scan_preprocessed_free(gr_pp_facts *pf);

/* Scan a compiler's assembly output text[0..len). 0 when every statement is
   allowed, else the 1-based line of the first that is not, with why[] saying
   what it is. */
int gr_scan_assembly(const char *text, size_t len, char *why, size_t whylen);

/* 1 when an object file section of this name may come from plain C. */
int gr_scan_section_allowed(const char *name);

#endif
