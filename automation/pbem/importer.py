"""``musterroll import BOOK.xlsx ORDERS.xlsx [--password P]``: a player's
returned export, checked against the master and appended as that side's dated
orders sheet.

Checks, all before anything is written (the master's bytes stay as they were
unless every check passes):

* the file: bounded, decrypted with the password, no zip or XML bomb
  (:mod:`automation.pbem.guard`, with the stricter limits for players' files);
* the Export sheet: same campaign (name and key commitment), a side of the
  campaign, the orders sheet named for that side, and the return code (an HMAC
  with the campaign key over commitment, side and sheet: a player cannot return
  orders for the other side);
* the decision: the refit must be waiting for exactly this kind of orders for
  this date (this side's or the other side's counterpart), and the master must
  not hold the sheet yet (importing the same orders twice is refused), or hold
  it only as the form the refit wrote, not yet answered (its status cell,
  :mod:`automation.workbook.forms.status`, says Not yet): the import's batch
  then replaces that form, and undo puts it back as it was; a form the umpire
  answered in the master (Ready) is never replaced;
* the orders themselves: by the refit's own validation, planning the refit in
  memory on the master with the returned sheet laid over it
  (:class:`automation.pbem.planning.Overlay`); if the other side's sheet is not
  in yet, a neutral placeholder stands in for it, in memory only.

Every problem names Sheet!Cell of the returned file. Texts are copied as texts:
what a player types that starts with = + - @ never becomes a formula.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from automation.campaign.model import UMPIRE
from automation.errors import CellProblem, WorkbookError, WorkbookFileError, listed
from automation.pbem.carry import Carried
from automation.pbem.export import INFO_SHEET, return_code
from automation.pbem.reports import Header, kind_of, name_parts
from automation.pbem.sidesheets import campaign_dates
from automation.workbook.forms.status import STATUS_CELL, Status, ready, status_of
from automation.workbook.reader import header_row, match_name
from automation.workbook.schema import system_kinds


class ImportRefused(WorkbookError):
    """Problems in a returned orders file (or in the master they were checked against)."""

    def __init__(self, orders: Path, book: Path, problems: list[CellProblem], mine: set[str]) -> None:
        super().__init__(problems, str(orders))
        lines = [f"{orders}: {len(problems)} problem(s); nothing was imported"]
        lines += listed(problems, lambda p: f"  {orders.name if p.sheet in mine else Path(book).name}: {p}")
        self.args = ("\n".join(lines),)


def read_info(ret: Any, where: Path) -> tuple[dict[str, Any], dict[str, str]]:
    """The Export sheet's settings and the cell of each value."""
    if not ret.has(INFO_SHEET):
        raise ImportRefused(where, where, [CellProblem(INFO_SHEET, "A1", "this is not a Musterroll export (no Export "
                                                                       "sheet): return the workbook you were sent")],
                            {INFO_SHEET})
    rows = ret.raw(INFO_SHEET)
    values: dict[str, Any] = {}
    cells: dict[str, str] = {}
    for i, r in enumerate(rows[1:], start=2):
        if r and isinstance(r[0], str) and r[0].strip():
            values[r[0].strip()] = r[1] if len(r) > 1 else None
            cells[r[0].strip()] = f"B{i}"
    return values, cells


