"""Installs and removes the add-in in Excel, through ``xlwings addin``.

``musterroll addin install`` does what ``xlwings addin install -f FILE`` does
(copy the add-in into Excel's start-up folder, load it; on macOS also install
xlwings' RunPython AppleScript) with a copy of addin/musterroll_addin.xlam
prepared for this machine:

* made from the installed xlwings version: the add-in's VBA and the xlwings
  package must be the same version (on macOS the VBA calls the AppleScript
  ``xlwings-VERSION.applescript``), so when the committed add-in comes from
  another version a fresh one is built first;
* told which Python to run: the add-in's own configuration sheet (``_myaddin.conf``,
  off as xlwings ships it) is switched on (renamed ``myaddin.conf``) with
  ``Interpreter_Win`` or ``Interpreter_Mac`` set to the Python running this command,
  the one Musterroll is installed in. Only ``xl/workbook.xml`` and that sheet's
  XML change; the VBA project is copied as it is.

Excel exists for Windows and macOS only: elsewhere these commands stop with a
clear message (exit code 2).
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

from defusedxml import ElementTree as SafeET

from automation.excel.build import (
    ADDIN_FILE, ADDIN_PATH, AddinError, build_addin, built_from, read_members, write_members, xlwings_version,
)

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONFIG_SHEET = re.compile(r'name="_([A-Za-z0-9_]+\.conf)"')
SUPPORTED = {"win32": "Interpreter_Win", "darwin": "Interpreter_Mac"}


def require_excel_platform(platform: str | None = None) -> str:
    """The interpreter setting of this platform; refuses platforms without Excel."""
    platform = platform or sys.platform
    if platform not in SUPPORTED:
        raise AddinError(
            f"the Excel add-in works with Excel for Windows or macOS; this machine runs {platform}, where Excel "
            "is not available. Refit a workbook here with: musterroll refit BOOK.xlsx")
    return SUPPORTED[platform]


def run_xlwings(*args: str) -> str:
    """Run ``xlwings ARGS`` with this Python; its output, or AddinError if it failed."""
    done = subprocess.run([sys.executable, "-m", "xlwings.cli", *args], capture_output=True, text=True)
    said = "\n".join(part.strip() for part in (done.stdout, done.stderr) if part.strip())
    if done.returncode != 0 or ("Successfully" not in said and args[1] != "status"):
        raise AddinError(f"xlwings {' '.join(args)} did not succeed: {said or f'exit code {done.returncode}'}")
    return said


def _sheet_part(members: dict[str, bytes], sheet_name: str) -> str:
    wb = SafeET.fromstring(members["xl/workbook.xml"])
    rid = next((s.get(f"{{{REL_NS}}}id") for s in wb.iter(f"{{{MAIN_NS}}}sheet") if s.get("name") == sheet_name), None)
    rels = SafeET.fromstring(members["xl/_rels/workbook.xml.rels"])
    target = next((r.get("Target") for r in rels.iter(f"{{{PKG_RELS}}}Relationship") if r.get("Id") == rid), None)
    if not rid or not target:
        raise AddinError(f"the add-in's configuration sheet {sheet_name} has no worksheet part")
    return target.lstrip("/") if target.startswith("/") else "xl/" + target


def _shared_index(members: dict[str, bytes], text: str) -> int:
    sst = SafeET.fromstring(members["xl/sharedStrings.xml"])
    for i, si in enumerate(sst.iter(f"{{{MAIN_NS}}}si")):
        if "".join(t.text or "" for t in si.iter(f"{{{MAIN_NS}}}t")).strip().lower() == text.lower():
            return i
    raise AddinError(f"the add-in's configuration sheet has no {text} setting")


def set_setting(sheet_xml: str, key_index: int, value: str) -> str:
    """The sheet with column B beside the shared string ``key_index`` in column A set to ``value``."""
    key = re.search(rf'<c r="A(\d+)"([^>]*)\bt="s"[^>]*>\s*<v>{key_index}</v>\s*</c>', sheet_xml)
    if key is None:
        raise AddinError("the add-in's configuration sheet does not have the layout this install knows")
    row = key.group(1)
    style = re.search(r'\bs="(\d+)"', key.group(0))
    cell = (f'<c r="B{row}"{f" s={chr(34)}{style.group(1)}{chr(34)}" if style else ""} t="inlineStr">'
            f"<is><t>{escape(value)}</t></is></c>")
    existing = re.compile(rf'<c r="B{row}"(?:[^>]*/>|[^>]*>.*?</c>)', re.S)
    if existing.search(sheet_xml):
        return existing.sub(lambda _: cell, sheet_xml, count=1)
    sheet_xml = sheet_xml[:key.end()] + cell + sheet_xml[key.end():]
    spans = re.compile(rf'(<row r="{row}"[^>]*\bspans=")(\d+):(\d+)"')
    return spans.sub(lambda m: f'{m.group(1)}{m.group(2)}:{max(int(m.group(3)), 2)}"', sheet_xml, count=1)


def configured_copy(source: Path, target: Path, interpreter: str, setting: str) -> Path:
    """``target``: ``source`` with its configuration sheet on and ``setting`` = ``interpreter``."""
    members = read_members(source)
    data = {info.filename: blob for info, blob in members}
    workbook = data["xl/workbook.xml"].decode("utf-8")
    found = CONFIG_SHEET.findall(workbook)
    if len(found) != 1:
        raise AddinError(f"{source}: expected one switched-off configuration sheet (_NAME.conf), found {len(found)}")
    part = _sheet_part(data, f"_{found[0]}")
    sheet = set_setting(data[part].decode("utf-8"), _shared_index(data, setting), interpreter)
    changed = {"xl/workbook.xml": CONFIG_SHEET.sub(lambda m: f'name="{m.group(1)}"', workbook).encode("utf-8"),
               part: sheet.encode("utf-8")}
    write_members(target, [(info, changed.get(info.filename, blob)) for info, blob in members])
    return target


def install(file: Path | None = None, platform: str | None = None) -> str:
    """Install the add-in (``file``, or the committed one) for this machine's Python."""
    setting = require_excel_platform(platform)
    with tempfile.TemporaryDirectory(prefix="musterroll-addin-") as work:
        source = Path(file) if file else ADDIN_PATH
        notes = []
        if file and not source.is_file():
            raise AddinError(f"{source}: no such add-in file")
        if not file and (not source.is_file() or built_from(source) != xlwings_version()):
            notes.append(f"{source.name} was made from xlwings {built_from(source) if source.is_file() else '(missing)'}; "
                         f"built a fresh one from the installed xlwings {xlwings_version()}")
            source = build_addin(Path(work) / "built")
        staged = configured_copy(source, Path(work) / "staged" / ADDIN_FILE, sys.executable, setting)
        said = run_xlwings("addin", "install", "-f", str(staged))
    return "\n".join([*notes, said, f"The ribbon tab Musterroll (button Refit) runs {sys.executable}. "
                                    "Restart Excel if the tab does not show."])


def uninstall(platform: str | None = None) -> str:
    require_excel_platform(platform)
    return run_xlwings("addin", "remove", "-f", ADDIN_FILE)


def status(platform: str | None = None) -> str:
    require_excel_platform(platform)
    return run_xlwings("addin", "status", "-f", ADDIN_FILE)
