"""Writing a player's export: a whole new workbook (XlsxWriter), holding only
what is given to it. Nothing else goes in: no hidden sheet, no defined name
(but print titles), no comment, no formula but a form's own totals
(:mod:`automation.workbook.forms.draw`), blank document properties; every text is written as text
through :func:`automation.workbook.text.write_text` (text that starts with
= + - @ never becomes a formula, text shaped like rich-text markup stays text).
Every sheet prints one page wide with its header repeated, landscape when wide
(:mod:`automation.workbook.layout`); code columns (factors, IDs, date labels) are
Text-formatted, and a date in one of them is written as its label."""
from __future__ import annotations

import datetime as dt
import hashlib
import io
import itertools
import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.pbem.partstore import JOINED, PartStore, part_key, part_keys
from automation.pbem.xlsxrun import Copy
from automation.workbook.layout import WIDE_COLUMN, code_columns, header_width, page_setup
from automation.workbook.layout import TAB_COLOURS
from automation.errors import UsageError, WorkbookFileError
from automation.frozen import changed
from automation.workbook.text import cell_text, check_calendar_date, date_label
from automation.workbook.cellxml import SHORT_TEXT, around, column_letters, extent, splice, text_xml
from automation.workbook.zipraw import ANEW_LEVEL, KEPT_LEVEL, Deflated, parse_zip, write_zip

NEUTRAL_DATE = dt.datetime(2000, 1, 1)
PART_FORMAT = 1  # the version of a plain sheet's part as written here: a change here writes every part anew
MAX_WIDTH = 60
WRITE_BUFFER = 1 << 20
SAFE_INTEGER = 1 << 53  # a whole number within this is written with all its digits


@dataclass(frozen=True)
class Dropdown:
    """A dropdown on one column from ``first_row`` to ``last_row`` (0-based,
    header = 0): a list of values, or a range such as ``=Choices!$A$2:$A$40``.
    ``strict=False`` lets other values be typed (Excel only warns)."""

    column: int
    source: Sequence[str] | str
    first_row: int = 1
    last_row: int = 200
    strict: bool = True
    title: str = ""
    message: str = ""


@dataclass(frozen=True)
class OutSheet:
    name: str
    rows: Sequence[Sequence[Any]]  # header first
    tab: str = "report"
    widths: Sequence[float] | None = None
    dropdowns: Sequence[Dropdown] = field(default_factory=tuple)
    notes: Sequence[tuple[int, str]] = ()  # (column, text) written in the header row after the columns
    form: Any = None  # an automation.workbook.forms.model.Form: the sheet is that form, drawn by its own module
    source: str = ""  # what the rows are a function of (a sealed sheet's stamp ...): its part may be carried
    # runs of the rows after the header, in order: (what that run is a function of, or "" for nothing carried,
    # how many rows): each carried run's XML may be taken as an earlier export deflated it (the Dice audit).
    # Rows that work out their cells when read (automation.audit.player.CommittedRows) say their ``width`` and
    # ``last_cell(start, stop)`` without it, so a carried run's rows are never read.
    segments: Sequence[tuple[str, int]] = ()

    @classmethod
    def sealed(cls, name: str, rows: Sequence[Sequence[Any]], tab: str, source: str) -> OutSheet:
        """A sheet of ``rows`` with its ``tab`` and ``source`` and every other
        field as by default (as the constructor, without its checks: an
        export makes one of these for each of a thousand sealed sheets)."""
        made = object.__new__(cls)
        made.__dict__.update(_DEFAULTS, name=name, rows=rows, tab=tab, source=source)
        return made

    def but(self, **changes: Any) -> OutSheet:
        """This sheet with ``changes`` (:func:`automation.frozen.changed`: an
        export changes a field of each of a thousand sheets)."""
        return changed(self, changes)


_DEFAULTS = OutSheet("", ()).__dict__.copy()  # every field as a sheet made with a name and rows alone has it


def _width(rows: Sequence[Sequence[Any]], col: int) -> float:
    longest = max((len(str(r[col])) for r in rows[:200] if col < len(r) and r[col] is not None), default=8)
    return float(min(max(longest + 2, 8), MAX_WIDTH))


