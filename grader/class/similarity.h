/* similarity.h: MOSS-style similarity of students' lab files (attnlab similarity).
 *
 * Each lab file becomes a normalised token stream (a small C tokenizer of our
 * own: comments and whitespace dropped, every identifier the one token ID,
 * every literal one token of its kind, keywords and punctuators as they are),
 * so renaming variables, changing constants or reformatting changes nothing.
 * The stream is fingerprinted by winnowing (Schleimer, Wilkerson and Aiken,
 * SIGMOD 2003): hash every k-gram (k consecutive tokens), and from each window
 * of w consecutive hashes keep the minimum (the rightmost one on a tie),
 * recording each chosen position once. Two guarantees follow, and the tests
 * check both:
 *   - two files that share a run of at least t = w + k - 1 tokens share a
 *     fingerprint (the windows inside the run are the same in both);
 *   - a run shorter than k tokens is never a match (up to 64-bit hash collisions).
 * The base is the text every student starts with: the tokens of every k-gram
 * that also occurs in the lab's pristine stub or contract header. A fingerprint
 * with any base token in its k-gram is dropped, and no match grows into the
 * base: the stub's own text is never evidence. (So the guarantee above is for
 * shared runs outside the base.)
 *
 * Files that are byte for byte the same are one file of the lab, handed in by
 * every student in its group: the reports name the group once ("14 students
 * handed in the same file") instead of listing every pair of it, and every
 * other count below counts the group as one file.
 *
 * As MOSS's -m option does, a passage common to many files is ignored: a
 * fingerprint found in more than max_files of a lab's distinct files
 * (GR_SIM_MAX_FILES by default) is dropped from every file, since so many
 * files sharing it makes it the handout's hint, an idiom or a source the class
 * shares, and no pair's evidence.
 *
 * Two files are compared by their sets of fingerprint hashes: how many they
 * share, and Jaccard = |A and B| / |A or B|. Matching regions grow from each
 * shared fingerprint, token by token in both directions, while the two
 * streams agree. Similarity is a report for a person to read, never a verdict.
 */
#ifndef GR_SIMILARITY_H
#define GR_SIMILARITY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Defaults: a match must be at least GR_SIM_K tokens long to count at all,
   and every match of GR_SIM_K + GR_SIM_W - 1 tokens or more is found. */
#define GR_SIM_K 12
#define GR_SIM_W 8
/* A fingerprint in more of a lab's distinct files than this is ignored. MOSS's
   own default -m: a pair of near-copies, or a ring of up to ten, stays in
   view, while a loop that every second student writes alike does not rank
   two of them together. Identical files count once, so a class handing in
   the solution unchanged does not discount the solution's text. */
#define GR_SIM_MAX_FILES 10

/* ---- tokens ------------------------------------------------------------------- */

/* Token codes: a single-character punctuator is its own character (1..127),
   a byte outside ASCII is itself (128..255), multi-character punctuators and
   keywords have codes from 256 up, and these four stand for every token of
   their class. */
enum {
    GR_SIM_ID = 1000,       /* any identifier: variables, functions, macros, types */
    GR_SIM_NUM,             /* a number: 0, 1.5f, 0x1p-3 */
    GR_SIM_STR,             /* a string literal: "...", L"...", u8"..." */
    GR_SIM_CHR              /* a character constant: 'a', '\n' */
};

/* A file's normalised token stream. */
typedef struct gr_sim_tokens {
    uint32_t *code;         /* n token codes */
    int *line;              /* line (1-based) where token i starts */
    long n;
} gr_sim_tokens;

/* Tokenize text[0..len) (NUL bytes allowed) into out; never fails. */
void gr_sim_tokenize(gr_sim_tokens *out, const char *text, size_t len);
void gr_sim_tokens_free(gr_sim_tokens *t);

/* ---- fingerprints ---------------------------------------------------------------- */

/* h[i] = hash of code[i..i+k) for i in [0, n - k]; returns n - k + 1 (0 when n < k). */
long gr_sim_kgram_hashes(uint64_t *h, const uint32_t *code, long n, int k);

