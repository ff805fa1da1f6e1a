/* modules.c: every lab module, indexed by lab number - 1. */
#include "labmod.h"

#include <string.h>

const gr_lab_module *const gr_lab_modules[GR_N_LABS] = {
    &gr_lab01_module, &gr_lab02_module, &gr_lab03_module, &gr_lab04_module,
    &gr_lab05_module, &gr_lab06_module, &gr_lab07_module, &gr_lab08_module,
    &gr_lab09_module, &gr_lab10_module,
};

const gr_misconception *gr_misconception_of(int lab, const char *id)
{
    if (lab < 1 || lab > GR_N_LABS || !id)
        return NULL;
    const gr_lab_module *m = gr_lab_modules[lab - 1];
    for (int i = 0; i < m->n_misconceptions; i++)
        if (strcmp(m->misconceptions[i].id, id) == 0)
            return &m->misconceptions[i];
    return NULL;
}
