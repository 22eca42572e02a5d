"""What every rule system's refit reports have in common, read from the sheet
contract rather than from one system's code: which sheets are reports (their
kind has the ``report`` tab), the roll rows in them (a row with a Label), and
the canonical form of a sheet's values that the tamper-evident chain digests.

A report is any sheet whose name fits the title pattern of a dated sheet kind
with the ``report`` tab (e.g. ``Refit {date} {side}``) and whose header holds
the columns ``Step``, ``Result`` and ``Visible to``. Another rule system's
reports are found the same way once its sheet kinds are listed in
:func:`automation.workbook.schema.sheet_kinds`.
"""
from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from automation.workbook.schema import SheetKind

CHAIN_STEP = "Tamper evidence"
STATS_STEP = "Dice statistics"
AUDIT_RULE = "audit"
ALL = "All"
UMPIRE = "Umpire"
REPORT_COLUMNS = ("Step", "Result", "Visible to")


@functools.lru_cache(maxsize=1)
def sheet_kinds() -> tuple[SheetKind, ...]:
    """Every sheet kind the contract lists, then those of campaign systems the
    shared list does not hold yet (A Bridge Too Far)."""
    from automation.workbook.schema import sheet_kinds as kinds

    found = dict(kinds())
    try:
        from automation.workbook import abtf_sheets
    except ImportError:  # pragma: no cover - the ABtF contract ships with the package
        return tuple(found.values())
    for k in abtf_sheets.KINDS:
        found.setdefault(k.id, k)
    return tuple(found.values())


def title_pattern(kind: SheetKind, side: str | None = None) -> re.Pattern[str]:
    """``Refit {date} {side}`` -> a regex matching ``Refit Dec 24 1`` (the date
    takes all it can: sides are single words unless ``side`` is given)."""
    return _title_pattern(kind.title, side)  # cached by the title: hashing a whole kind costs more than matching


@functools.lru_cache(maxsize=512)
def _title_pattern(title: str, side: str | None) -> re.Pattern[str]:
    out = []
    for literal, field_name, _, _ in string.Formatter().parse(title):
        out.append(re.escape(literal))
        if field_name == "side" and side is not None:
            out.append(f"(?P<side>{re.escape(side)})")
        elif field_name:
            out.append(f"(?P<{field_name}>.+)" if field_name == "date" else f"(?P<{field_name}>.+?)")
    return re.compile("".join(out) + r"\Z", re.S)


def kind_of(name: str, kinds: Iterable[SheetKind] | None = None) -> SheetKind | None:
    """The sheet kind a sheet's name belongs to (static titles first)."""
    return kinds_ready(kinds).kind(name)


def kinds_ready(kinds: Iterable[SheetKind] | None = None) -> _Matcher:
    """``kinds`` (default: every kind), made ready once for each set: their
    ``kinds`` in order, ``by_id``, ``ids`` (their ids, sorted and joined) and
    :meth:`_Matcher.kind` of a sheet's name."""
    return _Matcher.of(sheet_kinds() if kinds is None else kinds)


def title_prefix(kind: SheetKind) -> str:
    """The text every name of ``kind`` begins with: a dated title's text before
    its first field (``Refit `` for ``Refit {date} {n}``), where its
    :func:`title_pattern` begins; a static title whole."""
    return _title_prefix(kind.title) if kind.dated else kind.title


@functools.lru_cache(maxsize=512)
def _title_prefix(title: str) -> str:
    """The text a dated title's names all begin with (``Refit `` for ``Refit {date} {n}``)."""
    return next(iter(string.Formatter().parse(title)), ("", None, None, None))[0]


