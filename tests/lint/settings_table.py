#!/usr/bin/env python3
"""usage: settings_table.py README.md PRINT_SETTINGS_TABLE [--write]

The README's runtime settings table (between the markers below) must be the registry's (core/src/settings.cpp) as
print_settings_table prints it; --write puts it there instead."""
import subprocess
import sys

BEGIN = "<!-- settings table: generated from core/src/settings.cpp by tests/lint/settings_table.py --write -->\n"
END = "<!-- end of the settings table -->\n"

readme, exe = sys.argv[1], sys.argv[2]
table = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
text = open(readme).read()
if BEGIN not in text or END not in text:
    sys.exit(f"settings_table: {readme} has no settings table markers ({BEGIN.strip()} ... {END.strip()})")
head, rest = text.split(BEGIN, 1)
current, tail = rest.split(END, 1)
if "--write" in sys.argv[3:]:
    with open(readme, "w") as f:
        f.write(head + BEGIN + table + END + tail)
    print(f"settings_table: wrote {table.count(chr(10)) - 2} settings into {readme}")
elif current != table:
    print("settings_table: the README's table differs from the registry; run\n"
          f"  python3 tests/lint/settings_table.py README.md {exe} --write\nregistry:\n{table}README:\n{current}")
    sys.exit(1)
else:
    print(f"settings_table: the README lists the {table.count(chr(10)) - 2} registered settings")