def _workbook_class() -> type:
    """XlsxWriter's Workbook, with its check that a new sheet's name is not
    taken made against a set of the names taken: XlsxWriter compares it with
    every sheet already added, which is quadratic in an export of a long
    campaign (hundreds of sheets). Its other checks of the name are its own."""
    import xlsxwriter
    from xlsxwriter.exceptions import DuplicateWorksheetName

    class Book(xlsxwriter.Workbook):
        def _check_sheetname(self, sheetname: str, is_chartsheet: bool = False) -> str:
            taken: set[str] = self.__dict__.setdefault("_taken_names", set())
            if sheetname and sheetname.lower() in taken:
                raise DuplicateWorksheetName(f"Sheetname '{sheetname}', with case ignored, is already in use.")
            added, self.worksheets_objs = self.worksheets_objs, []  # the names are checked against the set above
            try:
                name = super()._check_sheetname(sheetname, is_chartsheet)
            finally:
                self.worksheets_objs = added
            taken.add(name.lower())
            return name

        def take_names(self, names: Sequence[str]) -> None:
            """``names`` taken, each checked as a sheet's name before (the sheets of a run: xlsxrun)."""
            self.__dict__.setdefault("_taken_names", set()).update(name.lower() for name in names)

        def check_sheetnames(self, names: Sequence[str]) -> None:
            """:meth:`_check_sheetname` of each of ``names``: the sheets whose
            parts are copied as stored are named as drawn sheets must be, once."""
            for name in names:
                self._check_sheetname(name)

    return Book


