"""New sheets for an existing workbook: their description, their rendering, their graft.

``NewSheet`` describes one sheet Musterroll adds to a campaign workbook. ``render``
draws a batch of them with XlsxWriter into a throw-away workbook in memory (bold,
bordered header row frozen in place, column widths, tab colour, dropdown lists, an
optional native line chart), and ``graft`` takes that workbook apart: it renames the
sheet, drawing and chart parts so they never collide with the target's parts,
rewrites their relationships, and appends the few cell formats the sheets use to the
target's ``styles.xml`` (append only; the ``s="N"`` indexes are remapped). The
package writer (``automation.workbook.package``) then adds the parts to the target.

XlsxWriter draws each sheet (columns, page setup, dropdowns, chart) without its
cells; the cells are written as sheet XML by :func:`_rows_xml`
(:mod:`automation.workbook.cellxml`), styled with XlsxWriter's own formats. Text
is always an inline string (``t="inlineStr"``, escaped: text that starts with
``=``, ``+``, ``-`` or ``@`` or is shaped like ``<r>...</r>`` stays text), so the
target's ``sharedStrings.xml`` is never needed. Double quotes in a dropdown list,
which XlsxWriter does not escape, are doubled here.

Every sheet prints (:mod:`automation.workbook.layout`): one page wide, landscape
when wide, the header row repeated; code columns (factors, IDs, date labels) are
Text-formatted.

Tab colours by kind: report blue #4472C4, roster green #548235, orders orange
#ED7D31, ledger gold #BF8F00, log grey #7F7F7F, tables purple #7030A0, settings dark
red #C00000.

The XML toolkit both modules use to edit package parts as text lives in
:mod:`automation.workbook.xmlparts`; its names are re-exported here.
"""
from __future__ import annotations

import datetime as dt
import io
import math
import posixpath
import re
import tempfile
import zipfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Sequence

from automation.errors import UsageError, WorkbookFileError

if TYPE_CHECKING:  # XlsxWriter is imported where sheets are rendered: undo never loads it
    from xlsxwriter.workbook import Workbook
    from xlsxwriter.worksheet import Worksheet
from automation.workbook.layout import TAB_COLOURS, WIDE_COLUMN, code_columns, header_width, page_setup
from automation.workbook.cellxml import SHORT_TEXT, column_letters, extent, splice, text_xml
from automation.workbook.zipraw import Deflated, parse_zip, write_zip
from automation.workbook.text import MAX_TEXT, cell_text, check_calendar_date, utf16_len  # noqa: F401
from automation.workbook.xmlparts import (  # noqa: F401 - re-exported for the package writer
    EP_NS, MAIN_NS, PKG_REL_NS, VT_NS, XML_NS, Edit, XmlDoc, XNode, apply_edits, escape_attr,
    escape_text, in_scope, insert_child, parse_xml, prefix_for, qualified, set_attr, unescape,
)
MAX_ROWS, MAX_COLS = 1_048_576, 16_384
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def check_sheet_name(name: object) -> str:
    """Return ``name`` if Excel accepts it as a sheet name, else raise UsageError."""
    if not isinstance(name, str) or not name:
        raise UsageError(f"sheet name {name!r}: a sheet needs a non-empty text name")
    for bad, why in (
        (utf16_len(name) > 31, f"is {utf16_len(name)} characters long; Excel allows 31"),
        (bool(set("[]:*?/\\") & set(name)), "contains one of [ ] : * ? / \\, which Excel does not allow"),
        (name[0] == "'" or name[-1] == "'", "may not start or end with an apostrophe"),
        (bool(_CONTROL.search(name)), "contains a control character"),
        (bool(re.search("[\ud800-\udfff]", name)), "contains a lone surrogate, which is not a character"),
        (name.lower() == "history", "is reserved by Excel"),
    ):
        if bad:
            raise UsageError(f"sheet name {name!r} {why}")
    return name


@dataclass(frozen=True)
class ListValidation:
    """A dropdown list on one column: rows ``first_row..last_row`` (0-based, row 0 is
    the header; ``last_row=None`` means the last row of ``rows``)."""

    column_index: int
    allowed: tuple[str, ...]
    first_row: int = 1
    last_row: int | None = None


