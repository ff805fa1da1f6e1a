/* drill.h: the question banks of `attnlab drill`, the drills libattn
 * generates, answer checking and the learner's progress (Leitner boxes).
 *
 * A bank is one YAML file data/drills/NAME.yaml:
 *
 *   bank: masks                       # must equal the file's NAME
 *   title: Masks act on scores
 *   questions:
 *     - id: zero-is-a-score           # unique in the bank; progress is kept by bank/id
 *       kind: numeric                 # choice, true_false, short or numeric
 *       prompt: ...                   # numeric: says "(k decimals)", or "(a whole number)"
 *       answer: 0.0871                # numeric: the value, written with its k decimals;
 *                                     # choice: one of the choices; true_false: true or
 *                                     # false; short: the answer shown
 *       decimals: 4                   # numeric: right is exactly what rounds to the
 *                                     # answer at this many decimals
 *       compute: {op: weight, scores: [2, 1, -1, 0], key: 3}
 *                                     # numeric: how libattn computes the answer; the
 *                                     # loader rejects an answer that disagrees with it
 *       choices: [...]                # choice: two or more, in any order (they are
 *                                     # shuffled each time the question is shown)
 *       accept: [...]                 # short: more answers taken as right, each matched
 *                                     # as a whole after normalising (never a fragment)
 *       handout:                      # short (required): the handouts' own words for the
 *         - {phrase: a row of NaN, in: lab 2 §5}   # answer, each accepted too; in: is
 *                                     # "lab N §K" or "syllabus", and make test checks
 *                                     # that the phrase occurs there
 *       hint: ...                     # short (required): the form an answer takes, shown
 *                                     # when an answer is neither accepted nor rejected
 *       reject: [...]                 # short and numeric (required): near-misses and
 *                                     # plausible wrong answers the loader proves are
 *                                     # judged wrong
 *       explanation: ...              # why, shown after every answer (required)
 *       lesson: L2.3                  # the syllabus lesson (required)
 *       section: lab 2 §4             # the handout section (optional)
 *
 * Keys, queries and heads count from 0, as in the code and the prompts.
 * Compute ops: weight (scores, mask, temperature, dk, key), max_weight (same,
 * no key), grad_bound (same: 2 (1 - max w)), postmask_sum (scores, mask:
 * softmax of every score, summed over the unmasked keys), entropy (scores,
 * mask, temperature), grad (scores, mask, g, key: dS of the key), lse
 * (scores), sink_sum (scores, sink: the real weights' sum), dot (q, k, dk:
 * divided by sqrt(dk) when given), score_std (dk, divisor: sqrt(dk) /
 * divisor), abs_sum (v), underflow (where expf reaches 0), dropout (w, p: w /
 * (1 - p)), alibi_slope (heads, head), visible_keys (tq, tk, query,
 * bottom_right or window), head_mean and mean_scores (scores, scores2, key:
 * two heads' mean weights, or the softmax of their mean scores), gqa (heads,
 * kv_heads, head), flat_index (shape [B, Tq, Tk], index [b, i, j]), mib
 * (rows, cols, count: float32 matrices in MiB).
 *
 * Errors are "path:line:column: what is wrong" (lib/sup_yamlread.h).
 */
#ifndef GR_DRILL_H
#define GR_DRILL_H

#include <stdint.h>
#include <stdio.h>

typedef enum gr_drill_kind {
    GR_DRILL_CHOICE = 0,       /* multiple choice: a, b, c ... */
    GR_DRILL_TRUE_FALSE,       /* true or false */
    GR_DRILL_SHORT,            /* a word or phrase, matched whole against accepted forms */
    GR_DRILL_NUMERIC           /* a number, right when it rounds to the answer */
} gr_drill_kind;

/* A phrase of the course text that answers a short question: where it is. */
typedef struct gr_drill_phrase {
    char *text;                /* "a row of NaN" */
    char *in;                  /* "lab 2 §5" or "syllabus" */
} gr_drill_phrase;

