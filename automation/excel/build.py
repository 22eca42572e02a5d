"""Builds the Musterroll Excel add-in from xlwings' custom add-in.

``xlwings quickstart NAME --addin --ribbon`` writes xlwings' BSD-licensed custom
add-in as NAME.xlam: a ribbon (customUI) whose button calls the VBA procedure
``RunMain``, which runs ``import NAME; NAME.main()`` where NAME is the add-in's
file name without its extension. This module runs that command for
``musterroll_addin``, then edits the package at zip level:

* ``customUI/customUI.xml``: the tab becomes "Musterroll", its group "Campaign",
  the button a large "Refit" whose ``onAction`` (the route to RunMain) is kept;
* ``docProps/core.xml``: title "Musterroll" (what Excel's Add-ins dialog lists)
  and a description naming the xlwings version the add-in was made from.

Every other part, ``xl/vbaProject.bin`` above all, is copied unchanged, so the
VBA is exactly what that xlwings version ships. The top-level module
``musterroll_addin`` (part of the distribution) holds ``main``.

Rebuild after upgrading xlwings: ``musterroll addin build`` or
``python -m automation.excel.build`` (writes addin/musterroll_addin.xlam).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

from defusedxml import ElementTree as SafeET

from automation.errors import MusterrollError
from automation.excel.names import ADDIN_DIR, ADDIN_FILE, ADDIN_NAME, ADDIN_PATH

__all__ = ["ADDIN_DIR", "ADDIN_FILE", "ADDIN_NAME", "ADDIN_PATH", "AddinError", "build_addin", "built_from"]
TAB_LABEL, GROUP_LABEL, BUTTON_LABEL = "Musterroll", "Campaign", "Refit"
SUPERTIP = ("Runs the refit phase on the active campaign workbook and adds the new dated sheets; on a dice "
            "desk sheet (Roll requests or a tracker) resolves it instead (BOOK.key must sit beside the workbook).")
UI_RELS = ("http://schemas.microsoft.com/office/2006/relationships/ui/extensibility",
           "http://schemas.microsoft.com/office/2007/relationships/ui/extensibility")
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
VBA_PART = "xl/vbaProject.bin"
CORE_PART = "docProps/core.xml"
QUOTE = {'"': "&quot;"}
VERSION_NOTE = re.compile(r"built from the xlwings ([0-9][^\s<]*) custom add-in")


class AddinError(MusterrollError):
    """The add-in cannot be built, installed or removed (the message says why)."""


@dataclass(frozen=True)
class Ribbon:
    """What the add-in's ribbon offers: its tab, group and the button's route."""

    tab: str
    group: str
    button: str
    size: str
    on_action: str


def xlwings_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("xlwings")
    except PackageNotFoundError:
        raise AddinError("xlwings is not installed: pip install xlwings (the add-in is built from it)") from None


def quickstart_addin(workdir: Path) -> Path:
    """Run ``xlwings quickstart musterroll_addin --addin --ribbon`` in ``workdir``
    and return the .xlam it made."""
    cmd = [sys.executable, "-m", "xlwings.cli", "quickstart", ADDIN_NAME, "--addin", "--ribbon"]
    done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    made = Path(workdir) / ADDIN_NAME / ADDIN_FILE
    if done.returncode != 0 or not made.is_file():
        said = (done.stderr or done.stdout).strip() or f"exit code {done.returncode}"
        raise AddinError(f"xlwings quickstart {ADDIN_NAME} --addin --ribbon failed: {said}")
    return made


def read_members(path: Path) -> list[tuple[zipfile.ZipInfo, bytes]]:
    try:
        with zipfile.ZipFile(path) as z:
            return [(info, z.read(info)) for info in z.infolist()]
    except (OSError, zipfile.BadZipFile) as exc:
        raise AddinError(f"{path}: not a readable add-in file ({exc})") from None


def write_members(path: Path, members: list[tuple[zipfile.ZipInfo, bytes]]) -> None:
    """Write ``members`` in their order, with their names and dates, deflated;
    the file appears at ``path`` in one step."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".~build-", suffix=".xlam", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
            for info, data in members:
                fresh = zipfile.ZipInfo(info.filename, info.date_time)
                fresh.compress_type = zipfile.ZIP_DEFLATED
                fresh.external_attr = info.external_attr
                out.writestr(fresh, data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def customui_part(members: list[tuple[zipfile.ZipInfo, bytes]]) -> str:
    """The part the package relationships name as the ribbon (customUI)."""
    rels = dict((i.filename, d) for i, d in members).get("_rels/.rels")
    if rels is None:
        raise AddinError("the xlwings add-in has no package relationships (_rels/.rels)")
    for rel in SafeET.fromstring(rels).iter(f"{{{PKG_RELS}}}Relationship"):
        if rel.get("Type") in UI_RELS:
            return (rel.get("Target") or "").lstrip("/")
    raise AddinError("the xlwings add-in has no ribbon (customUI part); was it made with --ribbon?")


def _run_main_button(root: ET.Element) -> tuple[ET.Element, ET.Element, ET.Element]:
    """(tab, group, button) of the one button whose onAction is a RunMain procedure."""
    ns = root.tag[1:].partition("}")[0]
    parents = {child: parent for parent in root.iter() for child in parent}
    hits = [b for b in root.iter(f"{{{ns}}}button") if (b.get("onAction") or "").rpartition(".")[2] == "RunMain"]
    if len(hits) != 1:
        raise AddinError(f"the xlwings ribbon has {len(hits)} buttons calling RunMain; exactly one was expected")
    button = hits[0]
    group = parents[button]
    tab = parents.get(group)
    if group.tag != f"{{{ns}}}group" or tab is None or tab.tag != f"{{{ns}}}tab":
        raise AddinError("the xlwings ribbon's RunMain button is not in a group of a tab")
    return tab, group, button


def relabel_ribbon(xml: bytes) -> bytes:
    """The customUI with a "Musterroll" tab holding one large "Refit" button
    that keeps the RunMain ``onAction`` of xlwings' ribbon."""
    root = SafeET.fromstring(xml)
    ns = root.tag[1:].partition("}")[0]
    tab, group, button = _run_main_button(root)
    tab.set("id", "musterrollTab")
    tab.set("label", TAB_LABEL)
    group.set("id", "musterrollCampaign")
    group.set("label", GROUP_LABEL)
    for other in [c for c in group if c is not button]:
        group.remove(other)
    button.set("id", "musterrollRefit")
    button.set("label", BUTTON_LABEL)
    button.set("size", "large")
    button.set("screentip", "Refit the campaign")
    button.set("supertip", SUPERTIP)
    text = _serialise(root, ns, f' xmlns="{escape(ns, QUOTE)}"')
    return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text + "\n").encode("utf-8")


