"""Registering ``musterroll addin`` (and ``calc``) costs the other commands nothing:
building the whole command line imports neither the add-in build nor the
network modules its XML helpers pull in, and a table look-up does not even
build the other commands' options."""
from __future__ import annotations

import json
import subprocess
import sys

HEAVY = {"automation.excel.build", "automation.excel.install", "automation.calc.build", "http.client", "ssl",
         "urllib.request", "xml.sax.saxutils", "subprocess", "zipfile"}


def modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_a_table_look_up_imports_no_add_in_build_and_no_network_module():
    loaded = modules_after("import contextlib, io\nfrom automation.cli import main\n"
                           "with contextlib.redirect_stdout(io.StringIO()):\n    assert main(['odds', 'abtf.escape']) == 0")
    assert not loaded & HEAVY
    assert "automation.excel.cli" not in loaded  # only the look-up's own options are built


def test_the_whole_command_line_registers_the_add_in_without_its_build():
    loaded = modules_after("from automation.cli import build_parser\n"
                           "assert 'addin' in build_parser()._subparsers._group_actions[0].choices")
    assert not loaded & HEAVY
    assert "automation.excel.cli" in loaded  # the command is registered all the same