/* One question, from a bank or generated. */
typedef struct gr_drill_question {
    char *id;                  /* "bank/id": the key of its progress */
    gr_drill_kind kind;
    char *prompt;
    char **choices;            /* choice: n_choices texts */
    int n_choices;
    int answer;                /* choice: index of the right choice; true_false: 1 or 0 */
    char *answer_text;         /* the right answer as shown ("0.0871", "softmax", ...) */
    char **accept;             /* short: more right answers (the answer_text is one too) */
    int n_accept;
    char **reject;             /* short, numeric: answers proven to be judged wrong */
    int n_reject;
    gr_drill_phrase *phrases;  /* short: the course text's words for the answer (right) */
    int n_phrases;
    char *hint;                /* short: the form of an answer, for one that is not known */
    double value;              /* numeric: the answer */
    int decimals;              /* numeric: right is what rounds to value at this many */
    char *explanation;
    char *lesson;              /* "L2.3" */
    char *section;             /* "lab 2 §4", or NULL */
    int line;                  /* where the question starts in its bank (0 if generated) */
    struct gr_drill_worked *worked;   /* generated drills: the worked solution, or NULL */
} gr_drill_question;

/* One bank file. */
typedef struct gr_drill_bank {
    char *name;                /* "masks" */
    char *title;
    char *path;
    gr_drill_question *q;
    int n;
} gr_drill_bank;

/* Load and check the bank at path (its file name, without .yaml, must be its
   bank: name). 0, or -1 with "path:line:column: what is wrong" in err. */
int gr_drill_load(const char *path, gr_drill_bank *out, char *err, size_t errlen);

/* The same from text in memory; path only names it in messages and gives the
   expected bank name. */
int gr_drill_parse(const char *path, const char *text, size_t len, gr_drill_bank *out,
                   char *err, size_t errlen);

/* Free a bank (safe on a zeroed or failed one). */
void gr_drill_bank_free(gr_drill_bank *b);

/* Free one question's fields. */
void gr_drill_question_free(gr_drill_question *q);

/* Every bank in dir (every *.yaml, sorted by name) into *banks (*n of them).
   0, or -1 with the first error in err (what failed to load is freed). */
int gr_drill_load_dir(const char *dir, gr_drill_bank **banks, int *n, char *err, size_t errlen);

void gr_drill_banks_free(gr_drill_bank *banks, int n);

/* ---- answers --------------------------------------------------------------------- */

/* How a line of input answers a question. */
typedef enum gr_drill_verdict {
    GR_DRILL_RIGHT = 0,
    GR_DRILL_WRONG,
    GR_DRILL_BLANK,            /* an empty line: "I don't know", shown the answer */
    GR_DRILL_MALFORMED,        /* not an answer of this kind: asked again */
    GR_DRILL_UNKNOWN,          /* of this kind, but neither accepted nor known to be
                                  wrong (a phrase no form lists, a number short of the
                                  decimals asked): asked once more with a hint */
    GR_DRILL_VERDICTS
} gr_drill_verdict;

/* Judge the answer line (no newline) to q. For GR_DRILL_MALFORMED, why says
   what an answer looks like ("give a, b or c"); for GR_DRILL_UNKNOWN, the hint
   of the form expected. A short answer is wrong only when it is a reject: form
   or "not" before an accepted one; a number, when it does not round to the
   answer (one with fewer decimals than asked that rounds to it at its own is
   GR_DRILL_UNKNOWN). */
gr_drill_verdict gr_drill_judge(const gr_drill_question *q, const char *line, char *why,
                                size_t whylen);

/* Print q as a session asks it: "[no/total] bank, lesson, section", the prompt
   and its choices a), b) ..., every character as written (wrapped at spaces). */
void gr_drill_print_question(FILE *out, const gr_drill_question *q, const char *bank, int no,
                             int total);

/* Print the verdict v on an answer to q (right, wrong, no answer, or not
   recognised twice), the answer, why, and a generated drill's worked solution. */
void gr_drill_print_feedback(FILE *out, const gr_drill_question *q, gr_drill_verdict v);

/* s lower-cased, spaces collapsed, trimmed, a final '.' dropped, into a
   malloc'd string: "  Over the  KEYS. " -> "over the keys". Answers and the
   forms they are matched against are compared so. */
char *gr_drill_normalise(const char *s);

/* Does x round to value at decimals places (the numeric rule)? */
int gr_drill_rounds_to(double x, double value, int decimals);