def write(path: Path, sheets: Sequence[OutSheet], parts: PartStore | None = None, context: str = "",
          orders: int = 0) -> None:
    """Write ``sheets`` to ``path``, the ``orders`` after the first holding
    the orders to fill. With ``parts``, a sheet with a ``source`` whose part
    an earlier export wrote (same source, layout, styles and ``context``) is
    copied as stored and never drawn (:mod:`automation.pbem.xlsxcarry`), the
    leading ones after the orders as one piece when an earlier export wrote
    them so (:mod:`automation.pbem.xlsxrun`), and each part written is kept
    there (:mod:`automation.pbem.partstore`)."""
    import xlsxwriter

    out = io.BytesIO()
    book = _workbook_class()(out, {"strings_to_formulas": False, "strings_to_urls": False,
                                   "strings_to_numbers": False, "in_memory": True})
    book.set_properties({"title": "", "subject": "", "author": "", "manager": "", "company": "", "category": "",
                         "keywords": "", "comments": "", "status": "", "created": NEUTRAL_DATE})
    styles = {
        "head": book.add_format({"bold": True, "bg_color": "#D9E1F2", "border": 1}),
        "note": book.add_format({"bold": True, "font_color": "#C00000"}),
        "text": book.add_format({"num_format": "@"}),
        "left": book.add_format({"align": "left"}),
        "wrap": book.add_format({"text_wrap": True, "valign": "top"}),
        "run": book.add_format({}),
    }
    ids = tuple((name, fmt._get_xf_index()) for name, fmt in styles.items())  # fixed before any form's styles
    # sheet number -> its rows and extent, put in after XlsxWriter
    raw: dict[int, tuple[list[str | Piece | Packed], str]] = {}
    carried: dict[int, Deflated] = {}  # sheet number -> its whole part, as an earlier export stored it
    keys: dict[int, str] = {}  # sheet number -> the key its part is kept under
    first = 2 + orders  # the place of the first sheet that may go in a run (xlsxrun): after the first, and the orders
    leading = _leading(sheets, first)
    run = None  # what this export copies of the run an earlier export wrote (those of them that are the same)
    in_run: set[int] = set()  # their places
    common = ""
    if parts is not None:
        common = part_key(PART_FORMAT, xlsxwriter.__version__, context, ids)
        run = parts.run(common, leading)
        layout = part_keys(PART_FORMAT, xlsxwriter.__version__, context, ids)
        in_run = {first + i for i in run.indexes()} if run is not None else set()
        for index, sheet in enumerate(sheets, start=1):
            if index in in_run:
                continue  # (keyed in the run)
            if sheet.form is None and sheet.source:
                keys[index] = layout(sheet.source, sheet.tab, sheet.widths, sheet.notes, sheet.dropdowns)
                if index > 1 and (found := parts.get(keys[index])) is not None:
                    carried[index] = found  # (the first sheet is drawn: it is the one shown on opening)
    drawn: dict[int, Any] = {}  # sheet number -> XlsxWriter's worksheet
    held = 0  # the characters of the cells drawn so far (past HELD_TEXT, each sheet's are held deflated)
    try:
        # named as drawn sheets must be when the run was written: their names are taken
        book.take_names([sheets[index - 1].name for index in in_run])
        book.check_sheetnames([sheets[index - 1].name for index in carried])
        for index, sheet in enumerate(sheets, start=1):
            if index in carried or index in in_run:
                continue
            ws = drawn[index] = book.add_worksheet(sheet.name)
            ws.set_tab_color(TAB_COLOURS.get(sheet.tab, "#7F7F7F"))
            if sheet.form is not None:
                from automation.workbook.forms.draw import draw

                draw(book, ws, sheet.form)
                continue
            width = getattr(sheet.rows, "width", None) or max((len(r) for r in sheet.rows), default=0)
            codes = set(code_columns(sheet.rows[0])) if sheet.rows else set()
            widths = [sheet.widths[c] if sheet.widths and c < len(sheet.widths) else _width(sheet.rows, c)
                      for c in range(width)]
            widths = [max(w, header_width(sheet.rows[0][c] if c < len(sheet.rows[0]) else None)) for c, w in enumerate(widths)]
            for c, w in enumerate(widths):
                column_style = "text" if c in codes else "wrap" if w >= MAX_WIDTH else None
                ws.set_column(c, c, w, styles[column_style] if column_style else None)
            columns = {c: styles["text" if c in codes else "wrap"] for c, w in enumerate(widths)
                       if c in codes or w >= MAX_WIDTH}
            if parts is not None and sheet.segments:
                layout = (PART_FORMAT, xlsxwriter.__version__, context, ids, widths, sorted(codes))
                raw[index] = _segmented(sheet, codes, widths, styles, columns, parts, layout)
            else:
                xml, last_row, last_col = _sheet_data(sheet, codes, widths, styles, columns)
                held += len(xml)
                raw[index] = ([xml if held <= HELD_TEXT else Packed.of(xml)], extent(last_row, last_col))
            for c, text in sheet.notes:
                ws.set_column(c, c, max(len(text) + 2, 12))
                widths += [12.0] * (c + 1 - len(widths))
                widths[c] = max(len(text) + 2, 12)
            page_setup(ws, widths)  # print titles: header_rows=1, as for a carried part
            ws.freeze_panes(1, 0)
            for d in sheet.dropdowns:
                options: dict[str, Any] = {"validate": "list", "source": d.source, "ignore_blank": True}
                if not d.strict:
                    options["error_type"] = "information"
                if d.title:
                    options["input_title"] = d.title[:32]
                if d.message:
                    options["input_message"] = d.message[:255]
                ws.data_validation(d.first_row, d.column, d.last_row, d.column, options)
    finally:
        book.close()
    _package(path, book, out.getvalue(), sheets, drawn, raw, carried, keys, parts, (common, first, leading), run)


def _leading(sheets: Sequence[OutSheet], first: int) -> list[tuple[str, str, str]]:
    """(source, tab, name) of the sheet at place ``first`` and of each one
    after it that may go in a run (:mod:`automation.pbem.xlsxrun`: a plain
    sheet with a source, laid out by default), up to the first that may not."""
    leading = []
    for sheet in sheets[first - 1:]:
        if not (sheet.form is None and sheet.source and not sheet.segments and sheet.widths is None
                and not sheet.notes and not sheet.dropdowns):
            break
        leading.append((sheet.source, sheet.tab, sheet.name))
    return leading


