"""What a side sees of the master's campaign sheets, for its export
(:mod:`automation.pbem.export`) and the rule systems' side views
(:mod:`automation.pbem.bf`, :mod:`automation.pbem.abtf`): which sheets are
campaign sheets (:func:`campaign_kind`), each rebuilt from its documented
columns only and cut to the rows the side may see (:func:`side_sheets`), the
aliases that stand for the other side's names, and the decision a side's
own orders sheet waits on."""
from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from automation.engine.dice import CampaignKey
from automation.pbem.carry import Carried
from automation.pbem.reports import ALL, Header, chain_start, kind_of, kinds_ready, name_parts
from automation.pbem.xlsx import OutSheet
from automation.workbook.reader import header_row, norm
from automation.workbook.schema import SheetKind

ALIAS_PREFIX = b"musterroll/alias/v1\x00"


@dataclass(frozen=True)
class Decision:
    """The orders sheet a side fills next (None: nothing to decide now)."""

    sheet: str | None
    what: str = ""
    note: str = ""


def own_sheet(book: Any, planned: Any, waiting: Any, side: str, kind: Any) -> tuple[str, Decision | None]:
    """``side``'s own sheet of ``kind`` for the date the refit waits on (the
    refit may wait on either side's), and a Decision when that sheet is already
    in the workbook, so there is nothing for ``side`` to fill."""
    ours = kind.name_for(date=name_parts(kind, waiting.sheet, planned.sides)["date"], side=side)
    if not book.has(ours):
        return ours, None
    if waiting.sheet == ours:
        return ours, Decision(None, "", f"the refit still needs {waiting.what} on {ours}, which the umpire already "
                                        "has: ask the umpire")
    return ours, Decision(None, "", f"{ours} is in; the refit waits for {waiting.sheet}")


def nothing_to_decide(waiting: Any, side: str) -> Decision:
    return Decision(None, "", f"the refit waits for {waiting.sheet} ({waiting.who}): nothing for {side} to decide now")


def alias(key: CampaignKey, name: str) -> str:
    """What a player sees instead of an enemy stand or ME name (stable for the campaign)."""
    return aliases(key, (name,))[name]


def aliases(key: CampaignKey, names: Iterable[str]) -> dict[str, str]:
    """:func:`alias` of each of ``names``: the HMAC keyed once and taken on
    from its prefix for each name (the enemy's every stand and ME a long
    campaign has had: thousands, on every export)."""
    keyed = hmac.new(key.secret, ALIAS_PREFIX, hashlib.sha256)
    found = {}
    for name in names:
        mac = keyed.copy()
        mac.update(name.encode("utf-8"))
        found[name] = "enemy-" + mac.hexdigest()[:6]
    return found


# ------------------------------------------------------------------ filtering sheets

def visible_rows(rows: list[list[Any]], side: str) -> list[list[Any]]:
    """Header + the rows visible to All or to ``side`` (a report's tamper
    evidence, which is the umpire's, never)."""
    h = Header.of(rows[0])
    end = chain_start(h, rows) if "Step" in h.positions else len(rows)
    shown = (norm(ALL), norm(side))  # (once a sheet, not once a row)
    return [rows[0]] + [r for r in rows[1:end] if _shown(h.get(r, "Visible to"), shown)]


def side_rows(rows: list[list[Any]], side: str) -> list[list[Any]]:
    h = Header.of(rows[0])
    shown = (norm(side), "both", norm(ALL))
    return [rows[0]] + [r for r in rows[1:] if _shown(h.get(r, "Side"), shown)]


def _shown(value: Any, shown: tuple[str, ...]) -> bool:
    """Whether a row whose Side or Visible to cell holds ``value`` is one of ``shown`` (normalised names): a
    roster's thousands of rows hold a few values, each normalised once."""
    try:
        return _normalised_in(value, shown)
    except TypeError:  # (a value that cannot be kept by: told as it is)
        return norm(value or "") in shown


@functools.lru_cache(maxsize=256, typed=True)
def _normalised_in(value: Any, shown: tuple[str, ...]) -> bool:
    return norm(value or "") in shown


def trim(rows: list[list[Any]]) -> list[list[Any]]:
    out = []
    for r in rows:
        r = list(r)
        while r and r[-1] in (None, ""):
            r.pop()
        if r or not out:
            out.append(r)
    return out


