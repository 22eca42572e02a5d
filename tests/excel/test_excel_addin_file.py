"""The add-in file, taken apart: its ribbon, its VBA, and how it is built."""
from __future__ import annotations

import re
import sys
import tomllib
import warnings
import zipfile
from pathlib import Path

import pytest
import xlwings
from defusedxml import ElementTree as SafeET

import fake_xlwings as fx
from automation.excel.build import (
    ADDIN_FILE, ADDIN_NAME, ADDIN_PATH, AddinError, build_addin, built_from, quickstart_addin, relabel_ribbon, ribbon_of,
    xlwings_version,
)

FORMS_DEC23 = ["Spend Dec 23 German", "Spend Dec 23 Russian"]  # the forms the first refit writes with its report

with warnings.catch_warnings():  # oletools still calls pyparsing's old names
    warnings.simplefilter("ignore", DeprecationWarning)
    from oletools.olevba import VBA_Parser

ROOT = Path(__file__).resolve().parents[2]
CUSTOMUI = "{http://schemas.microsoft.com/office/2006/01/customui}"


def vba_modules(path: Path) -> dict[str, str]:
    parser = VBA_Parser(str(path))
    try:
        return {name: code for _, _, name, code in parser.extract_macros()}
    finally:
        parser.close()


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def vba_text(expression: str, variables: dict[str, str]) -> str:
    """Evaluate a VBA string expression of literals and variables joined by &."""
    out = []
    for part in re.findall(r'"(?:[^"]|"")*"|[^&\s]+', expression):
        out.append(part[1:-1].replace('""', '"') if part.startswith('"') else variables[part])
    return "".join(out)


def python_command_of_run_main(vba: str, workbook_name: str) -> str:
    """What RunMain hands to RunPython when ThisWorkbook is ``workbook_name``."""
    body = re.search(r"^Sub RunMain\(control As IRibbonControl\)\s*$(.*?)^End Sub", vba, re.S | re.M)
    assert body, "RunMain(control As IRibbonControl) is not in the module"
    variables: dict[str, str] = {}
    for line in filter(None, (ln.strip() for ln in body.group(1).splitlines())):
        stem = re.fullmatch(r'(\w+) = Left\(ThisWorkbook\.Name, \(InStrRev\(ThisWorkbook\.Name, "\.", -1, '
                            r'vbTextCompare\) - 1\)\)', line)
        if stem:
            variables[stem.group(1)] = workbook_name[:workbook_name.rindex(".")]
            continue
        run = re.fullmatch(r"RunPython (.+)", line)
        assert run, f"RunMain holds a line this reading does not know: {line}"
        return vba_text(run.group(1), variables)
    raise AssertionError("RunMain never calls RunPython")


# ----------------------------------------------------------------- the ribbon

def test_the_ribbon_has_a_musterroll_tab_with_one_large_refit_button():
    data = members(ADDIN_PATH)
    rels = SafeET.fromstring(data["_rels/.rels"])
    target, = [r.get("Target") for r in rels if r.get("Type").endswith("/ui/extensibility")]
    ui = SafeET.fromstring(data[target.lstrip("/")])
    tabs = list(ui.iter(f"{CUSTOMUI}tab"))
    assert [t.get("label") for t in tabs] == ["Musterroll"]
    button, = tabs[0].iter(f"{CUSTOMUI}button")
    assert button.get("label") == "Refit" and button.get("size") == "large"
    assert ribbon_of(ADDIN_PATH).on_action == button.get("onAction") == "RibbonMyAddin.RunMain"


def test_the_buttons_on_action_reaches_run_main_in_a_standard_vba_module():
    module, _, procedure = ribbon_of(ADDIN_PATH).on_action.partition(".")
    code = vba_modules(ADDIN_PATH)[f"{module}.bas"]
    assert re.search(rf"^Sub {procedure}\(control As IRibbonControl\)", code, re.M)


# ----------------------------------------------------------------- the VBA

def test_run_main_imports_the_module_named_after_the_file_and_calls_main():
    code = vba_modules(ADDIN_PATH)["RibbonMyAddin.bas"]
    assert python_command_of_run_main(code, ADDIN_FILE) == "import musterroll_addin;musterroll_addin.main()"
    assert ADDIN_PATH.name == ADDIN_FILE and ADDIN_NAME == "musterroll_addin"


def test_the_python_command_of_run_main_refits_the_workbook_clicked_in(excel, monkeypatch, tmp_path):
    from excel_helpers import runpython_argv

    from automation.workbook.reader import Workbook

    path = fx.copy_sample(tmp_path / "campaign")
    book = fx.open_workbook(excel, path)
    command = python_command_of_run_main(vba_modules(ADDIN_PATH)["RibbonMyAddin.bas"], ADDIN_FILE)
    monkeypatch.setattr(sys, "argv", runpython_argv(excel, book.name))

    exec(command, {})  # what `python -c COMMAND --wb=... ` runs when the button is clicked

    assert Workbook(path).sheet_names[-3:] == ["Refit Dec 23 1", *FORMS_DEC23]  # the refit, with the forms it waits for and excel.alerts[-1][2] == "info"