class Where:
    """Sheet!Cell of a cell written, spelled out only if a message names it;
    ``text``: the cell is in a code (Text) column."""

    __slots__ = ("sheet", "r", "c", "text")

    def __init__(self, sheet: str, r: int, c: int, text: bool = False) -> None:
        self.sheet, self.r, self.c, self.text = sheet, r, c, text

    def __str__(self) -> str:
        return f"{self.sheet}!{_ref(self.r, self.c)}"


def _ref(r: int, c: int) -> str:
    from xlsxwriter.utility import xl_rowcol_to_cell

    return xl_rowcol_to_cell(r, c)


LINE_HEIGHT = 15.0  # points: one line of the default font
def _cell_xml(ref: str, r: int, value: Any, style: int | None, where: Where) -> str:
    """One cell's XML (empty text: nothing). Text is always an inline string:
    never a formula, a number or markup, whatever it looks like."""
    s = f' s="{style}"' if style else ""
    if isinstance(value, bool):
        value = "Yes" if value else "No"
    elif isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise UsageError(f"{where}: {value!r} is not a number a workbook can hold")
        return f'<c r="{ref}"{s}><v>{value:.16G}</v></c>'
    elif isinstance(value, dt.date) and where.text and r:
        value = date_label(value)  # a date in a label column is the label the umpire typed
    elif isinstance(value, dt.datetime):
        check_calendar_date(value, str(where))
        value = value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    elif isinstance(value, dt.date):
        value = check_calendar_date(value, str(where)).isoformat()
    text = str(value)
    if not (text.isascii() and len(text) <= SHORT_TEXT):  # a lone surrogate, or a text too long for a cell
        text = cell_text(text, str(where))
    return f'<c r="{ref}"{s} t="inlineStr">{text_xml(text)}</c>'


def _sheet_data(sheet: OutSheet, codes: set[int], widths: list[float], styles: dict[str, Any],
                columns: dict[int, Any], start: int = 0, stop: int | None = None) -> tuple[str, int, int]:
    """The cells of a plain sheet's rows ``start`` to ``stop`` (all: the whole
    sheet) as sheet XML, and the last row and column with a cell (-1: none):
    each cell styled as the header, a code (Text) column, a wide column or its
    column's own style."""
    ids = {name: fmt._get_xf_index() for name, fmt in styles.items()}
    column_ids = {c: fmt._get_xf_index() for c, fmt in columns.items()}
    wide = {c for c, w in enumerate(widths) if w >= WIDE_COLUMN}
    wrapped = [c for c, w in enumerate(widths) if w >= MAX_WIDTH and c not in codes]  # long text wraps: rows grow
    out: list[str] = []
    last_row = last_col = last = -1
    letters = column_letters(max((len(r) for r in sheet.rows[start:stop]), default=0))

    def style_of(r: int, c: int, number: bool) -> int | None:
        # a number in a wide column is left-aligned; text there takes its column's style
        return ids["head"] if r == 0 else ids["text"] if c in codes else \
            ids["left"] if c in wide and number else column_ids.get(c)
    # most cells (plain text, whole numbers) written at once, as _cell_xml writes them: each column's style
    as_text = [f' s="{s}"' if (s := style_of(1, c, False)) else "" for c in range(len(letters))]
    as_number = [f' s="{s}"' if (s := style_of(1, c, True)) else "" for c in range(len(letters))]
    bodies: dict[str, str] = {}  # each text's XML, made once (a roster repeats most of its texts)
    for r, row in enumerate(sheet.rows[start:stop], start=start):
        if r == 0:  # the header, and the notes beside it
            head = {c: _cell_xml(letters[c] + "1", 0, value, ids["head"], Where(sheet.name, 0, c, text=c in codes))
                    for c, value in enumerate(row) if value is not None and value != ""}
            for c, text in sheet.notes:
                head[c] = _cell_xml(_ref(0, c), 0, text, ids["note"], Where(sheet.name, 0, c))
            if head:
                out.append(f'<row r="1">{"".join(head[c] for c in sorted(head))}</row>')
                last_row, last_col = 0, max(last_col, max(head))
            continue
        cells: list[str] = []  # (from left to right)
        number_row = str(r + 1)
        for c, value in enumerate(row):
            if value is None or value == "":
                continue
            kind = type(value)
            if kind is str and len(value) <= SHORT_TEXT and value.isascii():
                body = bodies.get(value)
                if body is None:
                    body = bodies[value] = text_xml(value)
                cells.append(f'<c r="{letters[c]}{number_row}"{as_text[c]} t="inlineStr">{body}</c>')
            elif kind is int and -SAFE_INTEGER < value < SAFE_INTEGER:  # (all its digits, as .16G writes it)
                cells.append(f'<c r="{letters[c]}{number_row}"{as_number[c]}><v>{value}</v></c>')
            else:
                number = isinstance(value, (int, float)) and kind is not bool
                cells.append(_cell_xml(letters[c] + number_row, r, value, style_of(r, c, number),
                                       Where(sheet.name, r, c, text=c in codes)))
            last = c
        if cells:
            lines = max((_lines(row[c], widths[c]) for c in wrapped if c < len(row) and isinstance(row[c], str)),
                        default=1) if wrapped else 1
            height = f' ht="{LINE_HEIGHT * lines:g}" customHeight="1"' if lines > 1 else ""
            out.append(f'<row r="{number_row}"{height}>{"".join(cells)}</row>')
            last_row, last_col = r, max(last_col, last)
    return "".join(out), last_row, last_col