/* One fingerprint: a k-gram's hash and where that k-gram starts. */
typedef struct gr_sim_fp {
    uint64_t hash;
    long pos;               /* token index of the k-gram's first token */
} gr_sim_fp;

/* Winnow h[0..n) with windows of w: the rightmost minimum of each window,
   each position once, in order. fp has room for n. Returns how many. */
long gr_sim_winnow(gr_sim_fp *fp, const uint64_t *h, long n, int w);

/* What every student starts with: the sorted, distinct k-gram hashes of the
   lab's pristine stub and contract header. Zero-initialise ({0}) before use. */
typedef struct gr_sim_base {
    uint64_t *hash;
    long n;
} gr_sim_base;

/* Add every k-gram hash of text[0..len) to b. */
void gr_sim_base_add(gr_sim_base *b, const char *text, size_t len, int k);
/* 1 when hash is one of b's. */
int gr_sim_base_has(const gr_sim_base *b, uint64_t hash);
void gr_sim_base_free(gr_sim_base *b);

/* ---- documents and pairs ----------------------------------------------------------- */

/* One student's file of one lab. */
typedef struct gr_sim_doc {
    char *student;          /* the student's folder name */
    char *path;             /* as shown: "alice/lab01-scores/lab01.c" */
    char *text;             /* the file, NUL-terminated */
    size_t len;
    long *line_start;       /* offset of line i + 1 in text, i in [0, n_lines) */
    int n_lines;
    gr_sim_tokens tok;
    unsigned char *in_base; /* in_base[i] = 1: token i lies in a k-gram of the base */
    gr_sim_fp *fp;          /* fingerprints with no base token, sorted by (hash, pos) */
    long n_fp;
    long n_distinct;        /* distinct hashes among fp: the size of the file's set */
    char **same;            /* the other students who handed in exactly this file, in order */
    int n_same;
} gr_sim_doc;

/* Fingerprint text[0..len) for student's file at path, with the base's text
   excluded. d takes student, path and text (all malloc'd; text NUL-terminated). */
void gr_sim_doc_init(gr_sim_doc *d, char *student, char *path, char *text, size_t len,
                     const gr_sim_base *base, int k, int w);
void gr_sim_doc_free(gr_sim_doc *d);

/* Line `line` (1-based) of d: its text (without the newline) and length in *len. */
const char *gr_sim_doc_line(const gr_sim_doc *d, int line, size_t *len);

/* Drop from every doc of docs[0..n) each fingerprint hash found in more than
   max_files of them (0: none dropped). Returns how many distinct hashes went. */
long gr_sim_discount_common(gr_sim_doc *docs, int n, int max_files);

/* How many distinct fingerprint hashes a and b have in common. */
long gr_sim_shared(const gr_sim_doc *a, const gr_sim_doc *b);

/* Two files of the same lab that share fingerprints. */
typedef struct gr_sim_pair {
    int a, b;               /* indices into the docs, a < b */
    long shared;            /* distinct fingerprint hashes in both */
    double jaccard;         /* shared / (a's + b's - shared), in (0, 1] */
} gr_sim_pair;

/* Every pair of docs[0..n) that shares at least one fingerprint, most similar
   first (Jaccard, then shared count, then index order), into *pairs (malloc'd,
   NULL when none). Returns how many. */
long gr_sim_rank_pairs(gr_sim_pair **pairs, const gr_sim_doc *docs, int n);

/* One matching region: tokens [a0, a1) of a equal tokens [b0, b1) of b. */
typedef struct gr_sim_region {
    long a0, a1, b0, b1;
} gr_sim_region;

/* The regions where a and b match, grown from their shared fingerprints (k the
   k-gram length they were made with): disjoint in each file, in a's order, into
   *regions (malloc'd, NULL when none). Returns how many. */
int gr_sim_regions(gr_sim_region **regions, const gr_sim_doc *a, const gr_sim_doc *b, int k);

/* How many distinct lines of a (side 0) or b (side 1) the regions cover. */
int gr_sim_region_lines(const gr_sim_region *r, int n, const gr_sim_doc *d, int side);

