#!/bin/sh
# usage: expect_abort.sh PROGRAM [ARGS...]
# Runs PROGRAM with its stderr on stdout and passes only when it ended by SIGABRT, as Weft's in-kernel aborts and
# the emulator's reports end: exit status 0 for that, 1 (with a line starting "expect_abort:") for any other ending.
# Use it with ctest's PASS_REGULAR_EXPRESSION for the message and FAIL_REGULAR_EXPRESSION "expect_abort:" (a pass
# regular expression makes ctest ignore the exit status).
"$@" 2>&1
rc=$?
if [ "$rc" -ne 134 ]; then
  echo "expect_abort: $1 ended with status $rc, not by SIGABRT (status 134)"
  exit 1
fi
exit 0
