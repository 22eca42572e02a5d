"""Installs and removes the add-in by writing Excel's start-up folder directly.

Excel opens every add-in in the user's start-up folder when it starts:

* Windows: ``%APPDATA%\\Microsoft\\Excel\\XLSTART``;
* macOS: ``~/Library/Group Containers/UBF8T346G9.Office/User Content.localized/
  Startup.localized/Excel``, and RunPython also needs xlwings' AppleScript
  ``xlwings-VERSION.applescript`` in ``~/Library/Application Scripts/com.microsoft.Excel``
  (what ``xlwings runpython install`` copies).

``musterroll addin install`` writes a copy of addin/musterroll_addin.xlam there,
with the add-in's own configuration sheet (``_myaddin.conf``, off as xlwings
ships it) switched on (renamed ``myaddin.conf``) and ``Interpreter_Win`` or
``Interpreter_Mac`` set to the Python running the command. Only
``xl/workbook.xml`` and that sheet's XML change; the VBA project is copied as it is.

Excel is never started (``xlwings addin install`` starts a hidden Excel only to
ask for the folder, and hangs with no message when a first-run or sign-in dialog
of a never-started Microsoft 365 blocks it). Instead, an Office that has never
run on this account is refused with the advice to start Excel once first.

The add-in's VBA calls the xlwings Python package of the same version (on macOS
through ``xlwings-VERSION.applescript``), so the install refuses an xlwings other
than the one the committed add-in was built from: pyproject.toml pins it.

Excel exists for Windows and macOS only: elsewhere these commands stop with a
clear message (exit code 2).
"""
from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from defusedxml import ElementTree as SafeET

from automation.excel.build import (
    ADDIN_FILE, ADDIN_PATH, AddinError, built_from, read_members, write_members, xlwings_version,
)

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONFIG_SHEET = re.compile(r'name="(_?)([A-Za-z0-9_]+\.conf)"')
SUPPORTED = {"win32": "Interpreter_Win", "darwin": "Interpreter_Mac"}
OFFICE_CONTAINER = "Library/Group Containers/UBF8T346G9.Office"
MAC_STARTUP = f"{OFFICE_CONTAINER}/User Content.localized/Startup.localized/Excel"
MAC_SCRIPTS = "Library/Application Scripts/com.microsoft.Excel"
# The Mac VBA puts the interpreter unquoted into a shell command, inside a
# "|"-separated parameter string, after AppleScript's POSIX path of "...".
MAC_SAFE = re.compile(r"/[A-Za-z0-9/._+@,=~-]+")
# Windows quotes it for cmd.exe, which still expands %VAR% and ends at a quote.
WIN_UNSAFE = re.compile(r'["%\x00-\x1f]')


@dataclass(frozen=True)
class Place:
    """Where the add-in (and on macOS the AppleScript) go for one user."""

    platform: str
    startup: Path
    office_ran: Path
    scripts: Path | None

    @classmethod
    def of(cls, platform: str | None = None, env: dict[str, str] | None = None) -> "Place":
        platform = require_excel_platform(platform)
        env = dict(os.environ if env is None else env)
        if platform == "win32":
            appdata = env.get("APPDATA")
            if not appdata:
                raise AddinError("APPDATA is not set, so Excel's start-up folder (%APPDATA%\\Microsoft\\Excel\\"
                                 "XLSTART) cannot be found; log on as the user who runs Excel")
            excel = Path(appdata) / "Microsoft" / "Excel"
            return cls(platform, excel / "XLSTART", excel, None)
        home = env.get("HOME")
        if not home:
            raise AddinError("HOME is not set, so Excel's start-up folder cannot be found")
        return cls(platform, Path(home) / MAC_STARTUP, Path(home) / OFFICE_CONTAINER, Path(home) / MAC_SCRIPTS)

    @property
    def setting(self) -> str:
        return SUPPORTED[self.platform]

    @property
    def addin(self) -> Path:
        return self.startup / ADDIN_FILE

    def script_file(self, version: str) -> Path | None:
        return None if self.scripts is None else self.scripts / f"xlwings-{version}.applescript"


def require_excel_platform(platform: str | None = None) -> str:
    """The platform, if Excel runs there; refuses platforms without Excel."""
    platform = platform or sys.platform
    if platform not in SUPPORTED:
        raise AddinError(
            f"the Excel add-in works with Excel for Windows or macOS; this machine runs {platform}, where Excel "
            "is not available. Refit a workbook here with: musterroll refit BOOK.xlsx")
    return platform