/* ---- one lab of a folder of submissions (similarity_set.c) -------------------------- */

/* Largest lab file read; a bigger one is skipped with a warning. */
#define GR_SIM_MAX_FILE (1024 * 1024)

/* The students of a submissions folder: the names of its subfolders (not
   hidden), sorted, into *names (free with gr_sim_names_free); a link is
   skipped with a line on warn. Returns how many, or -1 with err when the
   folder cannot be read. */
int gr_sim_students(char ***names, const char *submissions, FILE *warn, char *err,
                    size_t errlen);
void gr_sim_names_free(char **names, int n);

/* Every student's file of one lab, fingerprinted, and the pairs ranked. */
typedef struct gr_sim_lab {
    int lab;                /* 1..GR_N_LABS */
    const char *dir;        /* its folder: "lab01-scores" */
    char *source;           /* the file a student submits: "lab01.c" */
    int k, w;               /* k-gram length and window the files were fingerprinted with */
    int max_files;          /* fingerprints in more distinct files than this are ignored */
    int n_files;            /* lab files found and read */
    int n_empty;            /* of those, files with no fingerprint outside the stub's text */
    int n_same;             /* of the others, files byte for byte an earlier student's */
    long n_common;          /* fingerprints ignored as common to more than max_files files */
    gr_sim_doc *docs;       /* the distinct others, in student order (doc->same: its group) */
    int n_docs;
    gr_sim_pair *pairs;     /* pairs of docs sharing a fingerprint, most similar first */
    long n_pairs;
} gr_sim_lab;

/* Load lab `lab` of every student in names[0..n) under submissions, in either
   layout grading accepts: <student>/labNN-name/labNN.c, else the flat upload
   <student>/labNN.c. Files are read only as regular files; one that is not
   (a link, a FIFO, too big) is skipped with a line on warn saying why. The
   base is the tree's pristine stub and contract header (root/labs/labNN-name/).
   Identical files are grouped, and fingerprints common to more than
   max_files distinct files ignored (above). 0, or -1 with err (the rubric,
   stub or header cannot be read). */
int gr_sim_lab_load(gr_sim_lab *l, const char *root, const char *submissions,
                    char *const *names, int n, int lab, int k, int w, int max_files,
                    FILE *warn, char *err, size_t errlen);

/* The students doc d stands for: 1 + d->n_same. */
int gr_sim_doc_students(const gr_sim_doc *d);

/* The docs of l handed in by several students, largest group first (then in
   student order), as indexes into l->docs in *order (malloc'd, NULL when
   none). Returns how many. */
int gr_sim_groups(const gr_sim_lab *l, int **order);
void gr_sim_lab_free(gr_sim_lab *l);

/* ---- reports (similarity_report.c) ---------------------------------------------------- */

/* What the reports show. */
typedef struct gr_sim_report_opts {
    const char *submissions;  /* the folder, as given, for the title */
    int top;                  /* pairs listed per lab; 0: every pair that shares anything */
    int detail;               /* terminal only: regions shown for the first `detail` pairs */
    int bom;                  /* CSV only: a UTF-8 byte order mark first (--csv-bom) */
} gr_sim_report_opts;

/* The sentence every report opens with: similarity is evidence to read, not a verdict. */
extern const char gr_sim_not_a_verdict[];

/* The terminal report of labs[0..n): per lab a table of the top pairs, then the
   matching regions of the first pairs side by side. */
void gr_sim_print_table(FILE *out, const gr_sim_lab *labs, int n, const gr_sim_report_opts *o);

/* The same as Markdown, every listed pair with all of its regions side by side. */
void gr_sim_print_markdown(FILE *out, const gr_sim_lab *labs, int n,
                           const gr_sim_report_opts *o);

/* CSV: a header row, then one row per listed pair (see cmd_similarity.c's --help);
   RFC 4180 with CRLF line ends, text cells neutralised (gr_csv_text). */
void gr_sim_print_csv(FILE *out, const gr_sim_lab *labs, int n, const gr_sim_report_opts *o);

#endif
