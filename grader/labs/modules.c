/* modules.c: every lab module, indexed by lab number - 1. */
#include "labmod.h"

const gr_lab_module *const gr_lab_modules[GR_N_LABS] = {
    &gr_lab01_module, &gr_lab02_module, &gr_lab03_module, &gr_lab04_module,
    &gr_lab05_module, &gr_lab06_module, &gr_lab07_module, &gr_lab08_module,
    &gr_lab09_module, &gr_lab10_module,
};
