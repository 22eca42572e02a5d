"""``musterroll export BOOK.xlsx --side SIDE -o OUT.xlsx [--password P]``: a new
workbook for one player, holding only what that side may see.

What goes in is decided from the sheet contract, so another rule system's
campaign works the same way once it has a side view (see
:mod:`automation.pbem.bf`): a sheet with a ``Visible to`` column keeps the rows
visible to All or to the side (every report, the ledgers); a per-side sheet
(orders, spending) only if it is the side's own; a sheet with a ``Side`` column
keeps the side's rows (and rows for Both/All); the side view names the few
sheets that are public as a whole (the dates) and the kinds of which only the
latest sheet goes in (the roster). Everything else (settings, the other side's
sheets, the umpire's own sheets, the tables) stays out. Finally every text is
scrubbed of the other side's stand and ME names, which become aliases.

The export's first sheet, ``Export``, names the campaign, its key commitment,
the side, the decision the refit waits for and a return code (an HMAC with the
campaign key) that the import checks, so orders cannot be returned for the
other side or for another campaign.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from automation.engine.dice import CampaignKey
from automation.errors import UsageError, WorkbookFileError
from automation.pbem.carry import Carried
from automation.pbem.partstore import PartStore
from automation.pbem.sidesheets import Decision, Later, alias, campaign_dates
from automation.pbem.xlsx import OutSheet

INFO_SHEET = "Export"
INFO_HEADER = ["Setting", "Value"]
RETURN_PREFIX = b"musterroll/export/v1\x00"


def return_code(key: CampaignKey, commitment: str, side: str, sheet: str) -> str:
    message = RETURN_PREFIX + "\x00".join((commitment.strip(), side, sheet)).encode("utf-8")
    return hmac.new(key.secret, message, hashlib.sha256).hexdigest()[:24]


def match_side(side: str, sides: Sequence[str]) -> str:
    for s in sides:
        if s.lower() == side.strip().lower():
            return s
    raise UsageError(f"--side {side!r} is not a side of this campaign; valid: {', '.join(sides)}")


# ------------------------------------------------------------------ scrubbing

_WORD = re.compile(r"[\w-]+")


def secret_pattern(secret: dict[str, str]) -> re.Pattern[str] | None:
    """The secret names as whole words, the longest first (None: no name)."""
    names = sorted((n for n in secret if n), key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")


@dataclass(frozen=True)
class Names:
    """Finding and replacing the secret names of ``secret`` (name -> alias) as
    whole words: a name is never part of a longer run of word characters and
    hyphens. When every name is such a run itself (stand and ME names are),
    a name is found exactly where a whole run equals it, so a text's runs are
    looked up in the names (a set) instead of matching every name at every
    place; otherwise the names are one pattern, the longest first.

    Either way each run of a name is a whole run of a text holding it (the
    name's own characters or the pattern's bounds end it), so a text whose
    runs (its "words") are known to lack a run of every name holds none of
    them, without being searched."""

    secret: dict[str, str]
    pattern: re.Pattern[str] | None
    runs: tuple[tuple[str, ...], ...]  # each name's runs (names that are not single runs only)

    @classmethod
    def of(cls, secret: dict[str, str]) -> Names:
        if all(_WORD.fullmatch(n) for n in secret if n):
            return cls(secret, None, ())
        return cls(secret, secret_pattern(secret), tuple(tuple(_WORD.findall(n)) for n in secret if n))

    def found_in(self, texts: Callable[[], Sequence[str]], words: Callable[[], Iterable[str]] | None = None) -> bool:
        """Whether a name is in ``texts()``; ``words()``: the runs of word
        characters and hyphens of those texts, if known (then the texts are
        asked for only if those runs cannot tell)."""
        if not self.secret:
            return False
        if words is not None:
            known = set(words())
            if self.pattern is None:
                return not self.secret.keys().isdisjoint(known)
            if not any(all(r in known for r in runs) for runs in self.runs):
                return False
        if self.pattern is None:
            return not self.secret.keys().isdisjoint(_WORD.findall("\x00".join(set(texts()))))
        return self.pattern.search("\x00".join(set(texts()))) is not None  # one search (no name holds \x00)

    def sub(self, text: str, seen: set[str] | None = None) -> str:
        """``text`` with each name its alias (each name replaced added to ``seen``)."""
        def alias(m: re.Match[str]) -> str:
            word = m.group(0)
            if word not in self.secret:
                return word
            if seen is not None:
                seen.add(word)
            return self.secret[word]
        return (self.pattern or _WORD).sub(alias, text)


def scrubber(secret: dict[str, str]) -> Any:
    """A function replacing each secret name (whole words) with its alias."""
    if not any(secret):
        return lambda text: text
    return Names.of(secret).sub


def words_of(texts: Iterable[str]) -> list[str]:
    """The distinct runs of word characters and hyphens of ``texts``, sorted."""
    return sorted(set(_WORD.findall("\x00".join(set(texts)))))  # (each distinct text once: a roster repeats most)


def scrub(sheets: list[OutSheet], secret: dict[str, str], carried: Carried | None = None,
          side: str = "") -> list[OutSheet]:
    """``sheets`` with every secret name made its alias. A sheet's ``source``
    grows the names replaced in it: its rows are a function of both. With
    ``carried``, the words of a sheet with a ``source`` are taken as an earlier
    run found them (the names a side may not see grow as the enemy buys, so
    every sheet is looked at again on every export), and the names each such
    sheet holds, while no sheet and no name changed, as one value
    (:meth:`automation.pbem.carry.Carried.walk`); when sheets were added or
    names changed since ``side``'s last export, carried on from it
    (:func:`_carried_on`)."""
    if not any(secret):
        return list(sheets)
    names = Names.of(secret)
    out = []
    suffixes: dict[frozenset[str], str] = {}  # what each set of names replaced adds to a source (most: none)

    def texts(rows: Sequence[Sequence[Any]]) -> list[str]:
        return [v for r in rows for v in r if isinstance(v, str)]

    def words_in(s: OutSheet) -> list[str]:
        assert carried is not None
        return carried.get_keyed("words", s.name, s.source, lambda: words_of(texts(s.rows)))

    def found_in(s: OutSheet, words: Sequence[str] | None = None) -> list[str]:
        """The names sheet ``s`` (with a source) holds; ``words``: its words, if known."""
        if names.pattern is None:  # the names replaced are the words that are names
            return sorted(w for w in (words_in(s) if words is None else words) if w in names.secret)
        found: set[str] = set()
        if names.found_in(lambda: texts(s.rows), lambda: words_in(s) if words is None else words):
            for text in texts(s.rows):
                names.sub(text, found)
        return sorted(found)
    found_each: Iterator[list[str]] | None = None  # the names in each sheet with a source, in order
    if carried is not None:
        sourced = [s for s in sheets if s.source]
        sources = [s.source for s in sourced]
        settings = json.dumps([sorted(secret.items()), sources], ensure_ascii=False)

        def walked(start: int = 0, known: frozenset[str] = frozenset()) -> dict[str, Any]:
            """The names in each sheet of ``sourced`` from ``start`` on, and
            the words of all of them (``known``: those of the sheets before)."""
            part = sourced[start:]
            # (a walk carried on walks a refit's sheets, whose rows are read for the export: their words are
            # found in them, and kept with the walk, not among every sheet's)
            each = [words_of(texts(s.rows)) if start else words_in(s) for s in part]
            words = known.union(*each)
            return {"found": [found_in(s, w) for s, w in zip(part, each)], "names": sorted(n for n in secret if n),
                    "sources": sources, "words": " ".join(sorted(words))}
        value = carried.walk("scrub", [s.name for s in sourced], settings, walked,
                             lambda before, n: _carried_on(before, n, sourced, names, found_in, walked),
                             carry_on=f"scrub:{side}")
        found_list = value.get("found") if isinstance(value, dict) else None
        if not isinstance(found_list, list) or len(found_list) != len(sourced):
            found_list = walked()["found"]  # (a value of another shape: not carried)
        found_each = iter(found_list)
    for s in sheets:
        found: set[str] = set()
        rows: Sequence[Sequence[Any]]
        if found_each is not None and s.source:
            found = set(next(found_each))
            rows = Later(lambda s=s: [[names.sub(v) if isinstance(v, str) else v for v in r] for r in s.rows]) \
                if found else s.rows
        else:  # (no carried words: nothing is carried, or the sheet has no source)
            rows = [[names.sub(v, found) if isinstance(v, str) else v for v in r] for r in s.rows] \
                if names.found_in(lambda s=s: texts(s.rows)) else s.rows
        source = s.source
        if source:
            key = frozenset(found)
            if key not in suffixes:
                replaced = json.dumps(sorted((n, secret[n]) for n in found), ensure_ascii=False)
                suffixes[key] = "|scrubbed " + hashlib.sha256(replaced.encode("utf-8")).hexdigest()[:32]
            source += suffixes[key]
        out.append(s.but(rows=rows, source=source))
    return out


def _carried_on(before: Any, n: int, sourced: Sequence[OutSheet], names: Names,
                found_in: Callable[[OutSheet], list[str]], walked: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """The scrub walk (see :func:`scrub`) carried on from ``before``, the walk
    of the first ``n`` sheets of ``sourced`` (their names and stamps are the
    same) with the names then secret: the names in each of those sheets are
    those found then, while no name now secret can be in them (one of its
    runs of word characters is none of their words: the enemy's new stands);
    the sheets after them are walked. A sheet that held a name no longer
    secret is looked at again (a shorter name may then be found in its
    place). Anything else: every sheet is walked again."""
    try:
        found, old, words, sources = before["found"], before["names"], before["words"], before["sources"]
    except (TypeError, KeyError):
        return walked()
    if not (isinstance(found, list) and len(found) == n and isinstance(old, list) and isinstance(words, str)
            and sources == [s.source for s in sourced[:n]]):
        return walked()
    was = set(old)
    now = {name for name in names.secret if name}
    known = frozenset(words.split(" ")) if words else frozenset()
    if any(all(run in known for run in _WORD.findall(name)) for name in now - was):
        return walked()  # a new secret name may be in a sheet walked before
    gone = was - now
    kept = []
    for s, held in zip(sourced[:n], found):
        kept.append(found_in(s) if gone.intersection(held) else held)
    value = walked(n, known)
    value["found"] = kept + value["found"]
    return value


# ------------------------------------------------------------------ writing

def info_sheet(settings: dict[str, Any], side: str, date: str, decision: Decision, balances: Sequence[tuple[str, Any]],
               code: str) -> OutSheet:
    rows: list[list[Any]] = [INFO_HEADER,
                             ["Campaign name", str(settings.get("Campaign name") or "")],
                             ["Key commitment", str(settings.get("Key commitment") or "")],
                             ["Rule system", str(settings.get("Rule system") or "")],
                             ["Side", side], ["Date", date],
                             ["Orders sheet", decision.sheet or "(none)"],
                             ["Decision", decision.what or decision.note or "nothing to decide now"]]
    rows += [[label, value] for label, value in balances]
    rows.append(["Return code", code])
    if decision.note and decision.what:
        rows.append(["Note", decision.note])
    if decision.sheet:
        rows.append(["How to return", f"Fill in the sheet {decision.sheet!r} (one order a row; leave it empty to decide "
                                       "nothing), save this workbook under any name and send it back to the umpire. "
                                       "Do not rename sheets or edit this sheet."])
    return OutSheet(INFO_SHEET, rows, tab="settings", widths=[20, 90])


def dice_audit(sheets: list[OutSheet], key: CampaignKey, commitment: str, side: str,
               carried: Carried | None = None) -> OutSheet:
    """The Dice audit sheet: every roll the export shows, each with its commitment
    (automation.audit.player), so the player can check their own rolls. With
    ``carried``, the rolls of a sheet with a ``source`` are taken as an earlier
    run found them in the same rows."""
    from automation.audit.player import AUDIT_SHEET, committed_rows, shown_rolls

    def shown(s: OutSheet) -> tuple[int, Sequence[list[str]]]:
        """The number of ``s``'s rolls, and its rolls (read when used: with
        ``carried``, a run of rows an earlier export wrote is copied without them)."""
        if carried is None or not s.source:
            found = shown_rolls(s.name, [list(r) for r in s.rows])
            return len(found), found

        def rolls(s: OutSheet = s) -> list[list[str]]:
            return carried.get_keyed(f"shown:{side}", s.name, s.source,
                                     lambda: shown_rolls(s.name, [list(r) for r in s.rows]))
        return carried.get_keyed(f"shown count:{side}", s.name, s.source, lambda: len(rolls())), Later(rolls)

    counted = [(s, *shown(s)) for s in sheets]
    rows = committed_rows([r for _, _, r in counted], key, commitment, side, [n for _, n, _ in counted])
    # each sealed sheet's rolls are a run of rows: carried with the sheet, at the same row, for the same key
    segments = tuple((f"{s.source}|{commitment}|{side}" if s.source else "", n) for s, n, _ in counted if n)
    return OutSheet(AUDIT_SHEET, rows, tab="report", widths=[16, 6, 34, 26, 12, 10, 8, 6, 6, 24, 34],
                    segments=segments)


def write_export(out: Path, sheets: list[OutSheet], password: str | None, parts: PartStore | None = None,
                 context: str = "", orders: int = 0) -> None:
    from automation.pbem import xlsx

    out = Path(out)
    if out.suffix.lower() != ".xlsx":
        raise UsageError(f"-o {out}: the export must be an .xlsx file")
    seen: set[str] = set()
    for s in sheets:
        if s.name.lower() in seen:
            raise WorkbookFileError(f"two sheets named {s.name!r} in the export (a bug in Musterroll)")
        seen.add(s.name.lower())
    if not out.parent.is_dir():
        raise WorkbookFileError(f"-o {out}: the folder {out.parent} does not exist")
    with tempfile.TemporaryDirectory(prefix=".musterroll-", dir=out.parent) as tmp:
        plain = Path(tmp) / "export.xlsx"
        xlsx.write(plain, sheets, parts, context, orders)
        if password:
            from msoffcrypto.format.ooxml import OOXMLFile

            sealed = Path(tmp) / "sealed.xlsx"
            with plain.open("rb") as src, sealed.open("wb") as dst:
                OOXMLFile(src).encrypt(password, dst)
            plain = sealed
        try:
            plain.replace(out)
        except OSError as exc:
            raise WorkbookFileError(f"{out}: cannot be written ({exc.strerror})") from None


@dataclass(frozen=True)
class SideExport:
    """A side's export in memory: the sheets :func:`export` writes, in order."""

    side: str
    sheets: list[OutSheet]
    decision: Decision
    scrub: Any = None  # text -> text: the other side's names made aliases, as in ``sheets``
    parts: PartStore | None = None  # the sheet parts an earlier export of the side carried
    context: str = ""  # what every carried part also depends on (automation.pbem.carry)
    orders: int = 0  # the sheets after the first that hold the side's orders to fill (the form and its choices)


