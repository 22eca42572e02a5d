"""Names of the add-in file and its folder, importable without the build's
dependencies (the command line registers ``musterroll addin`` with them)."""
from __future__ import annotations

from pathlib import Path

ADDIN_NAME = "musterroll_addin"
ADDIN_FILE = f"{ADDIN_NAME}.xlam"
ADDIN_DIR = Path(__file__).resolve().parents[2] / "addin"
ADDIN_PATH = ADDIN_DIR / ADDIN_FILE
