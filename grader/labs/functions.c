/* functions.c: every student function of every lab, the handout section that
 * teaches it, and the earlier functions of its lab it calls (see labmod.h).
 * The reports use it to point a wrong answer at its section and to say "fix X
 * first" when a function fails through one it calls. */
#include "labmod.h"

#include <string.h>

#define HANDOUT(dir, sec) "labs/" dir "/README.md, section " sec

const gr_lab_function gr_lab_functions[] = {
    {1, "lab_dot_scores",          HANDOUT("lab01-scores", "2"),   {NULL}},
    {1, "lab_scaled_dot_scores",   HANDOUT("lab01-scores", "3"),   {NULL}},
    {2, "lab_softmax",             HANDOUT("lab02-softmax", "2"),  {NULL}},
    {2, "lab_causal_mask",         HANDOUT("lab02-softmax", "4"),  {NULL}},
    {2, "lab_padding_mask",        HANDOUT("lab02-softmax", "4"),  {NULL}},
    {2, "lab_bool_mask",           HANDOUT("lab02-softmax", "4"),  {NULL}},
    {2, "lab_temperature",         HANDOUT("lab02-softmax", "6"),  {NULL}},
    {3, "lab_general_scores",      HANDOUT("lab03-learned", "3"),  {NULL}},
    {3, "lab_additive_scores",     HANDOUT("lab03-learned", "4"),  {NULL}},
    {4, "lab_row_entropy",         HANDOUT("lab04-entropy", "2"),  {NULL}},
    {4, "lab_entropy_experiment",  HANDOUT("lab04-entropy", "3"),  {"lab_row_entropy", NULL}},
    {5, "lab_attend_premask",      HANDOUT("lab05-masking", "2"),  {NULL}},
    {5, "lab_attend_postmask",     HANDOUT("lab05-masking", "3"),  {NULL}},
    {5, "lab_masking_experiment",  HANDOUT("lab05-masking", "5"),
        {"lab_attend_premask", "lab_attend_postmask"}},
    {6, "lab_alibi_slopes",        HANDOUT("lab06-biases", "3"),   {NULL}},
    {6, "lab_alibi_bias",          HANDOUT("lab06-biases", "3"),   {"lab_alibi_slopes", NULL}},
    {6, "lab_t5_bucket",           HANDOUT("lab06-biases", "4"),   {NULL}},
    {6, "lab_relpos_bias",         HANDOUT("lab06-biases", "4"),   {"lab_t5_bucket", NULL}},
    {6, "lab_dropout",             HANDOUT("lab06-biases", "5"),   {NULL}},
    {6, "lab_attention_output",    HANDOUT("lab06-biases", "5"),   {NULL}},
    {7, "lab_online_logsumexp",    HANDOUT("lab07-online", "3"),   {NULL}},
    {7, "lab_online_attention",    HANDOUT("lab07-online", "4"),   {NULL}},
    {8, "lab_softmax_backward",    HANDOUT("lab08-gradients", "2"), {NULL}},
    {8, "lab_gradient_experiment", HANDOUT("lab08-gradients", "4"), {"lab_softmax_backward", NULL}},
    {9, "lab_causal_mask_aligned", HANDOUT("lab09-decoding", "3"), {NULL}},
    {9, "lab_sliding_window_mask", HANDOUT("lab09-decoding", "4"), {NULL}},
    {9, "lab_sink_softmax",        HANDOUT("lab09-decoding", "5"), {NULL}},
    {9, "lab_postmask_backward",   HANDOUT("lab09-decoding", "6"), {NULL}},
    {10, "lab_head_weights",       HANDOUT("lab10-heads", "2"),    {NULL}},
    {10, "lab_gqa_weights",        HANDOUT("lab10-heads", "4"),    {"lab_head_weights", NULL}},
    {10, "lab_head_average",       HANDOUT("lab10-heads", "3"),    {NULL}},
    {10, "lab_extract_head",       HANDOUT("lab10-heads", "5"),    {NULL}},
};

const int gr_n_lab_functions = (int)(sizeof gr_lab_functions / sizeof gr_lab_functions[0]);

const gr_lab_function *gr_lab_function_named(int lab, const char *name, size_t len)
{
    for (int k = 0; k < gr_n_lab_functions; k++) {
        const gr_lab_function *f = &gr_lab_functions[k];
        if (f->lab == lab && strlen(f->name) == len && strncmp(f->name, name, len) == 0)
            return f;
    }
    return NULL;
}

const gr_lab_function *gr_lab_function_of(int lab, const char *message)
{
    if (!message)
        return NULL;
    /* feedback opens with the call: "lab_softmax(W, S, ...)" or "lab_softmax still ..." */
    return gr_lab_function_named(lab, message, strcspn(message, "(:, \n"));
}
