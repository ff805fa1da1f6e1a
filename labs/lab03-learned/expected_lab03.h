/* expected_lab03.h: what test_lab03.c expects on random inputs:
 * the plain dot scores W = I must give. Made by `make kit-data` (grader/tools/kitdata.c, which does not ship) in
 * double precision from the same seeded inputs the tests draw: data, not
 * code, so the tests hold no reference implementation. Do not edit by
 * hand; change the test and kitdata.c together, then run make kit-data. */
#ifndef EXPECTED_LAB03_H
#define EXPECTED_LAB03_H

/* test_general_identity_random: the dot scores Q K^T for B = 2, Tq = 3, Tk = 4, d = 5, seed 3 */
static const float lab03_identity_scores[24] = {
    -2.83677721f, -1.7392174f, 0.117447026f, -2.85254288f, 1.90597701f, 0.884879708f,
    0.671308815f, -0.815198958f, -2.39983487f, 1.84763682f, 0.390592933f, 1.91327775f,
    -0.402214944f, 0.153473049f, 1.12766361f, -1.30218065f, -2.79585767f, 2.16374993f,
    0.691443264f, 3.61482239f, -0.910660684f, -0.0251885243f, -0.621433973f, -1.76766884f,
};

#endif