@dataclass(frozen=True)
class LineChartSpec:
    """A native line chart: one series per column of ``series_columns`` (named by its
    header), categories from ``categories_column``, over data rows ``first_row..last_row``
    (0-based; ``None`` = last row), its top-left corner at ``anchor`` (e.g. "H2"). With
    a single data row it is drawn as columns, readable from the first date."""

    categories_column: int
    series_columns: tuple[int, ...]
    anchor: str = "H2"
    title: str = ""
    first_row: int = 1
    last_row: int | None = None


@dataclass(frozen=True)
class NewSheet:
    """One sheet to add. ``rows[0]`` is the header; values are str, int, float, bool,
    None (blank) or datetime.date/datetime. Column indexes are 0-based."""

    name: str
    rows: Sequence[Sequence[object]]
    kind: str = "report"
    column_widths: Sequence[float] | None = None
    validations: Sequence[ListValidation] = ()
    chart: LineChartSpec | None = None
    hidden: bool = False
    form: object = None  # an automation.workbook.forms.model.Form: the sheet is that form, drawn by its own module

    @property
    def title_rows(self) -> int:
        """The top rows printed on every page: the header (a form: its title, status and header rows)."""
        from automation.workbook.forms.model import HEADER_ROW

        return HEADER_ROW + 1 if self.form is not None else 1

    def __post_init__(self) -> None:
        check_sheet_name(self.name)
        if self.kind not in TAB_COLOURS:
            raise UsageError(f"sheet {self.name!r}: kind {self.kind!r} is not one of {', '.join(TAB_COLOURS)}")
        if not self.rows or not len(self.rows[0]):
            raise UsageError(f"sheet {self.name!r}: the first row (the header) is missing")
        if len(self.rows) > MAX_ROWS:
            raise UsageError(f"sheet {self.name!r}: {len(self.rows)} rows; Excel allows {MAX_ROWS}")


def _fail(code: int | None, where: str, what: str) -> None:
    if code is not None and code < 0:
        raise UsageError(f"{where}: {what}")


def _auto_widths(rows: Sequence[Sequence[object]]) -> list[float]:
    widths: dict[int, float] = {}
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                size = 16 if isinstance(value, dt.datetime) else 10 if isinstance(value, dt.date) else max(
                    (utf16_len(line) for line in str(value).splitlines()), default=0)
                widths[c] = max(widths.get(c, 0.0), size * (1.1 if r == 0 else 1.0))
    return [min(max(widths.get(c, 0.0) + 2, 8.0), 60.0) for c in range(max(widths, default=-1) + 1)]


def _last(rows: Sequence[Sequence[object]], last: int | None, first: int) -> int:
    return max(len(rows) - 1, first) if last is None else last


Cells = Mapping[str, tuple[str, str, frozenset[int]]]  # sheet part -> its rows' XML, their extent, the styles used


def render(sheets: Sequence[NewSheet]) -> tuple[bytes, dict[str, str]]:
    """``sheets`` as a workbook of their own, cells and all (see :func:`draw`)."""
    data, placeholders, cells = draw(sheets)
    return _with_cells(data, cells), placeholders


def draw(sheets: Sequence[NewSheet]) -> tuple[bytes, dict[str, str], Cells]:
    """Draw ``sheets`` into a new XlsxWriter workbook without their cells.
    Returns its bytes, the placeholder -> text map of strings to substitute
    (none: text is always written as inline text, escaped) and each plain
    sheet's cells as XML (:mod:`automation.workbook.cellxml`), put in by
    :func:`graft` once their styles are the target's."""
    from xlsxwriter.workbook import Workbook

    out = io.BytesIO()
    with tempfile.TemporaryDirectory(prefix="musterroll-draw-", ignore_cleanup_errors=True) as scratch:
        return _draw_in(sheets, Workbook(out, {"constant_memory": True, "strings_to_numbers": False,
                                               "strings_to_formulas": False, "strings_to_urls": False,
                                               "tmpdir": scratch}), out)