def interpreter_problem(path: str, platform: str) -> str | None:
    """Why the add-in's VBA could not run ``path`` on ``platform`` (None: it can)."""
    if platform == "darwin":
        if not MAC_SAFE.fullmatch(path):
            bad = sorted({c for c in path if not re.fullmatch(r"[A-Za-z0-9/._+@,=~-]", c)})
            return (f"{path}: the Mac add-in passes the Python path unquoted to a shell, so it may hold only "
                    f"letters A-Z, digits and / . _ + @ , = ~ -; it holds {' '.join(repr(c) for c in bad)}. "
                    "Put Musterroll (and its .venv) in a folder whose path has no spaces or accents, "
                    "e.g. ~/musterroll, then run bash scripts/setup.sh and this command again there")
        return None
    if WIN_UNSAFE.search(path):
        return (f"{path}: the Windows add-in passes the Python path to cmd.exe in double quotes, so it may not "
                "hold a double quote, a percent sign or control characters. Put Musterroll in a folder without "
                "them, then run the setup and this command again there")
    if not re.match(r"^([A-Za-z]:\\|\\\\)", path):
        return f"{path}: the Windows add-in needs the Python path to start with a drive (C:\\...) or \\\\server"
    return None


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
        raise AddinError(f"{source}: expected one configuration sheet (_NAME.conf), found {len(found)}")
    part = _sheet_part(data, "".join(found[0]))
    sheet = set_setting(data[part].decode("utf-8"), _shared_index(data, setting), interpreter)
    changed = {"xl/workbook.xml": CONFIG_SHEET.sub(lambda m: f'name="{m.group(2)}"', workbook).encode("utf-8"),
               part: sheet.encode("utf-8")}
    write_members(target, [(info, changed.get(info.filename, blob)) for info, blob in members])
    return target


def configured_interpreter(path: Path, setting: str) -> str | None:
    """The interpreter an installed add-in runs (None if it names none)."""
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(str(path))
        rows = book.get_sheet_by_index(0).to_python()
    except Exception:
        return None
    return next((str(r[1]) for r in rows if len(r) > 1 and str(r[0]).lower() == setting.lower() and r[1]), None)


def _replace(source: Path, target: Path) -> None:
    """Copy ``source`` over ``target`` in one step, or say why Excel stops it."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".~mr-", suffix=target.suffix, dir=target.parent)
        os.close(fd)
        try:
            shutil.copyfile(source, tmp)
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except PermissionError:
        raise AddinError(f"{target}: cannot be written while Excel has it open; quit Excel, then run this "
                         "command again") from None
    except OSError as exc:
        raise AddinError(f"{target}: cannot be written ({exc.strerror or exc})") from None


def install(file: Path | None = None, platform: str | None = None, env: dict[str, str] | None = None,
            python: str | None = None) -> str:
    """Install the add-in (``file``, or the committed one) for ``python`` (default: this one)."""
    place = Place.of(platform, env)
    python = python or sys.executable
    if problem := interpreter_problem(python, place.platform):
        raise AddinError(problem)
    version = xlwings_version()
    source = Path(file) if file else ADDIN_PATH
    if not source.is_file():
        raise AddinError(f"{source}: no such add-in file")
    made_from = built_from(source)
    if made_from != version:
        raise AddinError(f"{source.name} was built from xlwings {made_from or '(unknown)'}, but xlwings {version} "
                         f"is installed; their VBA and Python must match. Install the pinned version "
                         f"(pip install -e . in the Musterroll folder) or rebuild and test the add-in "
                         f"(musterroll addin build)")
    if not place.office_ran.is_dir():
        raise AddinError(f"Excel has not been started on this account yet ({place.office_ran} is missing). "
                         "Start Excel once, get past its first-run and sign-in windows, quit it, then run "
                         "musterroll addin install again")
    lines = []
    with tempfile.TemporaryDirectory(prefix="musterroll-addin-") as work:
        staged = configured_copy(source, Path(work) / ADDIN_FILE, python, place.setting)
        _replace(staged, place.addin)
    lines.append(f"installed {place.addin}")
    script = place.script_file(version)
    if script is not None:
        import xlwings

        _replace(Path(xlwings.__file__).with_name(script.name), script)
        lines.append(f"installed {script} (xlwings' RunPython for the Mac)")
    lines.append(f"The ribbon tab Musterroll (button Refit) runs {python}. Quit Excel if it is running and start "
                 "it again: the tab shows once Excel starts.")
    return "\n".join(lines)


def uninstall(platform: str | None = None, env: dict[str, str] | None = None) -> str:
    place = Place.of(platform, env)
    if not place.addin.exists():
        raise AddinError(f"the add-in is not installed ({place.addin} is not there)")
    try:
        place.addin.unlink()
    except PermissionError:
        raise AddinError(f"{place.addin}: cannot be removed while Excel has it open; quit Excel, then run this "
                         "command again") from None
    note = (f"; {place.scripts} keeps xlwings' AppleScript, which other xlwings add-ins may use"
            if place.scripts is not None else "")
    return f"removed {place.addin}{note}. Restart Excel: the Musterroll tab is gone."


def status(platform: str | None = None, env: dict[str, str] | None = None) -> str:
    place = Place.of(platform, env)
    if not place.addin.exists():
        return f"The add-in is not installed ({place.addin} is not there)."
    lines = [f"installed: {place.addin}", f"built from xlwings {built_from(place.addin) or '(unknown)'}; "
                                          f"installed xlwings {xlwings_version()}",
             f"runs {configured_interpreter(place.addin, place.setting) or '(no interpreter set)'}"]
    script = place.script_file(built_from(place.addin) or xlwings_version())
    if script is not None:
        lines.append(f"{script}: {'present' if script.exists() else 'MISSING: run musterroll addin install'}")
    return "\n".join(lines)
