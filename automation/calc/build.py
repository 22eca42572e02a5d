"""Builds musterroll.oxt, the LibreOffice extension with the Refit button.

The extension is made of the files in automation/calc/oxt (its manifest and
description, the toolbar in Addons.xcu, the toolbar's name and place in
CalcWindowState.xcu, the button's Python in python/musterroll_calc.py) plus
musterroll_calc.json, which names the ``musterroll`` program of the virtual
environment building it: LibreOffice's own Python runs the button, and the
button runs that program, so the refit is exactly the command line's.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from automation.errors import MusterrollError

EXTENSION_ID = "org.musterroll.calc"
OXT_FILE = "musterroll.oxt"
TOOLBAR = "org.musterroll.calc.toolbar"
MACRO_FILE = "musterroll_calc.py"
SETTINGS_FILE = "musterroll_calc.json"
SOURCE = Path(__file__).resolve().parent / "oxt"
TEMPLATED = ("description.xml", "Addons.xcu", "CalcWindowState.xcu")
PARTS = ("META-INF/manifest.xml", *TEMPLATED, f"python/{MACRO_FILE}")
ZIP_DATE = (2026, 1, 1, 0, 0, 0)


class CalcError(MusterrollError):
    """The extension cannot be built, installed or removed (the message says why)."""


@dataclass(frozen=True)
class Button:
    """What the Refit button dispatches when clicked: a Python script of the extension."""

    package: str = OXT_FILE
    folder: str = "python"
    module: str = MACRO_FILE
    function: str = "refit"

    @property
    def url(self) -> str:
        return (f"vnd.sun.star.script:{self.package}|{self.folder}|{self.module}${self.function}"
                "?language=Python&location=user:uno_packages")


def project_version() -> str:
    try:
        return version("musterroll")
    except PackageNotFoundError:
        return "0.0.0"


def musterroll_program(python: str | None = None) -> Path:
    """The ``musterroll`` program beside ``python`` (default: this Python), which
    is how pip installs a project's commands into a virtual environment."""
    folder = Path(python or sys.executable).absolute().parent
    found = shutil.which("musterroll", path=str(folder))
    if not found:
        raise CalcError(f"no musterroll program in {folder}; install Musterroll there first "
                        "(bash scripts/setup.sh, or pip install -e . in its virtual environment)")
    return Path(found).absolute()


def parts(program: Path) -> dict[str, bytes]:
    """Every file of the extension, by its path inside the .oxt."""
    fill = {"@IDENTIFIER@": EXTENSION_ID, "@VERSION@": project_version(), "@TOOLBAR@": TOOLBAR,
            "@URL@": Button().url}
    out: dict[str, bytes] = {}
    for name in PARTS:
        text = (SOURCE / name).read_text(encoding="utf-8")
        if name in TEMPLATED:
            for key, value in fill.items():
                text = text.replace(key, value.replace("&", "&amp;"))
        out[name] = text.encode("utf-8")
    out[SETTINGS_FILE] = json.dumps({"musterroll": str(program), "version": project_version()},
                                    indent=1).encode("utf-8")
    return out


def build_oxt(out_dir: Path, program: Path | None = None) -> Path:
    """Write ``out_dir/musterroll.oxt`` for ``program`` (default: this environment's musterroll)."""
    program = Path(program) if program else musterroll_program()
    if not program.is_absolute() or not program.is_file():
        raise CalcError(f"{program}: not an existing program given by its full path")
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / OXT_FILE
    fd, tmp = tempfile.mkstemp(prefix=".~oxt-", suffix=".oxt", dir=out_dir)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in parts(program).items():
                info = zipfile.ZipInfo(name, ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


def settings_of(path: Path) -> dict[str, str]:
    """The settings an .oxt file was built with."""
    try:
        with zipfile.ZipFile(path) as z:
            return json.loads(z.read(SETTINGS_FILE))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise CalcError(f"{path}: not a Musterroll extension ({exc})") from None