def _draw_in(sheets: Sequence[NewSheet], book: Workbook, out: io.BytesIO) -> tuple[bytes, dict[str, str], Cells]:
    """:func:`draw` into ``book``, whose scratch files live in a folder of
    their own: XlsxWriter keeps each sheet's rows in a file there while it
    writes (constant memory, text inline) and leaves that file behind for a
    sheet with no rows of its own (the cells of a plain sheet are put in
    afterwards), so the folder goes as a whole once the book is closed."""
    numbers = {None: {}, "d": {"num_format": "yyyy-mm-dd"}, "t": {"num_format": "yyyy-mm-dd hh:mm"},
               "@": {"num_format": "@"}, "left": {"align": "left"}}
    formats = {(head, kind): book.add_format({**({"bold": True, "bottom": 1} if head else {}), **extra})
               if head or kind else None for head in (False, True) for kind, extra in numbers.items()}
    styles = {key: fmt._get_xf_index() if fmt is not None else None for key, fmt in formats.items()}
    cells: dict[str, tuple[str, str, frozenset[int]]] = {}
    try:
        for number, sheet in enumerate(sheets, start=1):
            ws = book.add_worksheet(sheet.name)
            ws.set_tab_color(TAB_COLOURS[sheet.kind])
            if sheet.form is not None:
                from automation.workbook.forms.draw import draw

                draw(book, ws, sheet.form)  # type: ignore[arg-type]
                continue
            ws.freeze_panes(1, 0)
            widths = _auto_widths(sheet.rows) if sheet.column_widths is None else list(sheet.column_widths)
            widths = [max(w, header_width(sheet.rows[0][c] if c < len(sheet.rows[0]) else None))
                      if isinstance(w, (int, float)) else w for c, w in enumerate(widths)]
            codes = set(code_columns(sheet.rows[0]))
            for c, width in enumerate(widths):
                if not isinstance(width, (int, float)) or not 0 <= width <= 255:
                    raise UsageError(f"sheet {sheet.name!r}: column width {width!r} must be 0..255")
                ws.set_column(c, c, float(width), formats[(False, "@")] if c in codes else None)
            wide = {c for c, width in enumerate(widths) if width >= WIDE_COLUMN}
            page_setup(ws, widths)
            cells[f"xl/worksheets/sheet{number}.xml"] = _rows_xml(sheet, styles, codes, wide)
            for rule in sheet.validations:
                _validation(ws, sheet, rule)
            if sheet.chart is not None:
                _chart(book, ws, sheet, sheet.chart)
    finally:
        try:
            book.close()
        finally:
            for ws in book.worksheets():
                if getattr(ws, "row_data_fh", None) is not None and not ws.row_data_fh.closed:
                    ws.row_data_fh.close()  # else the folder cannot be removed on Windows
    return out.getvalue(), {}, cells


def _with_cells(data: bytes, cells: Cells) -> bytes:
    """The workbook XlsxWriter wrote, each plain sheet's part holding its cells."""
    written = parse_zip(data, "(new sheets)")
    replaced: dict[str, bytes | Deflated] = {}
    for part, (rows, dimension, used) in cells.items():
        rows = styled(rows, {style: style for style in used})  # (numbered as XlsxWriter numbered them)
        xml = splice(written.read(part).decode("utf-8"), rows, dimension, part)
        replaced[part] = xml.encode("utf-8")
    out = io.BytesIO()
    write_zip(out, written, replaced, set(), [])
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class CellAt:
    """Sheet!Cell of a cell being written, spelled out only when a message names it."""

    sheet: str
    row: int
    col: int

    def __str__(self) -> str:
        from xlsxwriter.utility import xl_rowcol_to_cell

        return f"{self.sheet}!{xl_rowcol_to_cell(self.row, self.col)}"