RUN_STALE = 8  # the run of leading sheets is kept anew (xlsxrun) once more than an eighth of them were not copied
# from it: an export after a refit adds a few sheets (a run of 600 is 4 MB, written anew every dozen dates or so)
HELD_TEXT = 8 << 20  # characters of cells an export holds as text until its parts are put together


@dataclass(frozen=True)
class Packed:
    """A drawn sheet's cells as XML, held deflated (fast) until its part is
    put together: the first export of a long campaign draws every sheet the
    side may see (40 MB of text at 5,000 stands and 100 dates), which would
    otherwise all be held at once. Inflated, it is the text it was made from,
    so the part is the same bytes."""

    body: bytes

    @classmethod
    def of(cls, xml: str) -> Packed:
        return cls(zlib.compress(xml.encode("utf-8"), 1))

    def text(self) -> str:
        return zlib.decompress(self.body).decode("utf-8")


@dataclass(frozen=True)
class Piece:
    """Rows of a sheet as a deflated piece of its part (:meth:`Deflated.piece`):
    built now (``data``: what it inflates to) or carried (checked as it is
    used; ``rebuild`` gives the rows' XML again should it not read back)."""

    stored: Deflated
    data: bytes | None = None
    rebuild: Callable[[], str] | None = None
    as_stored: bool = False  # a run of pieces an earlier export joined: taken as its CRC-32 and size say

    @classmethod
    def of(cls, xml: str) -> Piece:
        data = xml.encode("utf-8")
        return cls(Deflated.piece(data), data)

    def checked(self) -> tuple[Deflated, bytes | None]:
        if self.data is not None or self.as_stored:
            return self.stored, self.data
        data = self.stored.inflated()
        if data is not None:
            return self.stored, data
        if self.rebuild is None:
            raise WorkbookFileError("internal error: a carried run of rows did not read back and cannot be rebuilt")
        return Piece.of(self.rebuild()).checked()  # a store damaged since: built again