RESERVED_DATES = ("Start", "End")  # the roster before the first refit; A Bridge Too Far's CG end


def campaign_dates(book: Any) -> set[str]:
    """The date labels of the campaign (its Dates or CG Dates sheet), as sheet
    names hold them, with ``Start`` and ``End``."""
    from automation.workbook.cellvalues import _date_text

    dates = set(RESERVED_DATES)
    for sheet, column in (("Dates", "Date"), ("CG Dates", "CG Date")):
        if not book.has(sheet):
            continue
        rows = book.raw(sheet)
        if not rows:
            continue
        h = Header.of(rows[0])
        for r in rows[1:]:
            v = h.get(r, column)
            text = _date_text(v) or (str(v).strip() if v is not None else "")
            if text:
                dates.add(text)
    return dates


def header_fits(kind: SheetKind, header: Sequence[Any]) -> bool:
    """Whether a sheet's first row holds every required column of ``kind``."""
    names = {str(h).strip() for h in header if h not in (None, "")}
    return all(c.name in names for c in kind.columns if c.required)


def campaign_kind(book: Any, name: str, kinds: Iterable[SheetKind] | None = None,
                  dates: set[str] | None = None, carried: Carried | None = None) -> SheetKind | None:
    """The kind of a campaign sheet: its name fits a kind (a dated kind: with a
    date of the campaign) AND its header holds the kind's columns. Any other
    sheet is the umpire's own (``Umpire notes``, ``Results draft``, ``Refit
    notes 1``): None. With ``carried``, a sheet unchanged since an earlier run
    is not read again (:mod:`automation.pbem.carry`)."""
    if carried is not None:
        ready = kinds_ready(kinds)
        found = carried.get(f"kind:{ready.ids}", name,
                            lambda: getattr(campaign_kind(book, name, ready.kinds, dates), "id", None))
        return ready.by_id.get(found) if found else None
    kind = kind_of(name, kinds)
    if kind is None:
        return None
    if kind.dated:
        date = name_parts(kind, name).get("date", "")
        if date not in (dates if dates is not None else campaign_dates(book)):
            return None
    rows = book.raw(name)
    if not rows or not header_fits(kind, rows[header_row(rows, kind)]):
        return None
    return kind