def _serialise(element: ET.Element, ns: str, declare: str = "", depth: int = 0) -> str:
    """customUI markup: elements of one namespace with plain attributes and no text."""
    if not element.tag.startswith(f"{{{ns}}}") or any(k.startswith("{") for k in element.attrib) \
            or (element.text or "").strip():
        raise AddinError(f"the xlwings ribbon holds markup this build does not know: {element.tag}")
    tag = element.tag.partition("}")[2]
    attrs = "".join(f' {k}="{escape(v, QUOTE)}"' for k, v in element.attrib.items())
    pad = "  " * depth
    if not len(element):
        return f"{pad}<{tag}{declare}{attrs}/>"
    inner = "\n".join(_serialise(child, ns, "", depth + 1) for child in element)
    return f"{pad}<{tag}{declare}{attrs}>\n{inner}\n{pad}</{tag}>"


def describe_properties(xml: bytes, xlwings: str) -> bytes:
    """core.xml with the title Excel's Add-ins dialog shows and the xlwings version."""
    text = xml.decode("utf-8")
    note = f"Musterroll refit ribbon, built from the xlwings {xlwings} custom add-in"
    for tag, value in (("dc:title", TAB_LABEL), ("dc:description", note)):
        element = re.compile(rf"<{tag}\s*/>|<{tag}>[^<]*</{tag}>")
        if not element.search(text):
            raise AddinError(f"the xlwings add-in's {CORE_PART} has no <{tag}> element")
        text = element.sub(f"<{tag}>{value}</{tag}>", text, count=1)
    return text.encode("utf-8")


def ribbon_of(path: Path) -> Ribbon:
    """The ribbon of an add-in file, as Excel would show it."""
    members = read_members(path)
    part = customui_part(members)
    data = dict((i.filename, d) for i, d in members)[part]
    tab, group, button = _run_main_button(SafeET.fromstring(data))
    return Ribbon(tab.get("label", ""), group.get("label", ""), button.get("label", ""), button.get("size", ""),
                  button.get("onAction", ""))


def built_from(path: Path) -> str | None:
    """The xlwings version an add-in file was built from (None if unknown)."""
    data = dict((i.filename, d) for i, d in read_members(path)).get(CORE_PART, b"")
    m = VERSION_NOTE.search(data.decode("utf-8", "replace"))
    return m.group(1) if m else None


def build_addin(out_dir: Path = ADDIN_DIR) -> Path:
    """Make ``out_dir/musterroll_addin.xlam`` from the installed xlwings' custom add-in."""
    version = xlwings_version()
    with tempfile.TemporaryDirectory(prefix="musterroll-addin-") as work:
        members = read_members(quickstart_addin(Path(work)))
    part = customui_part(members)
    names = [i.filename for i, _ in members]
    if VBA_PART not in names or CORE_PART not in names:
        raise AddinError(f"the xlwings add-in lacks {VBA_PART} or {CORE_PART}")
    edited = [(info, relabel_ribbon(data) if info.filename == part
               else describe_properties(data, version) if info.filename == CORE_PART else data)
              for info, data in members]
    target = Path(out_dir) / ADDIN_FILE
    write_members(target, edited)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m automation.excel.build", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ADDIN_DIR), help=f"folder for {ADDIN_FILE} (default: {ADDIN_DIR})")
    args = parser.parse_args(argv)
    try:
        path = build_addin(Path(args.out))
    except MusterrollError as exc:
        print(f"musterroll: {exc}", file=sys.stderr)
        return exc.exit_code
    print(f"built {path} from the xlwings {xlwings_version()} custom add-in")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
