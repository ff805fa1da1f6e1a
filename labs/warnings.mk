# warnings.mk: the one list of warning flags a lab's code is compiled with.
#
# make test in a lab folder (labs/common.mk) and attnlab grade (COMPILE_FLAGS in
# grader/build.c, given the list by the top Makefile as GR_LAB_WARN) both use
# it, so the warnings a student sees at home are the ones the grade report
# shows. It lives in a make file because the lab folders build with make
# alone, before attnlab exists; the grader takes it in when it is built.
# -Werror=implicit-function-declaration: a call to an undeclared function (a
# missing #include, a typo) is a compile error, never a guess at its type.
LAB_WARN := -Wall -Wextra -Wshadow -Werror=implicit-function-declaration
