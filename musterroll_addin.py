"""Entry point of the Musterroll Excel add-in, musterroll_addin.xlam.

The add-in's Refit button calls its VBA RunMain, which runs
``import musterroll_addin; musterroll_addin.main()`` (the module is named after
the add-in file). ``main`` saves the workbook clicked in, runs the refit (or,
on a dice desk sheet, the desk's job) on the file as the command line does and
opens the workbook again; see automation.excel.live.

If Musterroll itself cannot be imported (a broken or moved installation), a
dialog says so: on macOS RunPython runs Python in the background, where nothing
written to stderr is ever seen.
"""
from __future__ import annotations

import subprocess
import sys


def main() -> None:
    try:
        from automation.excel.live import main as click
    except Exception as exc:
        _tell(f"The Musterroll add-in cannot start: {type(exc).__name__}: {exc}.\nRun `musterroll addin install` "
              "again from the Musterroll folder (with its .venv), then restart Excel.")
        return
    click()


def _tell(text: str) -> None:
    if sys.platform == "darwin":
        script = "on run argv\ndisplay alert \"Musterroll\" message (item 1 of argv) as critical\nend run"
        if subprocess.run(["osascript", "-e", script, text], capture_output=True).returncode == 0:
            return
    elif sys.platform == "win32":
        import ctypes

        if ctypes.windll.user32.MessageBoxW(None, text, "Musterroll", 0x10 | 0x40000):
            return
    print(text, file=sys.stderr)
    raise SystemExit(1)


__all__ = ["main"]
