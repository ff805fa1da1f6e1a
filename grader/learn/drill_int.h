/* drill_int.h: what the drill modules share and nothing else may call. */
#ifndef GR_DRILL_INT_H
#define GR_DRILL_INT_H

#include "learn/drill.h"
#include "sup_yamlread.h"

/* Evaluate the compute: mapping at node v (drill_compute.c) into *value: 0,
   or -1 with the error set on d. */
int gr_drill_compute(yr_doc *d, const yaml_node_t *v, double *value);

#endif /* GR_DRILL_INT_H */