def _rows_xml(sheet: NewSheet, styles: Mapping[tuple[bool, str | None], int | None], codes: set[int],
              wide: set[int]) -> tuple[str, str, frozenset[int]]:
    """The cells of a plain sheet as sheet XML rows, and their extent. Each
    cell is styled as XlsxWriter styles a cell written with the same format:
    header, code (Text) column, a number left-aligned in a wide column, a date;
    a cell with no format of its own takes its column's (Text in a code column).
    A style is written as a place for its number (:func:`styled`): the target
    workbook numbers it once the styles are merged."""
    out: list[str] = []
    used: set[int] = set()
    last_row = last_col = last = -1
    letters = column_letters(min(max(len(r) for r in sheet.rows), MAX_COLS))
    text_column = styles[(False, "@")]
    bodies: dict[str, str] = {}  # each text's XML, made once: a roster says "German" and "Normal" thousands of times
    # a body cell's XML after its reference, by column and value (a text or a whole number): made once for a value
    # a column repeats (a side, a status, a count), as the cell would be written anew
    tails: dict[tuple[int, object], str] = {}
    for r, row in enumerate(sheet.rows):
        if len(row) > MAX_COLS:
            raise UsageError(f"{sheet.name}!A{r + 1}: {len(row)} columns; Excel allows {MAX_COLS}")
        if r >= MAX_ROWS and any(v is not None for v in row):
            raise UsageError(f"{CellAt(sheet.name, r, 0)}: row {r + 1} is past Excel's last row ({MAX_ROWS:,})")
        head, line = r == 0, str(r + 1)
        written: list[str] = []
        for c, value in enumerate(row):
            if value is None:
                continue
            # (a text or a whole number, never a bool or a float: 1 == True == 1.0)
            key = (c, value) if not head and (type(value) is str or type(value) is int) else None
            if key is not None and (tail := tails.get(key)) is not None:
                written.append(f'<c r="{letters[c]}{line}"{tail}')
                last = c
                continue
            code = c in codes
            if isinstance(value, str):
                if not (value.isascii() and len(value) <= SHORT_TEXT):
                    value = cell_text(value, str(CellAt(sheet.name, r, c)))
                body = bodies.get(value)
                if body is None:
                    body = bodies[value] = text_xml(value)
                style, kind = styles[(head, "@" if code else None)], ' t="inlineStr"'
            elif isinstance(value, bool):
                style, kind, body = styles[(head, None)], ' t="b"', f"<v>{int(value)}</v>"
            elif isinstance(value, (int, float)):
                if not math.isfinite(value if isinstance(value, float) else (1.0 if abs(value) < 1e300 else math.inf)):
                    raise UsageError(f"{CellAt(sheet.name, r, c)}: {value!r} cannot be stored in a workbook")
                style = styles[(head, "left" if c in wide and not code else None)]
                kind, body = "", f"<v>{value:.16G}</v>"
            elif isinstance(value, dt.date):
                where = CellAt(sheet.name, r, c)
                if isinstance(value, dt.datetime) and value.tzinfo is not None:
                    raise UsageError(f"{where}: a date-time with a time zone cannot be stored; use local time")
                check_calendar_date(value, str(where))
                style = styles[(head, "t" if isinstance(value, dt.datetime) else "d")]
                kind, body = "", f"<v>{excel_serial(value):.16G}</v>"
            else:
                raise UsageError(f"{CellAt(sheet.name, r, c)}: a value of type {type(value).__name__} "
                                 "cannot be written")
            if style is None and code:
                style = text_column
            if style is not None:
                used.add(style)
            s = f"\x01{style}\x01" if style is not None else ""  # the style's place, its number put in by styled()
            tail = f"{s}{kind}>{body}</c>"
            if key is not None:
                tails[key] = tail
            written.append(f'<c r="{letters[c]}{line}"{tail}')
            last = c
        if written:
            out.append(f'<row r="{line}">{"".join(written)}</row>')
            last_col = max(last_col, last)  # (the row's last cell: its cells are written from left to right)
            last_row = r
    return "".join(out), extent(last_row, last_col), frozenset(used)


EPOCH = dt.datetime(1899, 12, 31)


def excel_serial(value: dt.date) -> float | int:
    """A date (or date-time) as Excel's serial number, as XlsxWriter writes it
    (Excel's 1900 leap day counted: 1900-03-01 is 61)."""
    if isinstance(value, dt.datetime):
        delta = value - EPOCH
        serial: float | int = delta.days + (delta.seconds + delta.microseconds / 1e6) / 86400
        if value.isocalendar() == (1900, 1, 1):  # XlsxWriter's own rule: 1900-01-01 with a time is a time
            serial -= 1
    else:
        serial = value.toordinal() - EPOCH.toordinal()
    return serial + 1 if serial > 59 else serial


def _validation(ws: Worksheet, sheet: NewSheet, rule: ListValidation) -> None:
    where = f"sheet {sheet.name!r}: dropdown on column {rule.column_index}"
    last = _last(sheet.rows, rule.last_row, rule.first_row)
    if not (0 <= rule.column_index < MAX_COLS and 0 <= rule.first_row <= last < MAX_ROWS):
        raise UsageError(f"{where}: rows {rule.first_row}..{last} or the column are out of range")
    if not rule.allowed or any(not isinstance(v, str) or "," in v or _CONTROL.search(v) for v in rule.allowed):
        raise UsageError(f"{where}: the allowed values must be non-empty texts without commas")
    if utf16_len(",".join(rule.allowed)) > 255:
        raise UsageError(f"{where}: the allowed values add up to more than Excel's 255 characters")
    source = [v.replace('"', '""') for v in rule.allowed]
    _fail(ws.data_validation(rule.first_row, rule.column_index, last, rule.column_index,
                             {"validate": "list", "source": source}), where, "not accepted")