class _Matcher:
    """One set of kinds, ready to name a sheet's kind: the static titles in a
    dict, each dated title with the text its names begin with and its
    pattern, and the kind of each name already asked about."""

    _MADE: dict[tuple[int, ...], _Matcher] = {}  # by the kinds' identities (each matcher holds its kinds)
    _TUPLES: dict[int, tuple[Any, _Matcher]] = {}  # by a tuple's identity: the tuple and its matcher

    def __init__(self, kinds: Sequence[SheetKind]) -> None:
        self.kinds = tuple(kinds)
        self.by_id = {k.id: k for k in self.kinds}
        self.ids = ",".join(sorted(self.by_id))  # names the set (what is carried for it)
        self.static: dict[str, SheetKind] = {}
        for k in self.kinds:
            if not k.dated:
                self.static.setdefault(k.title, k)  # the first of a title, as a search in order finds it
        self.dated = [(title_prefix(k), title_pattern(k), k) for k in self.kinds if k.dated]
        self.report_prefixes = tuple(dict.fromkeys(p for p, _, k in self.dated if is_report_kind(k)))
        self._found: dict[str, SheetKind | None] = {}

    @classmethod
    def of(cls, kinds: Iterable[SheetKind]) -> _Matcher:
        held = cls._TUPLES.get(id(kinds)) if isinstance(kinds, tuple) else None
        if held is not None and held[0] is kinds:
            return held[1]
        given = tuple(kinds)
        ids = tuple(map(id, given))
        if ids not in cls._MADE:
            cls._MADE[ids] = cls(given)
        if isinstance(kinds, tuple):  # a tuple cannot change: the same one is the same kinds
            if len(cls._TUPLES) >= 256:
                cls._TUPLES.clear()
            cls._TUPLES[id(kinds)] = (kinds, cls._MADE[ids])  # (it holds the tuple: no id reused)
        return cls._MADE[ids]

    def of_kind(self, names: Iterable[str], kind: SheetKind) -> list[str]:
        """The names among ``names`` whose kind is ``kind`` (by its id), in
        order. Only a name that begins as ``kind``'s title does (a dated
        title: the text before its first field, where its pattern begins) is
        asked about: a campaign's rosters among its thousand sheets."""
        prefix = title_prefix(kind)
        return [name for name in names if name.startswith(prefix) and (found := self.kind(name)) is not None
                and found.id == kind.id]

    def kind(self, name: str) -> SheetKind | None:
        if name in self._found:
            return self._found[name]
        found = self.static.get(name)
        if found is None:
            for prefix, pattern, k in self.dated:  # a title's pattern is tried only on a name that begins as it does
                if name.startswith(prefix) and pattern.match(name):
                    found = k
                    break
        if len(self._found) > 65536:
            self._found.clear()
        self._found[name] = found
        return found


def name_parts(kind: SheetKind, name: str, sides: Sequence[str] = ()) -> dict[str, str]:
    """``{'date': 'Dec 24', 'side': 'German'}`` for ``Orders Dec 24 German``."""
    for side in sorted(sides, key=len, reverse=True):
        m = title_pattern(kind, side).match(name)
        if m:
            return dict(m.groupdict())
    m = title_pattern(kind).match(name)
    return dict(m.groupdict()) if m else {}


def is_report_kind(kind: SheetKind | None) -> bool:
    return kind is not None and kind.dated and kind.tab == "report"


def report_names(names: Iterable[str]) -> list[str]:
    """The names among ``names`` that :func:`is_report` takes for reports (by
    the name alone), in order. Only a name that begins as a report kind's
    title does is asked about (a report's name begins so, see
    :meth:`_Matcher.kind`): a long campaign's two hundred reports among its
    thousand and more sheets."""
    matcher = kinds_ready()
    prefixes = matcher.report_prefixes
    return [name for name in names if name.startswith(prefixes) and is_report_kind(matcher.kind(name))]


def is_report(name: str, header: Sequence[Any] | None = None) -> bool:
    if not is_report_kind(kind_of(name)):
        return False
    if header is None:
        return True
    names = {str(h).strip() for h in header if h not in (None, "")}
    return all(c in names for c in REPORT_COLUMNS)


# ----------------------------------------------------------------- canonical values

_EXACT = 10 ** 15  # a whole number below this in size is written by norm as it is: norm(n) == str(n)


def norm(value: Any) -> str:
    """One cell as text, the same whether it comes from Python (before the
    sheet is written) or from calamine (reading it back)."""
    if type(value) is str:  # most cells: as they are
        return value
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        f = float(value)
        if f.is_integer() and abs(f) < _EXACT:
            return str(int(f))
        return f"{f:.15g}"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def canonical(rows: Sequence[Sequence[Any]]) -> list[list[str]]:
    """Rows as text, trailing empty cells and trailing empty rows dropped."""
    out = []
    for row in rows:
        # most cells are text, as they are, or a whole number, as norm writes one that a double holds exactly
        cells = [v if type(v) is str else str(v) if type(v) is int and -_EXACT < v < _EXACT else norm(v) for v in row]
        while cells and cells[-1] == "":
            cells.pop()
        out.append(cells)
    while out and not out[-1]:
        out.pop()
    return out


# what json.dumps(parts, ensure_ascii=False, separators=(",", ":")) makes for each call, made once: a seal hashes
# every row of a refit's sheets (9,000 at 5,000 stands), and json.dumps makes an encoder for each call given options
_CANONICAL = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_json_text = json.encoder.encode_basestring  # one text as _CANONICAL writes it (its ensure_ascii=False)


def _hash(*parts: Any) -> str:
    return hashlib.sha256(_CANONICAL.encode(parts).encode("utf-8")).hexdigest()


def row_texts(rows: list[list[str]]) -> list[str]:
    """Each row's canonical JSON, as the sheet's digest and its row tags hold
    it: a sheet both are made of encodes its rows once (:func:`sheet_digest`,
    :func:`row_tags`). A canonical row is a list of texts: its JSON is each
    text's JSON string, joined by commas in brackets, as ``_CANONICAL``
    writes it (without making an encoder for each of 5,000 rows)."""
    join = ",".join
    return [f"[{join(map(_json_text, r))}]" for r in rows]