def _segmented(sheet: OutSheet, codes: set[int], widths: list[float], styles: dict[str, Any],
               columns: dict[int, Any], parts: PartStore, layout: tuple) -> tuple[list[str | Piece], str]:
    """A sheet with ``segments``: its header row built, each carried run of
    rows taken from ``parts`` when an earlier export deflated the same run at
    the same row (else built and kept there), any other run built. The
    carried runs from the first row on are also kept joined (:func:`_joined_runs`):
    the next export takes them as one piece, neither looked up one by one nor
    inflated (the Dice audit of a long campaign: every date's rolls)."""
    pieces: list[str | Piece] = []
    xml, last_row, last_col = _sheet_data(sheet, codes, widths, styles, columns, 0, 1)
    pieces.append(xml)
    runs = [(what, count) for what, count in [*sheet.segments, ("", max(len(sheet.rows) - 1 - sum(
        n for _, n in sheet.segments), 0))] if count > 0]
    starts = list(itertools.accumulate((count for _, count in runs), initial=1))  # each run's first row, then the end
    run_key = part_keys(*layout, "rows")
    keys = [run_key(what, start, count) if what else "" for (what, count), start in zip(runs, starts)]
    leading = next((i for i, key in enumerate(keys) if not key), len(keys))  # the runs from the first row with a key
    joined_keys = _joined_keys(layout, keys[:leading])
    done, joined = 0, None
    for i in range(leading, 0, -1):  # the most runs an earlier export kept joined
        joined = parts.get(joined_keys[i - 1])
        if joined is not None:
            done = i
            break
    last_cell = getattr(sheet.rows, "last_cell", None)  # rows that know it without being read
    at = 1
    if joined is not None:
        stop = starts[done]
        end_row, end_col = last_cell(at, stop) if last_cell else _last_cell(sheet.rows, at, stop)
        pieces.append(Piece(joined, as_stored=True))
        if end_row >= 0:
            last_row, last_col = end_row, max(last_col, end_col)
        at = stop
    for (what, count), key in zip(runs[done:], keys[done:]):
        stop = at + count
        found = parts.get(key) if key else None
        piece: str | Piece
        if found is not None:
            end_row, end_col = last_cell(at, stop) if last_cell else _last_cell(sheet.rows, at, stop)
            piece = Piece(found, rebuild=lambda a=at, b=stop: _sheet_data(sheet, codes, widths, styles,
                                                                         columns, a, b)[0])
        else:
            xml, end_row, end_col = _sheet_data(sheet, codes, widths, styles, columns, at, stop)
            piece = Piece.of(xml) if key else xml
            if isinstance(piece, Piece):
                parts.keep(key, piece.stored)
        pieces.append(piece)
        if end_row >= 0:
            last_row, last_col = end_row, max(last_col, end_col)
        at = stop
    if leading > done:  # the runs joined up to here, for the next export: they hold the runs joined before
        taken = 1 + leading - done + (joined is not None)
        kept = _joined_runs(pieces[1:taken])
        parts.keep(joined_keys[leading - 1], kept)
        if joined is not None:
            parts.replaced(joined_keys[done - 1])
        pieces[1:taken] = [Piece(kept, as_stored=True)]  # (the part takes them as kept: not joined again)
    return pieces, extent(last_row, last_col)


def _joined_keys(layout: tuple, keys: Sequence[str]) -> list[str]:
    """The key of the first 1, 2, ... runs of rows of ``keys`` kept joined (one hash carried along)."""
    digest = hashlib.sha256(repr((*layout, "joined runs")).encode("utf-8"))
    out = []
    for key in keys:
        digest.update(key.encode("ascii"))
        out.append(JOINED + digest.copy().hexdigest()[:40])
    return out


def _joined_runs(pieces: Sequence[str | Piece]) -> Deflated:
    """Runs of rows one after the other, as one deflated piece
    (:meth:`Deflated.run`): the first (joined before) as stored, the others'
    data read back (a carried run that does not read back: built again)."""
    assert all(isinstance(piece, Piece) for piece in pieces)
    return Deflated.run([piece.checked() for piece in pieces if isinstance(piece, Piece)])


def _last_cell(rows: Sequence[Sequence[Any]], start: int, stop: int) -> tuple[int, int]:
    """The last of rows ``start`` to ``stop`` with a cell, and the rightmost column with one (-1: none),
    as :func:`_sheet_data` finds them, without writing the rows."""
    last_row = last_col = -1
    for r, row in enumerate(rows[start:stop], start=start):
        filled = [c for c, v in enumerate(row) if v is not None and v != ""]
        if filled:
            last_row, last_col = r, max(last_col, filled[-1])
    return last_row, last_col