def _chart(book: Workbook, ws: Worksheet, sheet: NewSheet, spec: LineChartSpec) -> None:
    from xlsxwriter.utility import xl_cell_to_rowcol

    where = f"sheet {sheet.name!r}: chart"
    last, cat = _last(sheet.rows, spec.last_row, spec.first_row), spec.categories_column
    if not (1 <= spec.first_row <= last < len(sheet.rows)) or not spec.series_columns:
        raise UsageError(f"{where}: needs at least one series and data rows within the sheet")
    if any(not 0 <= col < len(sheet.rows[0]) for col in (cat, *spec.series_columns)):
        raise UsageError(f"{where}: columns {(cat, *spec.series_columns)} must be columns of the header row")
    if not re.fullmatch(r"\$?[A-Z]{1,3}\$?[1-9][0-9]{0,6}", spec.anchor) or \
            max(xl_cell_to_rowcol(spec.anchor)[0] / MAX_ROWS, xl_cell_to_rowcol(spec.anchor)[1] / MAX_COLS) >= 1:
        raise UsageError(f"{where}: anchor {spec.anchor!r} is not a cell of the sheet such as 'H2'")
    single = last == spec.first_row  # one point draws no line: a single date is shown as columns
    chart = book.add_chart({"type": "column" if single else "line"})
    assert chart is not None
    for col in spec.series_columns:
        series = {"name": [sheet.name, 0, col], "categories": [sheet.name, spec.first_row, cat, last, cat],
                  "values": [sheet.name, spec.first_row, col, last, col]}
        chart.add_series(series if single else {**series, "marker": {"type": "automatic"}})
    if spec.title:
        chart.set_title({"name": spec.title})
    _fail(ws.insert_chart(*xl_cell_to_rowcol(spec.anchor), chart), where, "not placed")


# --------------------------------------------------------------------------- graft

@dataclass(frozen=True)
class GraftedSheet:
    name: str
    part: str
    hidden: bool


@dataclass(frozen=True)
class Graft:
    """What to add to the target: new parts (name, bytes, content type or None for
    relationship parts), the sheets in order, and the target's new styles.xml."""

    parts: tuple[tuple[str, bytes, str | None], ...]
    sheets: tuple[GraftedSheet, ...]
    styles: bytes
    # each new sheet part whose cells were written here (not by XlsxWriter): the extent of its cells
    extents: Mapping[str, str] = field(default_factory=dict)


def _new_name(name: str, taken: set[str], highest: dict[tuple[str, str], int] | None = None) -> str:
    """``name`` numbered past every taken part like it (sheet7.xml), rels included.
    ``highest``: the highest number taken of each kind of name, found once for
    the parts of one graft (a long campaign's package holds a thousand
    sheets, each looked at once, not once for each new sheet)."""
    folder, base = posixpath.split(name)
    m = re.match(r"^(.*?)\d*(\.[^./]+)$", base)
    stem, ext = (m.group(1), m.group(2)) if m else (base, "")
    key = (f"{folder}/{stem}".lower(), ext.lower())
    highest = {} if highest is None else highest
    if key not in highest:
        pattern = re.compile(re.escape(key[0]) + r"(\d+)" + re.escape(key[1]) + "$")
        highest[key] = max([int(hit.group(1)) for t in taken if (hit := pattern.match(t))], default=0)
    n = highest[key] + 1
    while f"{folder}/{stem}{n}{ext}".lower() in taken or f"{folder}/_rels/{stem}{n}{ext}.rels".lower() in taken:
        n += 1
    taken.update({f"{folder}/{stem}{n}{ext}".lower(), f"{folder}/_rels/{stem}{n}{ext}.rels".lower()})
    highest[key] = max(highest[key], n)  # (a name of another kind is never like this one: see the test)
    return f"{folder}/{stem}{n}{ext}"


