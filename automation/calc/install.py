"""Installs and removes the extension with LibreOffice's own ``unopkg``.

``musterroll calc install`` builds musterroll.oxt for this virtual environment
(automation.calc.build) in a temporary folder and runs ``unopkg add --force``
on it; ``uninstall`` runs ``unopkg remove`` and ``status`` ``unopkg list`` with
the extension's identifier. ``--user-installation URL`` passes
``-env:UserInstallation=URL`` to unopkg, for a LibreOffice profile other than
the usual one.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from automation.calc.build import EXTENSION_ID, OXT_FILE, SETTINGS_FILE, CalcError, build_oxt

KNOWN_UNOPKG = (
    "/usr/bin/unopkg", "/usr/lib/libreoffice/program/unopkg", "/opt/libreoffice/program/unopkg",
    "/Applications/LibreOffice.app/Contents/MacOS/unopkg",
    r"C:\Program Files\LibreOffice\program\unopkg.com", r"C:\Program Files (x86)\LibreOffice\program\unopkg.com",
)
KNOWN_SOFFICE = ("/usr/bin/soffice", "/usr/lib/libreoffice/program/soffice", "/opt/libreoffice/program/soffice",
                 "/Applications/LibreOffice.app/Contents/MacOS/soffice")
UNO_PYTHONS = ("/usr/bin/python3", "/usr/lib/libreoffice/program/python", "/opt/libreoffice/program/python",
               "/Applications/LibreOffice.app/Contents/Resources/python")
UNOPKG_TIMEOUT = 300
OFFICE_INSTALL = Path(__file__).resolve().with_name("office_install.py")


def find_unopkg() -> str:
    """LibreOffice's extension manager: on the PATH or where LibreOffice installs it."""
    found = shutil.which("unopkg") or next((p for p in KNOWN_UNOPKG if os.path.isfile(p)), None)
    if not found:
        raise CalcError("LibreOffice's unopkg was not found (looked on the PATH and in " + ", ".join(KNOWN_UNOPKG)
                        + "). Install LibreOffice, or put its program folder on the PATH")
    return found


def run_unopkg(*args: str, user_installation: str | None = None) -> str:
    """``unopkg ARGS``: what it said, or CalcError naming what went wrong."""
    check_profile(user_installation)
    cmd = [find_unopkg(), *args]
    if user_installation:
        cmd.append(f"-env:UserInstallation={user_installation}")
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=UNOPKG_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise CalcError(f"unopkg {args[0]} did not finish within {UNOPKG_TIMEOUT} s; quit LibreOffice "
                        "(including its quick starter) and try again") from None
    said = "\n".join(part.strip() for part in (done.stdout, done.stderr) if part.strip())
    if done.returncode != 0:
        hint = " Quit LibreOffice (including its quick starter), then try again." if "running" in said.lower() \
            or "lock" in said.lower() else ""
        raise CalcError(f"unopkg {args[0]} failed: {said or f'exit code {done.returncode}'}.{hint}")
    return said


def as_root() -> bool:
    """unopkg installs nothing for the root user (only for all users)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def uno_python() -> str:
    """A Python that has LibreOffice's uno module."""
    for candidate in UNO_PYTHONS:
        if os.path.isfile(candidate) and subprocess.run([candidate, "-c", "import uno"], capture_output=True,
                                                        timeout=60).returncode == 0:
            return candidate
    raise CalcError("no Python with LibreOffice's uno module was found (looked at " + ", ".join(UNO_PYTHONS)
                    + "); on Debian or Ubuntu: apt-get install python3-uno")


def through_office(action: str, what: str, user_installation: str | None) -> str:
    """Add or remove an extension with a headless LibreOffice's extension manager (for root)."""
    soffice = shutil.which("soffice") or next((p for p in KNOWN_SOFFICE if os.path.isfile(p)), None)
    if not soffice:
        raise CalcError("LibreOffice's soffice was not found on the PATH nor in " + ", ".join(KNOWN_SOFFICE))
    cmd = [uno_python(), str(OFFICE_INSTALL), soffice, action, what]
    if user_installation:
        cmd.append(user_installation)
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=UNOPKG_TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise CalcError(f"LibreOffice did not finish within {UNOPKG_TIMEOUT} s; quit LibreOffice and try again") \
            from None
    said = (done.stdout.strip().splitlines() or [done.stderr.strip() or f"exit code {done.returncode}"])[-1]
    if done.returncode != 0:
        raise CalcError(f"LibreOffice could not {action} the extension: {said.removeprefix('error: ')}")
    return said


def check_profile(user_installation: str | None) -> None:
    if user_installation and not user_installation.startswith("file:"):
        raise CalcError(f"--user-installation {user_installation!r}: give a file: URL, "
                        "e.g. file:///home/me/lo-profile")


def install(user_installation: str | None = None, program: Path | None = None) -> str:
    check_profile(user_installation)
    with tempfile.TemporaryDirectory(prefix="musterroll-calc-") as work:
        oxt = build_oxt(Path(work), program)
        from automation.calc.build import settings_of

        runs = settings_of(oxt)["musterroll"]
        if as_root():
            through_office("add", str(oxt), user_installation)
        else:
            run_unopkg("add", "--force", "--suppress-license", str(oxt), user_installation=user_installation)
    return (f"installed the Musterroll extension ({EXTENSION_ID}) in LibreOffice; its Refit button runs {runs}.\n"
            "Start LibreOffice Calc and open the campaign workbook: the Musterroll toolbar holds the Refit button "
            "(View > Toolbars > Musterroll if it is hidden).")


def uninstall(user_installation: str | None = None) -> str:
    check_profile(user_installation)
    if as_root():
        through_office("remove", EXTENSION_ID, user_installation)
    else:
        run_unopkg("remove", EXTENSION_ID, user_installation=user_installation)
    return f"removed the Musterroll extension ({EXTENSION_ID}) from LibreOffice"


def default_profile() -> Path:
    """LibreOffice's usual user profile folder on this system."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "LibreOffice" / "4"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", str(Path.home()))) / "LibreOffice" / "4"
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "libreoffice" / "4"


def installed_copy(user_installation: str | None) -> Path | None:
    """The extension as unpacked in the profile, if the profile's package map
    (user/uno_packages/cache/uno_packages.pmap: the identifier, then the
    unpacked folder, file name, media type and version) lists it."""
    from urllib.parse import unquote, urlparse

    profile = Path(unquote(urlparse(user_installation).path)) if user_installation else default_profile()
    cache = profile / "user" / "uno_packages" / "cache"
    try:
        lines = (cache / "uno_packages.pmap").read_bytes().split(b"\n")
    except OSError:
        return None
    for key, value in zip(lines, lines[1:]):
        if key.rstrip(b"\r").endswith(EXTENSION_ID.encode()):
            folder, _, rest = value.partition(b"\xff")
            name = rest.partition(b"\xff")[0].decode("utf-8", "replace")
            return cache / "uno_packages" / (folder.decode("utf-8", "replace") + "_") / name
    return None


def status(user_installation: str | None = None) -> str:
    """Whether the profile's package cache holds the extension, and what its button runs."""
    check_profile(user_installation)
    found = installed_copy(user_installation)
    if found is None or not (found / SETTINGS_FILE).is_file():
        return "The Musterroll extension is not installed in LibreOffice."
    runs = json.loads((found / SETTINGS_FILE).read_text(encoding="utf-8")).get("musterroll")
    return f"The Musterroll extension ({EXTENSION_ID}) is installed at {found}; its Refit button runs {runs}."