def _clean(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date()
    return None if value == "" else value


def text_cells(raw: list[list[Any]], h: Header, columns: tuple[str, ...]) -> Iterator[tuple[list[Any], int, str]]:
    """(row, position, column) of every text cell of ``columns`` below the header."""
    for column in columns:
        i = h.positions.get(column)
        if i is None:
            continue
        for r in raw[1:]:
            if i < len(r) and isinstance(r[i], str):
                yield r, i, column


def unalias(raw: list[list[Any]], h: Header, names: dict[str, str], columns: tuple[str, ...] = ("Subject",)) -> None:
    """Enemy aliases a player named turned back into the names: a whole cell of
    ``columns`` (the view's ``alias_columns``; Subject by default), or one item
    of a comma-separated Units cell."""
    if not names:
        return
    for r, i, column in text_cells(raw, h, columns):
        if r[i].strip() in names:
            r[i] = names[r[i].strip()]
        elif column == "Units" and any(p.strip() in names for p in r[i].split(",")):
            r[i] = ", ".join(names.get(p.strip(), p.strip()) for p in r[i].split(","))


MASK = "unknown-{n}"


def unchosen(kind: Any, values: list[Any]) -> bool:
    """A form's offer left without a Value: no decision (the refit reads it so too)."""
    names = kind.header
    decision = "Count" if "Count" in names else "Value"
    if "Offered" not in names or decision not in names:
        return False
    return bool(values[names.index("Offered")]) and values[names.index(decision)] is None


class Masked:
    """The other side's real names a player typed (not through an alias),
    each replaced by a stand-in that names nothing in the campaign, so the
    refit answers for them exactly as for a name that does not exist: the
    messages a player gets never tell an enemy ID from a made-up one. Every
    message is then scrubbed of the other side's names (they become aliases)
    and the stand-ins turned back into what the player typed."""

    def __init__(self, secret: dict[str, str]) -> None:
        self.secret = secret
        self.typed: dict[str, str] = {}

    def _mask(self, text: str) -> str:
        if text.strip() not in self.secret:
            return text
        for stand_in, typed in self.typed.items():
            if typed == text.strip():
                return stand_in
        stand_in = MASK.format(n=f"{len(self.typed) + 1:04d}")
        self.typed[stand_in] = text.strip()
        return stand_in

    def rows(self, raw: list[list[Any]], h: Header, columns: tuple[str, ...]) -> None:
        if not self.secret:
            return
        for r, i, column in text_cells(raw, h, columns):
            if column == "Units" and "," in r[i]:
                r[i] = ", ".join(self._mask(part.strip()) for part in r[i].split(","))
            else:
                r[i] = self._mask(r[i])

    def unmask(self, text: str) -> str:
        for stand_in, typed in self.typed.items():
            text = text.replace(repr(stand_in), repr(typed)).replace(stand_in, typed)
        return text

    def message(self, text: str) -> str:
        from automation.pbem.export import scrubber

        return self.unmask(scrubber(self.secret)(text))

    def problems(self, problems: list[CellProblem]) -> list[CellProblem]:
        return [CellProblem(p.sheet, p.cell, self.message(p.message)) for p in problems]


def import_orders(book_path: Path, orders_path: Path, password: str | None = None, key_file: Path | None = None) -> str:
    """Check a player's returned orders and append them to the master, holding
    the master's write lock from the read to the write (two imports that
    arrive together both land)."""
    from automation.workbook.lock import writing

    with writing(book_path):
        return _import_orders(Path(book_path), Path(orders_path), password, key_file)


def _import_orders(book_path: Path, orders_path: Path, password: str | None, key_file: Path | None) -> str:
    from automation.pbem import guard, planning, views
    from automation.pbem.planning import prepare
    from automation.workbook.gate import returned_limits
    from automation.workbook.package import NewSheet, append_sheets

    book_path, orders_path = Path(book_path), Path(orders_path)
    if orders_path.resolve() == book_path.resolve():
        raise WorkbookFileError(f"{orders_path}: that is the campaign workbook itself, not a player's orders")
    book = planning.answers(guard.open_book(book_path))  # a form not yet answered is not there
    settings = planning.settings_of(book)
    commitment = str(settings.get("Key commitment") or "")
    key = planning.master_key(book_path, key_file, commitment)
    view = views.view_for(str(settings.get("Rule system") or ""), book)
    ret = guard.open_book(orders_path, password, returned_limits(book.gate, book_path.stat().st_size))
    info, at = read_info(ret, orders_path)

    def refuse(problems: list[CellProblem]) -> ImportRefused:
        return ImportRefused(orders_path, book_path, problems, set(ret.sheet_names))

    def info_problem(setting: str, message: str) -> CellProblem:
        return CellProblem(INFO_SHEET, at.get(setting, "A1"), message)

    problems = []
    for setting in ("Campaign name", "Key commitment"):
        if str(info.get(setting) or "").strip() != str(settings.get(setting) or "").strip():
            problems.append(info_problem(setting, f"{setting}: {info.get(setting)!r} is not this campaign's "
                                                  f"({settings.get(setting)!r}); the orders belong to another campaign"))
    if problems:
        raise refuse(problems)
    planned_now = planning.plan(book, key)
    sides = planned_now.sides
    side = str(info.get("Side") or "").strip()
    side = match_name(side, sides) or side
    sheet = str(info.get("Orders sheet") or "").strip()
    kind = kind_of(sheet, system_kinds(str(settings.get("Rule system") or "")).values())
    if side not in sides:
        raise refuse([info_problem("Side", f"Side: {side!r} is not a side of this campaign; valid: {', '.join(sides)}")])
    if kind is None or not kind.per_side or kind.tab != "orders" or name_parts(kind, sheet, (side,)).get("side") != side:
        raise refuse([info_problem("Orders sheet", f"Orders sheet: {sheet!r} is not an orders sheet of {side}; this "
                                                   "export had no orders to return")])
    if str(info.get("Return code") or "").strip() != return_code(key, commitment, side, sheet):
        raise refuse([info_problem("Return code", "Return code: does not match this campaign's key for "
                                                  f"{side} and {sheet!r}: the Export sheet was edited")])
    if book.has(sheet):
        if status_of(book.raw(sheet)) is Status.READY:
            raise WorkbookFileError(f"{orders_path}: the umpire already answered {sheet!r} in {book_path.name} (its "
                                    f"{STATUS_CELL} says {Status.READY.value}); nothing was changed")
        raise WorkbookFileError(f"{orders_path}: {sheet!r} is already in {book_path.name}: these orders were imported "
                                "before; nothing was changed")
    replace = [sheet] if book.is_unanswered(sheet) else []  # the master's unanswered form: kept for undo
    if not ret.has(sheet):
        raise refuse([CellProblem(sheet, "A1", f"the sheet {sheet!r} is missing: keep the orders sheet's name")])
    waiting = planned_now.run.waiting  # the refit's own word on what it waits for
    date = name_parts(kind, sheet, sides)["date"]
    expected = {kind.name_for(date=date, side=s) for s in sides}
    taken = getattr(view, "accepts", lambda *_: False)(sheet, waiting)  # a sheet taken while waiting (Forces)
    # while the umpire's sheet is awaited, the side's next decision may be filled already: its export offered it
    early = waiting is not None and waiting.who == UMPIRE and view.decision(book, planned_now, waiting, side).sheet == sheet
    if not taken and not early and (waiting is None or waiting.sheet not in expected):
        now = f"waits for {waiting.sheet} ({waiting.who})" if waiting else "waits for nothing"
        raise refuse([info_problem("Orders sheet", f"Orders sheet: the campaign {now}, not for {sheet}: these orders "
                                                   "are out of date (export again for the current decision)")])
    raw = [list(r) for r in ret.raw(sheet)]
    body = raw[header_row(raw, kind):] if raw else []  # a form's lines above its header are not orders
    h = Header.of(body[0]) if body else Header({})
    columns = getattr(view, "alias_columns", ("Subject",))
    carried = Carried.of(book, sorted(campaign_dates(book)))
    secret = view.secret_names(book, planned_now, side, key, carried)
    carried.save()
    masked = Masked(secret)
    masked.rows(body, h, columns)
    unalias(body, h, {a: n for n, a in secret.items()}, columns)
    extra = {sheet: ready(raw)}  # sent back: an answer, whatever its status cell says
    for s in sides:
        other = kind.name_for(date=date, side=s)
        if other != sheet and not book.has(other):
            extra[other] = views.stand_in(view, other, planned_now)
    try:
        checked = prepare(planning.Overlay(book, extra), key).run  # the refit run in memory: no sheet drawn
    except WorkbookError as exc:
        raise refuse(masked.problems(list(exc.problems))) from None
    if checked.waiting is not None and checked.waiting.sheet == sheet:
        first = header_row(raw, kind) + 2 if raw else 2
        raise refuse([CellProblem(sheet, f"A{first}", masked.message(f"still missing: {checked.waiting.what}"))])
    rows: list[list[Any]] = [list(kind.header)]
    for r in body[1:]:
        values = [_clean(h.get(r, c.name)) for c in kind.columns]
        values = [masked.unmask(v) if isinstance(v, str) else v for v in values]
        if unchosen(kind, values):
            continue
        if any(v is not None for v in values):
            rows.append(values)
    append_sheets(book_path, [NewSheet(sheet, rows, kind="orders", column_widths=[c.width for c in kind.columns])],
                  batch=f"Import {sheet}", read=book.gate, replace=replace)
    return f"imported {sheet} into {book_path}: {len(rows) - 1} order(s)"