def rels_name(part: str) -> str:
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def _targets(temp: zipfile.ZipFile, part: str) -> list[tuple[XNode, str]]:
    if rels_name(part) not in temp.namelist():
        return []
    doc = parse_xml(temp.read(rels_name(part)), rels_name(part))
    return [(rel, posixpath.normpath(posixpath.join(posixpath.dirname(part), rel.get("Target"))))
            for rel in doc.root.children if rel.attr("TargetMode") != "External"]


def styled(rows: str, numbers: Mapping[int, int]) -> str:
    """The rows :func:`_rows_xml` wrote, each cell's style (written as its
    number between two U+0001, which text never holds: it is written escaped)
    given its number in ``numbers`` (every style the rows use)."""
    for style, number in numbers.items():
        rows = rows.replace(f"\x01{style}\x01", f' s="{number}"')
    return rows


def graft(rendered: bytes, placeholders: Mapping[str, str], cells: Cells, sheets: Sequence[NewSheet],
          existing: set[str], styles: bytes | None) -> Graft:
    """Rename and rewire the sheets :func:`draw` drew for a package whose
    (lower-cased) part names are ``existing`` and whose styles part holds
    ``styles`` (None: no styles); their cells are put in with the target's
    style numbers."""
    temp = zipfile.ZipFile(io.BytesIO(rendered))
    types = parse_xml(temp.read("[Content_Types].xml"), "[Content_Types].xml").root.children
    defaults = {n.get("Extension").lower(): n.attr("ContentType") for n in types if n.local == "Default"}
    overrides = {n.get("PartName").lstrip("/"): n.attr("ContentType") for n in types if n.local == "Override"}
    taken, renamed, highest = set(existing), {}, {}
    sheet_parts = [f"xl/worksheets/sheet{i + 1}.xml" for i in range(len(sheets))]
    queue = list(sheet_parts)
    while queue:
        part = queue.pop(0)
        if part not in renamed:
            renamed[part] = _new_name(part, taken, highest)
            queue += [target for _, target in _targets(temp, part)]
    style_ref = r'(<(?:c|row) [^>]*?\bs="|<col [^>]*?\bstyle=")(\d+)(")'
    used = {int(m.group(2)) for p in sheet_parts for m in re.finditer(style_ref, temp.read(p).decode())}
    used |= {style for _, _, of_cells in cells.values() for style in of_cells}
    dxf_ref = r'(<cfRule [^>]*?\bdxfId=")(\d+)(")'  # a conditional format's look (a form's overspent total)
    dxfs = {int(m.group(2)) for p in sheet_parts for m in re.finditer(dxf_ref, temp.read(p).decode())}
    new_styles, xf_map = merge_styles(temp.read("xl/styles.xml"), styles, used | {-1 - d for d in dxfs})
    parts: list[tuple[str, bytes, str | None]] = []
    extents: dict[str, str] = {}
    for old, new in renamed.items():
        data = temp.read(old)
        if old in sheet_parts:
            xml = re.sub(style_ref, lambda m: f"{m.group(1)}{xf_map[int(m.group(2))]}{m.group(3)}", data.decode())
            xml = re.sub(dxf_ref, lambda m: f"{m.group(1)}{-1 - xf_map[-1 - int(m.group(2))]}{m.group(3)}", xml)
            xml = _rewrite_sheet(xml, placeholders)
            if old in cells:
                rows, dimension, styles_used = cells[old]
                rows = styled(rows, {style: xf_map[style] for style in styles_used})
                xml = splice(xml, rows, dimension, new)
                extents[new] = dimension
            data = xml.encode()
        parts.append((new, data, overrides.get(old) or defaults.get(old.rpartition(".")[2].lower())))
        if rels_name(old) in temp.namelist():
            doc = parse_xml(temp.read(rels_name(old)), rels_name(old))
            edits = [set_attr(doc, rel, "Target", posixpath.relpath(renamed[target], posixpath.dirname(new)))
                     for rel, target in _targets(temp, old)]
            parts.append((rels_name(new), doc.encode(apply_edits(doc.text, edits)), None))
    grafted = tuple(GraftedSheet(s.name, renamed[p], s.hidden) for s, p in zip(sheets, sheet_parts))
    return Graft(tuple(parts), grafted, new_styles, extents)


