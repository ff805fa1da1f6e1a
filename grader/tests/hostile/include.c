/* include.c (lab 1): the whole lab file is one directive, put by the suite in
   place of the line below, that pulls in a file from outside the submission:
   the lab's own solution (full marks if it works), the grader's rubric, or a
   secret whose text would show in the compiler's errors. */
@ARG@
