/* layout.h: where everything of a lab lives, the one place a lab path is
 * spelled. Every path is relative to a root: a source tree, a student kit or
 * an installed PREFIX/share/attnlab (laid out as the tree; gr_layout_locate
 * finds it), or, with root NULL or "", relative to the tree itself ("data/
 * rubrics/lab02.yaml", as messages name it). For lab N with folder <dir>:
 *
 *   student file   labs/<dir>/labNN.c          (a submission: intake.h's rules)
 *   contract       labs/<dir>/labNN.h
 *   handout        labs/<dir>/README.md
 *   kit answers    labs/<dir>/expected_labNN.h
 *   pristine stub  data/stubs/labNN.c
 *   rubric         data/rubrics/labNN.yaml
 *   mutants        data/mutants/labNN/, its manifest.yaml and equivalent.yaml
 *   solution       solutions/<dir>/labNN.c
 *
 * Path functions return a malloc'd string, or NULL when lab is not a lab of
 * the course (1..GR_N_LABS).
 */
#ifndef GR_LAYOUT_H
#define GR_LAYOUT_H

#include <stddef.h>

/* The lab's folder name ("lab05-masking"), or NULL for no such lab. The one
   place the name is read from the course's definition. */
const char *gr_layout_dir(int lab);

/* "labNN" followed by ext ("lab05.c" for ".c", "lab05" for ""), malloc'd;
   NULL for no such lab. The name a lab's files share. */
char *gr_layout_name(int lab, const char *ext);

char *gr_layout_folder(const char *root, int lab);        /* labs/<dir> */
char *gr_layout_student(const char *root, int lab);       /* labs/<dir>/labNN.c */
char *gr_layout_contract(const char *root, int lab);      /* labs/<dir>/labNN.h */
char *gr_layout_handout(const char *root, int lab);       /* labs/<dir>/README.md */
char *gr_layout_kit_expected(const char *root, int lab);  /* labs/<dir>/expected_labNN.h */
char *gr_layout_stub(const char *root, int lab);          /* data/stubs/labNN.c */
char *gr_layout_rubric(const char *root, int lab);        /* data/rubrics/labNN.yaml */
/* Where lab's rubric is read from: rubrics/labNN.yaml (grade --rubrics), or
   with rubrics NULL the course's root/data/rubrics/labNN.yaml. */
char *gr_layout_rubric_from(const char *root, const char *rubrics, int lab);
char *gr_layout_mutants(const char *root, int lab);       /* data/mutants/labNN */
char *gr_layout_mutant_manifest(const char *root, int lab); /* data/mutants/labNN/manifest.yaml */
char *gr_layout_equivalent(const char *root, int lab);      /* data/mutants/labNN/equivalent.yaml */
char *gr_layout_solution(const char *root, int lab);      /* solutions/<dir>/labNN.c */

/* Where to reread, for a person: "labs/<dir>/README.md, section N" (malloc'd;
   NULL for no such lab). */
char *gr_layout_handout_at(int lab, const char *section);

/* The files of a lab, for gr_layout_path_of. */
typedef enum gr_layout_file {
    GR_LAYOUT_FOLDER,             /* labs/<dir> */
    GR_LAYOUT_STUDENT,            /* labs/<dir>/labNN.c */
    GR_LAYOUT_CONTRACT,           /* labs/<dir>/labNN.h */
    GR_LAYOUT_HANDOUT,            /* labs/<dir>/README.md */
    GR_LAYOUT_VISIBLE_TESTS,      /* labs/<dir>/test_labNN.c */
    GR_LAYOUT_LAB_MAKEFILE,       /* labs/<dir>/Makefile */
    GR_LAYOUT_KIT_EXPECTED,       /* labs/<dir>/expected_labNN.h */
    GR_LAYOUT_STUB,               /* data/stubs/labNN.c */
    GR_LAYOUT_RUBRIC,             /* data/rubrics/labNN.yaml */
    GR_LAYOUT_MUTANTS,            /* data/mutants/labNN */
    GR_LAYOUT_MUTANT_MANIFEST,    /* data/mutants/labNN/manifest.yaml */
    GR_LAYOUT_EQUIVALENT,         /* data/mutants/labNN/equivalent.yaml */
    GR_LAYOUT_SOLUTION_FOLDER,    /* solutions/<dir> */
    GR_LAYOUT_SOLUTION,           /* solutions/<dir>/labNN.c */
    GR_LAYOUT_SOLUTION_MAKEFILE,  /* solutions/<dir>/Makefile */
    GR_LAYOUT_MODULE              /* grader/labs/labNN.c, the grader's module */
} gr_layout_file;

/* what of lab number lab whose folder is dir, under root (malloc'd; NULL for
   an unknown what): for a lab the course does not have yet (new-lab), the
   functions above being for the course's labs. */
char *gr_layout_path_of(const char *root, const char *dir, int lab, gr_layout_file what);

/* labs/<dir>/<file> under root, for a lab folder named by the caller (a
   course's, or a test's own fake lab); malloc'd, never NULL. */
char *gr_layout_in_folder(const char *root, const char *dir, const char *file);

/* The course's folders under root (malloc'd, never NULL): what= "labs",
   "stubs", "rubrics", "mutants" or "solutions"; NULL for another word. */
char *gr_layout_folder_of(const char *root, const char *what);

/* Find the course data (root: data/rubrics, data/stubs, the contract headers,
   lib/labsup.h ...) and the child objects from where the running attnlab
   lives: PREFIX/share/attnlab and PREFIX/lib/attnlab/child beside an installed
   PREFIX/bin/attnlab, else the source tree above the build folder and its
   build/grader/child. ATTNLAB_ROOT, when set, names root. root is filled
   before the child objects are looked for. 0, or -1 with err naming the paths
   tried. */
int gr_layout_locate(char *root, size_t root_len, char *child_dir, size_t child_len,
                     char *err, size_t errlen);

/* 1 when root's labs/ holds a lab file (labs/<dir>/labNN.c: a source tree or
   a student kit), 0 when it holds only the contract headers (an install). */
int gr_layout_root_has_labs(const char *root);

/* The submission a command grades when given none (malloc'd): root's labs/
   when it holds lab files, else ./labs when it exists (an installed attnlab
   run from a student's folder). NULL with err saying to pass --submission. */
char *gr_layout_default_submission(const char *root, char *err, size_t errlen);

/* Parse "--lab" values: "all", "N" or "N,M,..." into labs[0..GR_N_LABS)
   (labs[i] = 1: lab i+1 chosen). 0, or -1 with err. */
int gr_layout_parse_labs(const char *s, int *labs, char *err, size_t errlen);

#endif
