#!/usr/bin/env python3
"""One table row from a GoogleTest program's output (run.sh), or the total line of the rows.

  summarize.py RUN_LOG NAME EXIT_STATUS   -> | NAME | yes | run | passed | failed | skipped | result | first failure |
  summarize.py --total ROW ...            -> | total | compiled/files | ... | passing files | |

Counts come from the per-test lines before GoogleTest's closing summary, so a program that crashed or timed out
in a test still counts the tests it finished and the one it died in as failed. A file passes (result "pass") only
when it ran at least one test, none failed, and the program exited 0: one that crashes or exits non-zero after its
last test, or runs no test at all, is "FAIL" with the reason; except that a file listed in no-tests.txt (it defines no
test in this configuration, under Kokkos too) passes when it exits 0 having run none."""
import os
import re
import sys


def no_test_reasons():
    """no-tests.txt beside this script: the files that define no test in this configuration, and why."""
    reasons = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "no-tests.txt")
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, _, why = line.strip().partition(" ")
                reasons[name] = why.strip()
    return reasons


def row(log, name, status):
    run = ok = skipped = 0
    failed_names = []
    current = None
    with open(log, errors="replace") as f:
        for line in f:
            if re.match(r"\[=+\] \d+ tests? from .* ran\.", line):
                break
            m = re.match(r"\[ RUN      \] (\S+)", line)
            if m:
                run += 1
                current = m.group(1)
                continue
            if line.startswith("[       OK ]"):
                ok += 1
                current = None
            elif line.startswith("[  SKIPPED ]"):
                skipped += 1
                current = None
            elif line.startswith("[  FAILED  ]") and current:
                failed_names.append(current)
                current = None
    note = ""
    if current:  # the program ended inside a test
        failed_names.append(current)
        note = {124: " (timed out)"}.get(status, f" (ended with status {status})")
    elif status != 0 and not failed_names:
        note = ("timed out after its last test" if status == 124 else
                f"exit status {status} after its last test")
    elif status == 0 and run == 0:
        note = "no test ran"
    none_by_design = status == 0 and run == 0 and name in no_test_reasons()
    if none_by_design:
        note = "no test in this configuration: " + no_test_reasons()[name]
    failed = run - ok - skipped
    first = (failed_names[0] + note) if failed_names else note
    extra = f" and {len(failed_names) - 1} more" if len(failed_names) > 1 else ""
    result = "pass" if status == 0 and (run > 0 or none_by_design) and failed == 0 else "FAIL"
    return f"| {name} | yes | {run} | {ok} | {failed} | {skipped} | {result} | {first}{extra} |"


def total(rows):
    files = len(rows)
    compiled = run = ok = failed = skipped = passing = 0
    for r in rows:
        cells = [c.strip() for c in r.strip().strip("|").split("|")]
        if cells[1] != "yes":
            continue
        compiled += 1
        run, ok, failed, skipped = (run + int(cells[2]), ok + int(cells[3]), failed + int(cells[4]),
                                    skipped + int(cells[5]))
        passing += cells[6] == "pass"
    return (f"| **total** | {compiled}/{files} | {run} | {ok} | {failed} | {skipped} | {passing}/{files} pass | |")


if __name__ == "__main__":
    if sys.argv[1] == "--total":
        print(total(sys.argv[2:]))
    else:
        print(row(sys.argv[1], sys.argv[2], int(sys.argv[3])))