def _rewrite_sheet(xml: str, placeholders: Mapping[str, str]) -> str:
    from xlsxwriter.worksheet import Worksheet

    xml = re.sub(r'(<sheetView\b[^>]*?)\s+tabSelected="1"', r"\1", xml)
    for key, text in placeholders.items():
        space = ' xml:space="preserve"' if text != text.strip() else ""
        xml = xml.replace(f"<t>{key}</t>", f"<t{space}>{escape_text(Worksheet._escape_control_characters(text))}</t>")
    if re.search(r'<c [^>]*\bt="s"', xml) or any(key in xml for key in placeholders):
        raise WorkbookFileError("internal error: a new sheet still refers to shared strings (a bug in Musterroll)")
    return xml


_STYLE_ORDER = ("numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles",
                "dxfs", "tableStyles", "colors", "extLst")


def merge_styles(temp_styles: bytes, target: bytes | None, used: set[int]) -> tuple[bytes, dict[int, int]]:
    """Append the cell formats in ``used`` (and their fonts, fills, borders and number
    formats) to ``target``; never reorder or change its entries. Identical entries
    already present (for instance appended by an earlier batch) are reused. A
    negative index ``-1 - d`` in ``used`` stands for differential format ``d``
    (a conditional format's look); it maps to ``-1 - `` its index in ``target``."""
    if target is None:
        return temp_styles, {i: i for i in used}
    src, doc = parse_xml(temp_styles, "xl/styles.xml (new sheets)"), parse_xml(target, "xl/styles.xml")
    lists = ("numFmts", "fonts", "fills", "borders", "cellXfs", "dxfs")

    def children(d: XmlDoc, name: str) -> tuple[XNode, ...]:
        box = d.root.find(name)
        return box.children if box is not None else ()

    ours = {name: [src.text[c.start:c.end] for c in children(src, name)] for name in lists}
    pools = {name: [doc.text[c.start:c.end] for c in children(doc, name)] for name in lists}
    added: dict[str, list[str]] = {name: [] for name in lists}
    codes = {c.attr("formatCode"): int(c.attr("numFmtId") or 0) for c in children(doc, "numFmts")}
    src_codes = {int(c.attr("numFmtId") or 0): c.get("formatCode") for c in children(src, "numFmts")}

    def place(name: str, text: str) -> int:
        if text not in pools[name]:
            pools[name].append(text)
            added[name].append(text)
        return pools[name].index(text)

    def ref(attr: str, index: int) -> int:
        if attr == "xfId":
            return 0
        if attr == "numFmtId":
            if index >= 164 and src_codes[index] not in codes:
                codes[src_codes[index]] = number = max([163, *codes.values()]) + 1
                place("numFmts", f'<numFmt numFmtId="{number}" formatCode="{escape_attr(src_codes[index])}"/>')
            return codes[src_codes[index]] if index >= 164 else index
        name, reserved = {"fontId": ("fonts", 1), "fillId": ("fills", 2), "borderId": ("borders", 1)}[attr]
        return index if index < reserved else place(name, ours[name][index])

    xf_map = {0: 0}
    for index in sorted(i for i in used if i < 0):
        xf_map[index] = -1 - place("dxfs", ours["dxfs"][-1 - index])
    for index in sorted(i for i in used if i > 0):
        head, sep, rest = ours["cellXfs"][index].partition(">")
        head = re.sub(r'\b(numFmtId|fontId|fillId|borderId|xfId)="(\d+)"',
                      lambda m: f'{m.group(1)}="{ref(m.group(1), int(m.group(2)))}"', head)
        xf_map[index] = place("cellXfs", head + sep + rest)
    edits: list[Edit] = []
    for name, new in added.items():
        box = doc.root.find(name)
        fragment = "".join(in_scope(t, box if box is not None else doc.root) for t in new)
        if new and box is not None and box.inner_start == box.end:  # <numFmts count="0"/>: replaced whole
            edits.append(Edit(box.start, box.end, f'<{box.qname} count="{len(new)}">{fragment}</{box.qname}>'))
        elif new and box is not None:
            edits += [insert_child(doc, box, fragment), set_attr(doc, box, "count", str(len(box.children) + len(new)))]
        elif new:
            follows = _STYLE_ORDER[_STYLE_ORDER.index(name) + 1:]
            later = [c for c in doc.root.children if c.ns == MAIN_NS and c.local in follows]
            at = later[0].start if later else doc.root.inner_end
            edits.append(Edit(at, at, in_scope(f'<{name} count="{len(new)}">{fragment}</{name}>', doc.root)))
    return doc.encode(apply_edits(doc.text, edits)), xf_map
