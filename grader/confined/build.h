/* build.h: turn one student source file into a sandboxable test executable.
 *
 * Every tool that reads the student's text runs confined (confine.h). Steps,
 * each a verdict when it fails:
 *   0. the lab file is a regular file of at most 4 MiB, read without following
 *      a link (a FIFO, device, folder or link is named) -> GR_COMPILE_ERROR;
 *      its one normalised copy (no byte-order mark, LF line ends) is what
 *      every check and the compiler read; a NUL byte -> GR_COMPILE_ERROR
 *   1. headers: every #include line must name the contract, labsup.h or one of
 *      the rubric's allowed_headers           -> GR_FORBIDDEN_CALL
 *   2. preprocess once with the compile's own flags; in that output, every file
 *      entered must be a pristine header or a system header the rubric allows,
 *      and the student's lines may hold no asm, no assembler-bound attribute
 *      (section, symver, alias ...) and no code-generation pragma
 *                                              -> GR_FORBIDDEN_CALL
 *   3. compile that output to assembly         -> GR_COMPILE_ERROR (first errors)
 *      whose statements, read as the assembler reads them, are directives,
 *      sections and instructions of plain C    -> GR_FORBIDDEN_CALL
 *   4. assemble that assembly; the object's sections must be those of plain C
 *      (no LTO, loader or note sections), no ifunc, and every external symbol
 *      in allowed_symbols or the support code -> GR_FORBIDDEN_CALL (names them)
 *   5. link statically, without LTO, with the test child, the lab's dispatch
 *      and the support RNG/tensor objects (never libattn), wrapping the
 *      allocator so the test child can enforce the memory limit -> GR_COMPILE_ERROR;
 *      the program must load without an interpreter -> GR_FORBIDDEN_CALL
 */
#ifndef GR_BUILD_H
#define GR_BUILD_H

#include "base/result.h"
#include "base/rubric.h"

typedef struct gr_paths {
    const char *root;        /* the attnlab tree: labs/, lib/, data/ */
    const char *child_dir;    /* prebuilt child objects: build/grader/child */
    const char *work_dir;    /* private scratch dir for this grading run */
} gr_paths;

typedef struct gr_build {
    int ok;                  /* 1: exe is ready */
    gr_verdict verdict;      /* when !ok: GR_COMPILE_ERROR or GR_FORBIDDEN_CALL */
    char *message;           /* when !ok: what to fix, one paragraph */
    char *log;               /* trimmed compiler output, or NULL */
    char *exe;               /* path of the test executable */
    long static_bytes;       /* the student's static data: the program's writable segments
                                beyond those of the test child alone, alignment padding included */
    double compile_seconds;
} gr_build;

#define GR_MAX_SOURCE_BYTES ((size_t)4 << 20)   /* a lab file is a few hundred lines */

/* The files a build of lab r reads besides the student's: the contract header,
   labsup.h and the test child's objects (a NULL-terminated list of malloc'd
   paths; free each and the list). */
char **gr_build_inputs(const gr_rubric *r, const char *lab_dir_name, const gr_paths *paths);

/* A deep copy of from into to (free with gr_build_free). */
void gr_build_copy(const gr_build *from, gr_build *to);

/* Build lab r from the student's source file src. Always fills out; returns 0 when
   the build ran (ok or not), -1 when the grader itself failed (err says why). */
int gr_build_lab(const gr_rubric *r, const char *lab_dir_name, const char *src,
                 const gr_paths *paths, gr_build *out, char *err, size_t errlen);

void gr_build_free(gr_build *b);

#endif
