"""musterroll.oxt taken apart, and what `musterroll calc install` hands to unopkg."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from defusedxml import ElementTree as SafeET

import automation.calc.install as install
from automation.calc.build import (
    EXTENSION_ID, MACRO_FILE, OXT_FILE, SETTINGS_FILE, TOOLBAR, Button, CalcError, build_oxt, musterroll_program,
    settings_of,
)
from automation.cli import main as cli

MANIFEST = "{http://openoffice.org/2001/manifest}"
OOR = "{http://openoffice.org/2001/registry}"


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


def test_the_extension_holds_its_manifest_toolbar_script_and_the_program_it_runs(tmp_path):
    parts = members(build_oxt(tmp_path))
    manifest = SafeET.fromstring(parts["META-INF/manifest.xml"])
    entries = {e.get(f"{MANIFEST}full-path"): e.get(f"{MANIFEST}media-type") for e in manifest}
    assert entries == {"Addons.xcu": "application/vnd.sun.star.configuration-data",
                       "CalcWindowState.xcu": "application/vnd.sun.star.configuration-data",
                       "python": "application/vnd.sun.star.framework-script"}
    assert set(parts) == {"Addons.xcu", "CalcWindowState.xcu", "META-INF/manifest.xml", "description.xml",
                          f"python/{MACRO_FILE}", SETTINGS_FILE}
    description = SafeET.fromstring(parts["description.xml"])
    assert [e.get("value") for e in description if e.tag.endswith("}identifier")] == [EXTENSION_ID]
    assert json.loads(parts[SETTINGS_FILE])["musterroll"] == str(musterroll_program())
    assert Path(sys.executable).parent == musterroll_program().parent


def test_the_toolbar_button_names_a_function_the_script_exports():
    button = Button()
    assert button.url == ("vnd.sun.star.script:musterroll.oxt|python|musterroll_calc.py$refit"
                          "?language=Python&location=user:uno_packages")
    assert button.package == OXT_FILE
    source = (Path(__file__).resolve().parents[2] / "automation" / "calc" / "oxt" / "python" / MACRO_FILE).read_text()
    tree = ast.parse(source)
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert button.function in functions
    exported = next(n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "g_exportedScripts")
    assert [e.id for e in exported.value.elts] == [button.function]  # the only macro LibreOffice lists


def test_the_script_uses_only_the_standard_library_and_uno():
    source = (Path(__file__).resolve().parents[2] / "automation" / "calc" / "oxt" / "python" / MACRO_FILE).read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module.split(".")[0])
    assert imported - set(sys.stdlib_module_names) == {"uno"}


def test_the_addons_toolbar_carries_the_button_url(tmp_path):
    parts = members(build_oxt(tmp_path))
    root = SafeET.fromstring(parts["Addons.xcu"])
    bars = [n for n in root.iter("node") if n.get(f"{OOR}name") == TOOLBAR]
    (bar,) = bars
    urls = [p.find("value").text for p in bar.iter("prop") if p.get(f"{OOR}name") == "URL"]
    assert urls == [Button().url]


def test_musterroll_calc_build_writes_the_extension_where_asked(tmp_path, capsys):
    assert cli(["calc", "build", "--out", str(tmp_path)]) == 0
    assert f"built {tmp_path / OXT_FILE}; its Refit button runs {musterroll_program()}" in capsys.readouterr().out
    assert settings_of(tmp_path / OXT_FILE)["musterroll"] == str(musterroll_program())


def test_a_build_for_a_program_that_is_not_there_is_refused(tmp_path):
    with pytest.raises(CalcError, match="not an existing program"):
        build_oxt(tmp_path, tmp_path / "nowhere" / "musterroll")
    assert not (tmp_path / OXT_FILE).exists()


def test_install_as_a_user_hands_unopkg_the_built_extension(monkeypatch, tmp_path):
    calls = []

    def fake_run(cmd, **options):
        calls.append(cmd)
        handed = Path(cmd[-2]) if cmd[-1].startswith("-env:") else Path(cmd[-1])
        calls.append(members(handed))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(install, "as_root", lambda: False)
    monkeypatch.setattr(install, "find_unopkg", lambda: "/opt/lo/unopkg")
    monkeypatch.setattr(install.subprocess, "run", fake_run)
    said = install.install("file:///tmp/profile")
    cmd, parts = calls
    assert cmd[:4] == ["/opt/lo/unopkg", "add", "--force", "--suppress-license"]
    assert Path(cmd[4]).name == OXT_FILE and cmd[5] == "-env:UserInstallation=file:///tmp/profile"
    assert json.loads(parts[SETTINGS_FILE])["musterroll"] == str(musterroll_program())
    assert f"runs {musterroll_program()}" in said


def test_what_unopkg_says_on_failure_is_passed_on_with_what_to_do(monkeypatch):
    monkeypatch.setattr(install, "as_root", lambda: False)
    monkeypatch.setattr(install, "find_unopkg", lambda: "/opt/lo/unopkg")
    monkeypatch.setattr(install.subprocess, "run", lambda cmd, **o: subprocess.CompletedProcess(
        cmd, 1, "", "ERROR: unopkg cannot be started. The lock file indicates it as already running."))
    with pytest.raises(CalcError, match="lock file indicates.*Quit LibreOffice"):
        install.install()


def test_a_profile_that_is_not_a_file_url_is_refused():
    with pytest.raises(CalcError, match="give a file: URL"):
        install.install("/home/me/profile")


def test_without_libreoffice_the_message_says_where_unopkg_was_looked_for(monkeypatch):
    monkeypatch.setattr(install.shutil, "which", lambda name: None)
    monkeypatch.setattr(install, "KNOWN_UNOPKG", ("/nowhere/unopkg",))
    with pytest.raises(CalcError, match="unopkg was not found .*/nowhere/unopkg"):
        install.find_unopkg()