def test_the_installed_xlwings_is_the_release_the_committed_add_in_was_built_from():
    """The add-in's VBA (RunPython, the Mac's xlwings-VERSION.applescript) and the
    xlwings package must be one release; pyproject.toml pins it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pin = next(d for d in project["project"]["dependencies"] if d.startswith("xlwings"))
    assert xlwings.__version__ == xlwings_version() == built_from(ADDIN_PATH), (
        f"xlwings {xlwings_version()} is installed but {ADDIN_FILE} was built from {built_from(ADDIN_PATH)}: "
        "install the pinned xlwings, or rebuild the add-in (musterroll addin build) and review it against the new "
        "xlwings' Windows and macOS code")
    assert pin == f"xlwings~={built_from(ADDIN_PATH)}"


def test_run_python_is_xlwings_own_and_the_vba_is_the_version_the_file_says():
    code = vba_modules(ADDIN_PATH)["xlwings.bas"]
    assert re.search(r"^Public Function RunPython\(PythonCommand As String\)", code, re.M)
    version = re.search(r'^Public Const XLWINGS_VERSION As String = "([^"]+)"', code, re.M).group(1)
    assert version == built_from(ADDIN_PATH)


def test_the_add_in_needs_no_licence_key():
    """RunPython asks for xlwings.pro (and a licence key) only when a sheet's name
    ends in .py (embedded code); the add-in and the project never use pro or Server."""
    wb = SafeET.fromstring(members(ADDIN_PATH)["xl/workbook.xml"])
    assert not [s.get("name") for s in wb.iter() if s.tag.endswith("}sheet") and s.get("name", "").endswith(".py")]
    sources = [ROOT / "musterroll_addin.py", *sorted((ROOT / "automation" / "excel").glob("*.py"))]
    assert not [p.name for p in sources if re.search(r"xlwings[.\s]+(pro|server)|xlwings\.Server|remote", p.read_text())]


def test_the_entry_module_is_part_of_the_distribution():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert ADDIN_NAME in project["tool"]["setuptools"]["py-modules"]
    assert (ROOT / f"{ADDIN_NAME}.py").is_file()


# ----------------------------------------------------------------- the build

def test_the_committed_add_in_is_what_the_build_makes(tmp_path):
    fresh = build_addin(tmp_path)
    assert list(members(fresh)) == list(members(ADDIN_PATH))
    assert members(fresh) == members(ADDIN_PATH)


def test_only_the_ribbon_and_the_title_differ_from_xlwings_quickstart_add_in(tmp_path):
    original = members(quickstart_addin(tmp_path))
    built = members(ADDIN_PATH)
    assert list(built) == list(original)
    assert {name for name in built if built[name] != original[name]} == {"customUI/customUI.xml", "docProps/core.xml"}
    assert built["xl/vbaProject.bin"] == original["xl/vbaProject.bin"]


def test_musterroll_addin_build_writes_the_add_in_where_asked(tmp_path, capsys):
    from automation.cli import main as cli

    assert cli(["addin", "build", "--out", str(tmp_path / "out")]) == 0
    made = tmp_path / "out" / ADDIN_FILE
    assert f"built {made} from the xlwings {xlwings_version()} custom add-in" in capsys.readouterr().out
    assert ribbon_of(made).tab == "Musterroll" and built_from(made) == xlwings_version()


def test_a_ribbon_without_a_run_main_button_is_refused():
    xml = (b'<customUI xmlns="http://schemas.microsoft.com/office/2006/01/customui"><ribbon><tabs><tab id="t" label="T">'
           b'<group id="g" label="G"><button id="b" label="B" onAction="Other.Macro"/></group></tab></tabs></ribbon>'
           b'</customUI>')
    with pytest.raises(AddinError, match="0 buttons calling RunMain"):
        relabel_ribbon(xml)


def test_relabelling_keeps_the_on_action_and_drops_other_buttons_of_the_group():
    xml = (b'<customUI xmlns="http://schemas.microsoft.com/office/2006/01/customui"><ribbon><tabs><tab id="t" label="T">'
           b'<group id="g" label="G"><button id="a" label="A" onAction="M.ImportUDFs"/>'
           b'<button id="b" label="Run" onAction="M2.RunMain" imageMso="MacroPlay"/></group></tab></tabs></ribbon>'
           b'</customUI>')
    ui = SafeET.fromstring(relabel_ribbon(xml))
    buttons = list(ui.iter(f"{CUSTOMUI}button"))
    assert [(b.get("label"), b.get("onAction"), b.get("size")) for b in buttons] == [("Refit", "M2.RunMain", "large")]
