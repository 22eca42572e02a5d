"""The campaign key file: BOOK.key beside BOOK.xlsx (or the file --key names).
Only commitments ever go into a workbook.

With players' entropy (``musterroll new --entropy TEXT``, repeatable) the key is
the umpire's random base key mixed with each contribution in order
(:meth:`CampaignKey.mixed_with`). The key file then keeps the base too, and the
workbook's Campaign sheet lists the base's commitment and each contribution's
commitment, so that after the campaign, with the key file and the players'
texts revealed, anyone can check that the key really came from all of them
(``musterroll verify BOOK.xlsx --key BOOK.key --contribution TEXT ...``).

Key file format: the key in hexadecimal on the first line; with entropy, a line
``base <hex>`` and a line ``contributions <n>`` follow.
"""
from __future__ import annotations

import hashlib
import os
import re
import zipfile
from dataclasses import dataclass
from pathlib import Path

from automation.engine.dice import CampaignKey
from automation.errors import MusterrollError, WorkbookFileError

CONTRIBUTION_PREFIX = b"musterroll/contribution/v1\x00"
BASE_SETTING = "Key base commitment"
CONTRIBUTION_SETTING = "Key contribution {n}"


class KeyError_(MusterrollError):
    """The key file is missing, unreadable or does not match the workbook."""


@dataclass(frozen=True, repr=False)
class KeyMaterial:
    """A new campaign's key, the base it was mixed from, and the contributions."""

    key: CampaignKey
    base: CampaignKey
    contributions: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"KeyMaterial({self.key!r}, {len(self.contributions)} contribution(s))"


def new_key(entropy: tuple[str, ...] = ()) -> KeyMaterial:
    """A fresh random base key mixed with each player's contribution (in order)."""
    base = CampaignKey.generate()
    return KeyMaterial(base.mixed_with(*entropy) if entropy else base, base, tuple(entropy))


def contribution_commitment(text: str) -> str:
    """SHA-256 commitment of one player's contribution: safe to publish (choose a
    long random phrase: a short word could be guessed from it)."""
    return hashlib.sha256(CONTRIBUTION_PREFIX + text.encode("utf-8")).hexdigest()


def key_path_for(book: Path, key: Path | None = None) -> Path:
    return Path(key) if key else Path(book).with_suffix(".key")


def write_key(path: Path, key: CampaignKey, material: KeyMaterial | None = None) -> None:
    if path.exists():
        raise WorkbookFileError(f"{path}: a key file is already there; refusing to replace a campaign key")
    lines = [key.to_hex()]
    if material is not None and material.contributions:
        lines += [f"base {material.base.to_hex()}", f"contributions {len(material.contributions)}"]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write("\n".join(lines) + "\n")


@dataclass(frozen=True, repr=False)
class KeyFile:
    key: CampaignKey
    base: CampaignKey | None = None
    contributions: int | None = None


def read_key_file(path: Path) -> KeyFile:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        raise KeyError_(
            f"{path}: the campaign key file is missing. Every roll derives from it; restore it from your backup "
            "(Musterroll never makes a new key for an existing campaign), or name it with --key FILE"
        ) from None
    except OSError as exc:
        raise KeyError_(f"{path}: the campaign key file cannot be read ({exc.strerror})") from None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    try:
        if not lines or len(lines) > 3 or len(lines[0]) > 1024:
            raise ValueError
        key = CampaignKey.from_hex(lines[0])
        base = contributions = None
        for line in lines[1:]:
            word, _, value = line.partition(" ")
            if word == "base":
                base = CampaignKey.from_hex(value)
            elif word == "contributions":
                contributions = int(value)
            else:
                raise ValueError
    except ValueError:
        raise KeyError_(f"{path}: not a campaign key file (expected the key in hexadecimal on the first line)") from None
    return KeyFile(key, base, contributions)


def read_key(path: Path, commitment: str | None = None) -> CampaignKey:
    key = read_key_file(path).key
    if commitment and key.commitment != commitment.strip():
        raise KeyError_(
            f"{path}: this key does not match the workbook's commitment (Campaign!B4 holds {commitment[:16]}..., "
            f"the key gives {key.commitment[:16]}...); it belongs to another campaign"
        )
    return key


# ------------------------------------------------------------------ the workbook's list

def contribution_rows(material: KeyMaterial) -> list[list[str]]:
    """Rows for the Campaign sheet (Setting, Value, Rule, Notes)."""
    if not material.contributions:
        return []
    n = len(material.contributions)
    rows = [[BASE_SETTING, material.base.commitment, "",
             f"SHA-256 commitment of the umpire's random base key; the campaign key is this base mixed with the "
             f"{n} player contribution(s) below, in order"]]
    for i, text in enumerate(material.contributions, start=1):
        rows.append([CONTRIBUTION_SETTING.format(n=i), contribution_commitment(text), "",
                     f"SHA-256 commitment of contribution {i} (musterroll new --entropy); its player keeps the text "
                     "secret until the campaign ends"])
    return rows


def record_contributions(book: Path, material: KeyMaterial) -> None:
    """Add the contribution rows at the end of the Campaign sheet of a workbook
    that ``musterroll new`` has just copied from its template (inline strings,
    so the shared strings stay as they are)."""
    rows = contribution_rows(material)
    if not rows:
        return
    from defusedxml import ElementTree as SafeET

    book = Path(book)
    with zipfile.ZipFile(book) as src:
        workbook = SafeET.fromstring(src.read("xl/workbook.xml"))
        rels = SafeET.fromstring(src.read("xl/_rels/workbook.xml.rels"))
        ns = {"m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main"}
        rid_attr = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
        sheet = next((s for s in workbook.iterfind("m:sheets/m:sheet", ns) if s.get("name") == "Campaign"), None)
        if sheet is None:
            raise WorkbookFileError(f"{book}: no Campaign sheet to list the key contributions on")
        target = next(r.get("Target") for r in rels if r.get("Id") == sheet.get(rid_attr))
        part = target.lstrip("/") if target.startswith("/") else "xl/" + target
        xml = src.read(part).decode("utf-8")
        last = max((int(n) for n in re.findall(r'<row r="(\d+)"', xml)), default=0)
        from xml.sax.saxutils import escape  # here: it loads urllib, http and ssl, which no other command needs

        added = []
        for offset, values in enumerate(rows, start=1):
            r = last + offset
            cells = "".join(f'<c r="{col}{r}" t="inlineStr"><is><t>{escape(v)}</t></is></c>'
                            for col, v in zip("ABCD", values) if v)
            added.append(f'<row r="{r}">{cells}</row>')
        if "</sheetData>" not in xml:
            raise WorkbookFileError(f"{book}: the Campaign sheet has no data to extend")
        xml = xml.replace("</sheetData>", "".join(added) + "</sheetData>", 1)
        xml = re.sub(r'(<dimension ref="A1:[A-Z]+)\d+"', lambda m: f'{m.group(1)}{last + len(rows)}"', xml, count=1)
        tmp = book.with_suffix(".tmp")
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
            for info in src.infolist():
                dst.writestr(info, xml.encode("utf-8") if info.filename == part else src.read(info.filename))
    tmp.replace(book)