def sheet_digest(name: str, rows: list[list[str]], texts: list[str] | None = None) -> str:
    """The digest of sheet ``name``'s ``rows`` (``texts``: their :func:`row_texts`, when made)."""
    if texts is None:
        return _hash("musterroll/sheet/v1", name, rows)
    whole = f'["musterroll/sheet/v1",{_CANONICAL.encode(name)},[{",".join(texts)}]]'  # (as _hash encodes it)
    return hashlib.sha256(whole.encode("utf-8")).hexdigest()


def row_tags(name: str, rows: list[list[str]], texts: list[str] | None = None) -> list[str]:
    """Each row's tag (``texts``: the rows' :func:`row_texts`, when made)."""
    head = f'["musterroll/row/v1",{_CANONICAL.encode(name)},'  # (as _hash encodes it)
    texts = row_texts(rows) if texts is None else texts
    return [hashlib.sha256(f"{head}{i},{text}]".encode("utf-8")).hexdigest()[:8] for i, text in enumerate(texts)]


def column_tags(name: str, rows: list[list[str]]) -> list[str]:
    width = max((len(r) for r in rows), default=0)
    return [_hash("musterroll/column/v1", name, j, [r[j] if j < len(r) else "" for r in rows])[:8] for j in range(width)]


def chain_digest(name: str, rows: list[list[str]]) -> str:
    return _hash("musterroll/chain/v1", name, rows)


def genesis(commitment: str) -> str:
    """What the first report's 'previous report' digest is: bound to the campaign key."""
    return _hash("musterroll/genesis/v1", commitment.strip())


# ----------------------------------------------------------------- report rows

@dataclass(frozen=True)
class Header:
    """Column positions of a sheet's header, by name."""

    positions: dict[str, int]

    @classmethod
    def of(cls, header: Sequence[Any]) -> Header:
        pos: dict[str, int] = {}
        for i, h in enumerate(header):
            if h not in (None, ""):
                pos.setdefault(str(h).strip(), i)
        return cls(pos)

    def get(self, row: Sequence[Any], column: str) -> Any:
        i = self.positions.get(column)
        if i is None or i >= len(row):
            return None
        v = row[i]
        return None if v == "" else v

    def cell(self, column: str, row_number: int) -> str:
        from automation.workbook.reader import cell_ref

        return cell_ref(self.positions.get(column, 0), row_number)


def chain_start(header: Header, rows: Sequence[Sequence[Any]]) -> int:
    """Index (in ``rows``, header = 0) of the first tamper-evidence row, or len(rows)."""
    for i, row in enumerate(rows):
        if i and header.get(row, "Step") == CHAIN_STEP:
            return i
    return len(rows)


@dataclass(frozen=True)
class RollRow:
    """One roll as a report shows it."""

    sheet: str
    row: int  # 1-based sheet row
    side: str
    visible_to: str
    table_id: str
    column: str | None
    dice: str
    natural: Any
    drm: Any
    final: Any
    modifiers: str
    result: str | None  # the table's own result text (None when the report has no such column)
    result_text: str
    label: str


def roll_rows(sheet: str, rows: Sequence[Sequence[Any]]) -> list[RollRow]:
    """Every roll of a report (rows with a Label and a Table), before the chain block."""
    if not rows:
        return []
    h = Header.of(rows[0])
    out = []
    for i, row in enumerate(rows[1:chain_start(h, rows)], start=1):
        label, table = h.get(row, "Label"), h.get(row, "Table")
        if not label or not table or h.get(row, "Step") == STATS_STEP:
            continue
        out.append(RollRow(
            sheet, i + 1, str(h.get(row, "Side") or UMPIRE), str(h.get(row, "Visible to") or ALL),
            str(table).split(" (")[0].strip(), _text(h.get(row, "Table column")), str(h.get(row, "Dice") or ""),
            h.get(row, "Natural"), h.get(row, "DRM"), h.get(row, "Final"), str(h.get(row, "Modifiers") or ""),
            _text(h.get(row, "Table result")), str(h.get(row, "Result") or ""), str(label)))
    return out


def _text(v: Any) -> str | None:
    return None if v in (None, "") else str(v)


def as_int(v: Any) -> int | None:
    if isinstance(v, bool) or v in (None, ""):
        return None
    if isinstance(v, (int, float)) and float(v).is_integer():
        return int(v)
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            return None
    return None


def parse_dice(text: str) -> tuple[str, tuple[int, ...]] | None:
    """A report's Dice cell back into dice: 'd10: 7' -> ('d10', (7,)); '2d6: 3+4'
    -> ('2d6', (3, 4)); 'd100: 94' -> ('d100', (9, 4)), a 0 die reading 10."""
    kind, _, shown = str(text).partition(":")
    kind, shown = kind.strip(), shown.strip()
    try:
        if kind == "d100":
            if len(shown) != 2 or not shown.isdigit():
                return None
            return kind, tuple(int(c) or 10 for c in shown)
        return kind, tuple(int(v) for v in shown.split("+"))
    except ValueError:
        return None
