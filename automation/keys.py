"""The campaign key file: BOOK.key beside BOOK.xlsx (or the file --key names).
Only its commitment ever goes into a workbook."""
from __future__ import annotations

import os
from pathlib import Path

from automation.engine.dice import CampaignKey
from automation.errors import MusterrollError, WorkbookFileError


class KeyError_(MusterrollError):
    """The key file is missing, unreadable or does not match the workbook."""


def key_path_for(book: Path, key: Path | None = None) -> Path:
    return Path(key) if key else Path(book).with_suffix(".key")


def write_key(path: Path, key: CampaignKey) -> None:
    if path.exists():
        raise WorkbookFileError(f"{path}: a key file is already there; refusing to replace a campaign key")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key.to_hex() + "\n")


def read_key(path: Path, commitment: str | None = None) -> CampaignKey:
    try:
        text = Path(path).read_text().strip()
    except FileNotFoundError:
        raise KeyError_(
            f"{path}: the campaign key file is missing. Every roll derives from it; restore it from your backup "
            "(Musterroll never makes a new key for an existing campaign), or name it with --key FILE"
        ) from None
    try:
        key = CampaignKey.from_hex(text)
    except ValueError:
        raise KeyError_(f"{path}: not a campaign key (expected hexadecimal text)") from None
    if commitment and key.commitment != commitment.strip():
        raise KeyError_(
            f"{path}: this key does not match the workbook's commitment (Campaign!B4 holds {commitment[:16]}..., "
            f"the key gives {key.commitment[:16]}...); it belongs to another campaign"
        )
    return key