def project(kind: SheetKind, rows: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """A new table of only ``kind``'s documented columns, in the contract's
    order, taken from ``rows`` by header name: a column the umpire added
    ("Umpire notes") never comes along."""
    top = header_row(rows, kind) if rows else 0
    h = Header.of(rows[top]) if rows else Header({})
    header = [c.name for c in kind.columns if c.name in h.positions]
    at = [h.positions[c] for c in header]  # (as Header.get takes each: a cell past the row's end or "" is None)
    return [list(header)] + [[None if i >= n or (v := r[i]) == "" else v for i in at]
                             for r in rows[top + 1:] for n in (len(r),)]


def side_sheets(book: Any, side: str, public: Iterable[str], latest_only: Iterable[str], tab: dict[str, str],
                private: Iterable[str] = (), kinds: Iterable[SheetKind] | None = None,
                carried: Carried | None = None) -> list[OutSheet]:
    """The master's campaign sheets (see :func:`campaign_kind`) as ``side`` may
    see them (see the module's rules), each rebuilt from its documented columns
    only; kinds in ``private`` stay with the umpire whatever their columns.
    With ``carried``, what a sheet unchanged since an earlier run gave is
    taken as it was (the latest sheet of a ``latest_only`` kind is read), and
    which sheets go out as one value while no sheet changed, or carried on
    from the sheets an earlier run walked when sheets were only added after
    them (:meth:`automation.pbem.carry.Carried.walk`)."""
    public, latest_only, private = set(public), set(latest_only), set(private)
    kinds = tuple(kinds) if kinds is not None else None  # a tuple: its matcher is found by identity (reports.kinds_ready)
    ready, names = kinds_ready(kinds), list(book.sheet_names)

    def walk(fresh: bool = False, start: int = 0) -> list[list[Any]]:
        return _walk(book, names[start:], side, public, latest_only, private, kinds, carried, fresh)
    walked = walk() if carried is None else carried.walk(
        f"sheets:{side}", names, repr((sorted(public), sorted(latest_only), sorted(private), ready.ids)), walk,
        lambda before, start: before + walk(True, start))
    dates = campaign_dates(book)
    last: dict[str, str] = {}
    for name, kind_id, _, _ in reversed(walked):  # the latest sheet of each latest_only kind: read
        if kind_id in latest_only and kind_id not in last and campaign_kind(book, name, kinds, dates) is not None:
            last[kind_id] = name
    out = []
    for name, kind_id, seen, passes in walked:
        kind = ready.by_id[kind_id]
        kept: Sequence[Sequence[Any]] | None
        source = ""
        if kind_id in latest_only:
            kept = side_view(book, name, kind, side, public) if passes and last.get(kind_id) == name else None
        elif carried is None:
            kept = side_view(book, name, kind, side, public)
        elif seen:  # whether the side sees the sheet is carried apart from its rows, read only if used
            def view(name: str = name, kind: SheetKind = kind) -> list[list[Any]] | None:
                return carried.get(f"rows:{side}", name, lambda: side_view(book, name, kind, side, public))
            kept = Later(view)
            stamp = carried.stamp(name)
            source = f"rows:{side}|{name}|{stamp}" if stamp else ""
        else:
            kept = None
        if kept is not None:
            out.append(OutSheet.sealed(name, kept, tab.get(kind.tab, kind.tab), source))
    return out


def _walk(book: Any, names: Sequence[str], side: str, public: set[str], latest_only: set[str], private: set[str],
          kinds: tuple[SheetKind, ...] | None, carried: Carried | None, fresh: bool = False) -> list[list[Any]]:
    """The sheets of ``names`` that may go out to ``side``, in order: each
    one's name, kind, whether the side sees it (with ``carried``; else None:
    its rows say) and whether it passes the side's rules by its name and kind.
    A sheet of a ``latest_only`` kind is listed whatever it holds (None, and
    whether it passes): only the latest that is a campaign sheet goes out.
    ``fresh``: sheets no earlier run walked (a refit's): each is read, not
    looked up sheet by sheet among every sheet's (its rows are carried)."""
    dates = campaign_dates(book)
    out: list[list[Any]] = []
    for name in names:
        kind = kind_of(name, kinds)
        if kind is None or kind.id in private:
            continue
        passes = not (kind.per_side and name_parts(kind, name, (side,)).get("side") != side) and not (
            not kind.per_side and kind.id not in public and not {"Visible to", "Side"} & {c.name for c in kind.columns})
        if kind.id in latest_only:
            out.append([name, kind.id, None, passes])
            continue
        if not passes or campaign_kind(book, name, kinds, dates, None if fresh else carried) is None:
            continue
        seen = None
        if carried is not None:
            def view(name: str = name, kind: SheetKind = kind) -> list[list[Any]] | None:
                return side_view(book, name, kind, side, public)
            if fresh:
                seen = carried.fresh(f"rows:{side}", name, view) is not None
            else:
                seen = carried.get(f"seen:{side}", name, lambda name=name, view=view: carried.get(
                    f"rows:{side}", name, view) is not None)
        out.append([name, kind.id, seen, True])
    return out


class Later(Sequence[Sequence[Any]]):
    """A sheet's rows, taken from ``load`` when first used: a sealed sheet
    whose finished part and rolls an earlier export carried is written
    without its rows being read at all."""

    def __init__(self, load: Callable[[], Sequence[Sequence[Any]] | None]) -> None:
        self._load: Callable[[], Sequence[Sequence[Any]] | None] | None = load
        self._rows: Sequence[Sequence[Any]] = ()

    def _all(self) -> Sequence[Sequence[Any]]:
        if self._load is not None:
            self._rows, self._load = self._load() or (), None
        return self._rows

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __iter__(self) -> Iterator[Sequence[Any]]:
        return iter(self._all())


def side_view(book: Any, name: str, kind: SheetKind, side: str, public: set[str]) -> list[list[Any]] | None:
    """Sheet ``name`` (of ``kind``) as ``side`` may see it, trimmed; None: not at all."""
    rows = project(kind, book.raw(name))
    header = Header.of(rows[0])
    if kind.per_side:
        if name_parts(kind, name, (side,)).get("side") != side:
            return None
        kept = rows
    elif "Visible to" in header.positions:
        kept = visible_rows(rows, side)
    elif "Side" in header.positions and kind.id not in public:
        kept = side_rows(rows, side)
    elif kind.id in public:
        kept = rows
    else:
        return None
    return trim(kept)