def side_export(book_path: Path, side: str, key_file: Path | None = None) -> SideExport:
    """``side``'s export of the master workbook, built but not written: the one
    allow-list behind both :func:`export` and a side's campaign report."""
    from automation.pbem import guard, planning, views

    book_path = Path(book_path)
    book = planning.answers(guard.open_book(book_path))  # a form not yet answered is still to decide
    settings = planning.settings_of(book)
    commitment = str(settings.get("Key commitment") or "")
    key = planning.master_key(book_path, key_file, commitment)
    view = views.view_for(str(settings.get("Rule system") or ""), book)
    over_note = ""
    try:
        if views.over(view, book):
            raise planning.CampaignOver(f"{book.path}: the campaign is over")
        planned = planning.plan(book, key)  # the refit run in memory: its own word on what it waits for
    except planning.CampaignOver:
        planned = None
        over_note = "every date's refit is done: the campaign is over"
    side = match_side(side, view.sides(book, planned))
    if planned is None:
        decision, date, balances = Decision(None, "", over_note), "(campaign over)", []
    else:
        decision = view.decision(book, planned, planned.run.waiting, side)
        date, balances = planned.date, view.balances(planned, side)
    code = return_code(key, commitment, side, decision.sheet or "(none)")
    sheets = [info_sheet(settings, side, date, decision, balances, code)]
    orders = view.orders_sheets(book, planned, side, decision, balances, key) \
        if decision.sheet and planned is not None else []
    sheets += orders
    carried = Carried.of(book, sorted(campaign_dates(book)))
    sheets += view.side_sheets(book, planned, side, carried)
    secret = view.secret_names(book, planned, side, key, carried)
    sheets = scrub(sheets, secret, carried, side)
    sheets.append(dice_audit(sheets, key, commitment, side, carried))
    carried.save()
    return SideExport(side, sheets, decision, scrubber(secret), PartStore.of(carried.folder, side, carried.context),
                      carried.context, len(orders))


def export(book_path: Path, side: str, out: Path, password: str | None = None, key_file: Path | None = None) -> str:
    """Write ``side``'s export of the master workbook; returns a summary line."""
    book_path, out = Path(book_path), Path(out)
    if out.resolve() == book_path.resolve() or out.suffix.lower() == ".key":
        raise UsageError(f"-o {out}: choose a new file for the export, not the campaign workbook or its key")
    built = side_export(book_path, side, key_file)
    side, sheets, decision = built.side, built.sheets, built.decision
    write_export(out, sheets, password, built.parts, built.context, built.orders)
    if built.parts is not None:
        built.parts.save()
    what = f"orders sheet {decision.sheet!r}" if decision.sheet else f"no orders sheet ({decision.note})"
    return (f"wrote {out} for {side}: {len(sheets)} sheet(s), {what}"
            + ("; encrypted with the password given" if password else ""))
