"""Registering ``musterroll addin`` (and ``calc``) costs the other commands nothing:
a table look-up imports neither the add-in build nor the network modules its XML
helpers pull in."""
from __future__ import annotations

import json
import subprocess
import sys


def modules_after(argv: list[str]) -> set[str]:
    code = ("import contextlib, io, json, sys\nfrom automation.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n    code = main(%r)\n"
            "print(json.dumps([code, sorted(sys.modules)]))" % (argv,))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stderr
    return set(modules)


def test_a_table_look_up_imports_no_add_in_build_and_no_network_module():
    loaded = modules_after(["odds", "abtf.escape"])
    assert not loaded & {"automation.excel.build", "automation.excel.install", "automation.calc.build",
                         "http.client", "ssl", "urllib.request", "xml.sax.saxutils", "subprocess", "zipfile"}
    assert "automation.excel.cli" in loaded  # the command is registered all the same