def _lines(text: str, width: float) -> int:
    """The lines ``text`` takes wrapped in a column ``width`` characters wide
    (a row high enough for them, as no program sizes rows on opening)."""
    per_line = max(int(width) - 2, 8)
    return sum(max(1, -(-len(part) // per_line)) for part in text.split("\n"))


def _package(path: Path, book: Any, data: bytes, sheets: Sequence[OutSheet], drawn: dict[int, Any],
             raw: dict[int, tuple[list[str | Piece | Packed], str]], carried: dict[int, Deflated], keys: dict[int, str],
             parts: PartStore | None, leading: tuple[str, int, Sequence[tuple[str, str, str]]] = ("", 2, ()),
             run: Copy | None = None) -> None:
    """Write the export to ``path``: the package XlsxWriter wrote (``data``,
    the ``drawn`` sheets alone), each plain sheet's cells put into the part
    XlsxWriter wrote empty, and the ``carried`` sheets' parts as stored, in
    their places, and the stretches of an earlier ``run`` this export copies,
    each in one piece; every other member is copied as stored. With
    ``parts``, the run of the ``leading`` sheets (their layout's key, the
    first one's place, and each one's source, tab and name) as written is
    kept for the next export when the one copied from is stale
    (:data:`RUN_STALE`, :mod:`automation.pbem.xlsxrun`)."""
    from automation.pbem.xlsxcarry import Titles, layout
    from automation.pbem.xlsxrun import kept_after

    written = parse_zip(data, str(path))
    small = {index: n for n, index in enumerate(drawn, start=1)}  # XlsxWriter numbered the drawn sheets alone
    replaced: dict[str, bytes | Deflated] = {}
    for index, (held, dimension) in raw.items():
        pieces = [p.text() if isinstance(p, Packed) else p for p in held]
        name = f"xl/worksheets/sheet{small[index]}.xml"
        part, where = written.read(name).decode("utf-8"), f"{path}: sheet {index}"
        if all(isinstance(p, str) for p in pieces):
            text = splice(part, "".join(p for p in pieces if isinstance(p, str)), dimension, where)
            # a sealed sheet's part is kept and copied into the exports after this one; any other (the latest
            # roster's view, the Export sheet) is drawn anew by each export: deflated fast (pkgfile.LAST's level)
            stored = Deflated.of(text.encode("utf-8"), KEPT_LEVEL if sheets[index - 1].source else ANEW_LEVEL)
        else:  # carried runs of rows: the part is joined from deflated pieces
            before, after = around(part, dimension, where)
            joined = [Piece.of(before).checked()]
            joined += [(Piece.of(p) if isinstance(p, str) else p).checked() for p in pieces]
            stored = Deflated.joined(joined, after.encode("utf-8"))
        replaced[name] = stored
        if parts is not None and index in keys:
            parts.keep(keys[index], stored)
    own = {index: replaced.get(f"xl/worksheets/sheet{n}.xml") or written.deflated(f"xl/worksheets/sheet{n}.xml")
           or written.read(f"xl/worksheets/sheet{n}.xml") for index, n in small.items()}
    titles = {index: Titles.of(ws) for index, ws in drawn.items()}
    common, first, ahead = leading
    copied = [*(first + i for i in run.indexes()), *carried] if run is not None else list(carried)
    titles.update(zip(copied, Titles.header_rows([sheets[index - 1].name for index in copied])))
    source, parts_at = layout(book, written, [s.name for s in sheets], list(drawn), titles, {**own, **carried},
                              first - 2, run.pieces() if run is not None else {})
    tmp = path.with_name(path.name + ".cells")
    with tmp.open("wb", buffering=WRITE_BUFFER) as out:  # a long campaign's export: a thousand parts, few writes
        done = write_zip(out, source, parts_at, set(), [])
    tmp.replace(path)
    if parts is not None:
        from_run = sum(end - start for start, end in run.spans) if run is not None else 0
        if ahead and (run is None or len(ahead) - from_run > len(ahead) // RUN_STALE):
            new_keys = {i: keys[first + i] for i in range(len(ahead)) if first + i in keys}
            parts.keep_run(kept_after(done, common, ahead, new_keys, run.kept if run is not None else None,
                                      run.spans if run is not None else ()))