/* q as shown once: a shallow copy whose choices are q's in the order seed
   gives (a choice question; other kinds are copied as they are), with answer
   moved along. order (q->n_choices entries) holds the copy's choice pointers;
   free neither. The same seed gives the same order; over seeds the right
   choice is equally often at each letter. */
gr_drill_question gr_drill_present(const gr_drill_question *q, uint64_t seed,
                                   char **order);

/* How many choice questions b has; *longest and *shortest get how many of
   them have a right choice at least as long (as short) as every other one. A
   bank where either is more than half its choice questions gives the answer
   away by its length. */
int gr_drill_length_tells(const gr_drill_bank *b, int *longest, int *shortest);

/* ---- generated drills ------------------------------------------------------------ */

/* The kinds of drill libattn generates, the bank "generated". */
enum {
    GR_GEN_WEIGHTS = 0,        /* a weight from scores and a mask */
    GR_GEN_SCORER,             /* which scoring function produced a matrix */
    GR_GEN_ENTROPY,            /* the entropy of a row of weights */
    GR_GEN_TEMPERATURE,        /* the largest weight at temperature 2 */
    GR_GEN_GRADIENT,           /* one component of a softmax gradient */
    GR_GEN_COUNT
};

/* The id of generated kind k: "generated/weights", ... */
const char *gr_drill_gen_id(int k);

/* A fresh drill of kind k from seed into q (free with gr_drill_question_free):
   the same seed gives the same drill, another seed another one. */
void gr_drill_generate(gr_drill_question *q, int k, uint64_t seed);

/* The plausible wrong answers of a generated drill (the mask ignored, a
   neighbouring key, the temperature left out, ...): up to cap values into
   vals with what each gets wrong into names. The generator redraws until
   none of them rounds to the answer. Their count. */
int gr_drill_gen_wrong(const gr_drill_question *q, double *vals, const char **names, int cap);

/* Print q's worked solution, step by step (generated drills; nothing for the
   others). */
void gr_drill_print_worked(FILE *out, const gr_drill_question *q);

/* Free a generated drill's worked solution (gr_drill_question_free calls it). */
void gr_drill_worked_free(struct gr_drill_worked *w);


/* ---- progress: Leitner boxes ------------------------------------------------------- */

#define GR_DRILL_BOXES 5

/* One question's progress. Box 0 is "never asked"; a new question starts in
   box 1, a right answer moves it up one box (at most GR_DRILL_BOXES), a wrong
   or blank one back to box 1. Box b is due again GR_DRILL_GAP(b) sessions after it was last asked:
   1, 2, 4, 8, 16, so missed questions come back sooner. */
typedef struct gr_drill_card {
    char *id;
    int box;
    long last;                 /* the session it was last asked in */
    long right, wrong;
} gr_drill_card;

#define GR_DRILL_GAP(box) (1L << ((box) - 1))

typedef struct gr_drill_progress {
    long sessions;             /* sessions finished so far */
    gr_drill_card *cards;
    int n, cap;
} gr_drill_progress;

/* Where progress lives: $XDG_STATE_HOME/attnlab when that is an absolute path,
   else $HOME/.local/state/attnlab. A malloc'd path, or NULL with err when
   neither is set. */
char *gr_drill_state_dir(char *err, size_t errlen);

/* Read progress from path; a missing file is empty progress. 0, or -1 with
   "path:line: what is wrong" in err. */
int gr_drill_progress_load(const char *path, gr_drill_progress *p, char *err, size_t errlen);

/* Write progress to path atomically, making its folder. 0, or -1 with err. */
int gr_drill_progress_save(const char *path, const gr_drill_progress *p, char *err,
                           size_t errlen);

void gr_drill_progress_free(gr_drill_progress *p);

/* The card of id, or NULL when it was never asked. */
gr_drill_card *gr_drill_card_of(gr_drill_progress *p, const char *id);

/* Record an answer in session: right moves the card up a box, else to box 1. */
void gr_drill_record(gr_drill_progress *p, const char *id, long session, int right);

/* Is the card due in session (never asked counts as due)? */
int gr_drill_due(const gr_drill_card *c, long session);

#endif /* GR_DRILL_H */
