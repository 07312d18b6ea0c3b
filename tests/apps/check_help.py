#!/usr/bin/env python3
"""check_help.py APP_BINARY MAIN_CPP: the app's --help describes every option its main.cpp parses (args.flag, text,
integer, real, list, and the short spellings of args.alias), each on its own line with its default, in the layout
every app shares (weft_app::usage_text: the synopsis first, the exit status last). Exit status 0 when it holds."""
import re
import subprocess
import sys

binary, source = sys.argv[1], sys.argv[2]
with open(source) as f:
    code = f.read()
options = sorted(set(re.findall(r'args\.(?:flag|text|integer|real|list)\("(--[a-z0-9-]+)"', code)))
shorts = {long: short[1:] for short, long in re.findall(r'args\.alias\("(--[a-z])", "(--[a-z0-9-]+)"\)', code)}
if not options:
    sys.exit(f"{source}: no options found (the pattern no longer matches the parser's calls?)")
out = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=60)
if out.returncode != 0:
    sys.exit(f"{binary} --help exited {out.returncode}: {out.stderr.strip()}")
lines = out.stdout.splitlines()
app = re.sub(r".*/", "", binary)
problems = []
if not lines or not lines[0].startswith(f"usage: {app} [options]"):
    problems.append(f"the first line is not \"usage: {app} [options] ...\": {lines[:1]}")
if not lines or not lines[-1].startswith("exit status:"):
    problems.append("the last line does not give the exit status")
if "options:" not in lines:
    problems.append("no \"options:\" heading")
for opt in options + ["--help"]:
    spelled = [l for l in lines if re.match(rf"  (-[a-z], )?{re.escape(opt)}( |$)", l)]
    if not spelled:
        problems.append(f"{opt} is parsed but not described")
        continue
    line = spelled[0]
    if opt != "--help" and "(default " not in line:
        problems.append(f"{opt} has no default: {line.strip()}")
    if opt in shorts and not line.startswith(f"  {shorts[opt]}, {opt}"):
        problems.append(f"{opt}'s short form {shorts[opt]} is not shown: {line.strip()}")
if problems:
    sys.exit(f"{app} --help:\n  " + "\n  ".join(problems) + "\n--- its --help:\n" + out.stdout)
print(f"{app} --help: {len(options)} options, each with its default")
