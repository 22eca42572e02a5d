"""New sheets for an existing workbook: their description, their rendering, their graft.

``NewSheet`` describes one sheet Musterroll adds to a campaign workbook. ``render``
draws a batch of them with XlsxWriter into a throw-away workbook in memory (bold,
bordered header row frozen in place, column widths, tab colour, dropdown lists, an
optional native line chart), and ``graft`` takes that workbook apart: it renames the
sheet, drawing and chart parts so they never collide with the target's parts,
rewrites their relationships, and appends the few cell formats the sheets use to the
target's ``styles.xml`` (append only; the ``s="N"`` indexes are remapped). The
package writer (``automation.workbook.package``) then adds the parts to the target.

Strings are always written with ``write_string`` (text that starts with ``=``, ``+``,
``-`` or ``@`` stays text) and XlsxWriter runs in ``constant_memory`` mode, in which it
writes every string inline (``t="inlineStr"``): the target's ``sharedStrings.xml`` is
never needed. Two XlsxWriter quirks are worked around: a plain string shaped like
``<r>...</r>`` would be copied into the XML unescaped (it is written as a placeholder
and substituted afterwards), and double quotes in a dropdown list are not escaped.

Tab colours by kind: report blue #4472C4, roster green #548235, orders orange
#ED7D31, ledger gold #BF8F00, log grey #7F7F7F, tables purple #7030A0, settings dark
red #C00000.

The module also holds the small XML toolkit both modules use to edit package parts
as text (docProps/app.xml's sheet titles included): it keeps every byte it is not
asked to change, so namespaces, prefixes, ``mc:Ignorable``, ``extLst`` and formatting
survive. Every part is first parsed with defusedxml (no DTD, no entities) and the
tokenizer's element list is checked against that parse before any edit is made.
"""
from __future__ import annotations

import codecs
import datetime as dt
import io
import math
import posixpath
import re
import secrets
import zipfile
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from defusedxml import DefusedXmlException
from defusedxml import ElementTree as SafeET
from xlsxwriter.format import Format
from xlsxwriter.utility import xl_cell_to_rowcol, xl_rowcol_to_cell
from xlsxwriter.workbook import Workbook
from xlsxwriter.worksheet import Worksheet

from automation.errors import UsageError, WorkbookFileError

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
XML_NS = "http://www.w3.org/XML/1998/namespace"
EP_NS = "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"
VT_NS = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
TAB_COLOURS: Mapping[str, str] = {
    "report": "#4472C4", "roster": "#548235", "orders": "#ED7D31", "ledger": "#BF8F00",
    "log": "#7F7F7F", "tables": "#7030A0", "settings": "#C00000", "results": "#FFC000",
}
MAX_ROWS, MAX_COLS, MAX_TEXT = 1_048_576, 16_384, 32_767
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def utf16_len(text: str) -> int:
    """Length as Excel counts it (UTF-16 code units)."""
    return len(text.encode("utf-16-le")) // 2


def check_sheet_name(name: object) -> str:
    """Return ``name`` if Excel accepts it as a sheet name, else raise UsageError."""
    if not isinstance(name, str) or not name:
        raise UsageError(f"sheet name {name!r}: a sheet needs a non-empty text name")
    for bad, why in (
        (utf16_len(name) > 31, f"is {utf16_len(name)} characters long; Excel allows 31"),
        (bool(set("[]:*?/\\") & set(name)), "contains one of [ ] : * ? / \\, which Excel does not allow"),
        (name[0] == "'" or name[-1] == "'", "may not start or end with an apostrophe"),
        (bool(_CONTROL.search(name)), "contains a control character"),
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
    (0-based; ``None`` = last row), its top-left corner at ``anchor`` (e.g. "H2")."""

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


def render(sheets: Sequence[NewSheet]) -> tuple[bytes, dict[str, str]]:
    """Draw ``sheets`` into a new XlsxWriter workbook. Returns its bytes and the
    placeholder -> text map of strings XlsxWriter would have mangled."""
    out = io.BytesIO()
    book = Workbook(out, {"constant_memory": True, "strings_to_numbers": False,
                          "strings_to_formulas": False, "strings_to_urls": False})
    numbers = {None: {}, "d": {"num_format": "yyyy-mm-dd"}, "t": {"num_format": "yyyy-mm-dd hh:mm"}}
    formats = {(head, kind): book.add_format({**({"bold": True, "bottom": 1} if head else {}), **extra})
               if head or kind else None for head in (False, True) for kind, extra in numbers.items()}
    placeholders: dict[str, str] = {}
    try:
        for sheet in sheets:
            ws = book.add_worksheet(sheet.name)
            ws.set_tab_color(TAB_COLOURS[sheet.kind])
            ws.freeze_panes(1, 0)
            widths = _auto_widths(sheet.rows) if sheet.column_widths is None else list(sheet.column_widths)
            for c, width in enumerate(widths):
                if not isinstance(width, (int, float)) or not 0 <= width <= 255:
                    raise UsageError(f"sheet {sheet.name!r}: column width {width!r} must be 0..255")
                ws.set_column(c, c, float(width))
            for r, row in enumerate(sheet.rows):
                if len(row) > MAX_COLS:
                    raise UsageError(f"{sheet.name}!A{r + 1}: {len(row)} columns; Excel allows {MAX_COLS}")
                for c, value in enumerate(row):
                    _write(ws, f"{sheet.name}!{xl_rowcol_to_cell(r, c)}", r, c, value, formats, placeholders)
            for rule in sheet.validations:
                _validation(ws, sheet, rule)
            if sheet.chart is not None:
                _chart(book, ws, sheet, sheet.chart)
    finally:
        book.close()
    return out.getvalue(), placeholders


def _write(ws: Worksheet, where: str, r: int, c: int, value: object,
           formats: Mapping[tuple[bool, str | None], Format | None], placeholders: dict[str, str]) -> None:
    head = r == 0
    if value is None:
        return
    if isinstance(value, str):
        if utf16_len(value) > MAX_TEXT:
            raise UsageError(f"{where}: text of {utf16_len(value)} characters; a cell holds {MAX_TEXT}")
        if value.startswith("<r>") and value.endswith("</r>"):
            key = f"\ue000musterroll-{secrets.token_hex(8)}-{len(placeholders)}\ue000"
            placeholders[key], value = value, key
        _fail(ws.write_string(r, c, value, formats[(head, None)]), where, "text not written")
    elif isinstance(value, bool):
        _fail(ws.write_boolean(r, c, value, formats[(head, None)]), where, "boolean not written")
    elif isinstance(value, (int, float)):
        if not math.isfinite(value if isinstance(value, float) else (1.0 if abs(value) < 1e300 else math.inf)):
            raise UsageError(f"{where}: {value!r} cannot be stored in a workbook")
        _fail(ws.write_number(r, c, value, formats[(head, None)]), where, "number not written")
    elif isinstance(value, dt.date):
        if isinstance(value, dt.datetime) and value.tzinfo is not None:
            raise UsageError(f"{where}: a date-time with a time zone cannot be stored; use local time")
        kind = "t" if isinstance(value, dt.datetime) else "d"
        _fail(ws.write_datetime(r, c, value, formats[(head, kind)]), where, f"date {value} is outside Excel's range")
    else:
        raise UsageError(f"{where}: a value of type {type(value).__name__} cannot be written")


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
    where = f"sheet {sheet.name!r}: chart"
    last, cat = _last(sheet.rows, spec.last_row, spec.first_row), spec.categories_column
    if not (1 <= spec.first_row <= last < len(sheet.rows)) or not spec.series_columns:
        raise UsageError(f"{where}: needs at least one series and data rows within the sheet")
    if any(not 0 <= col < len(sheet.rows[0]) for col in (cat, *spec.series_columns)):
        raise UsageError(f"{where}: columns {(cat, *spec.series_columns)} must be columns of the header row")
    if not re.fullmatch(r"\$?[A-Z]{1,3}\$?[1-9][0-9]{0,6}", spec.anchor) or \
            max(xl_cell_to_rowcol(spec.anchor)[0] / MAX_ROWS, xl_cell_to_rowcol(spec.anchor)[1] / MAX_COLS) >= 1:
        raise UsageError(f"{where}: anchor {spec.anchor!r} is not a cell of the sheet such as 'H2'")
    chart = book.add_chart({"type": "line"})
    assert chart is not None
    for col in spec.series_columns:
        chart.add_series({"name": [sheet.name, 0, col], "categories": [sheet.name, spec.first_row, cat, last, cat],
                          "values": [sheet.name, spec.first_row, col, last, col], "marker": {"type": "automatic"}})
    if spec.title:
        chart.set_title({"name": spec.title})
    _fail(ws.insert_chart(*xl_cell_to_rowcol(spec.anchor), chart), where, "not placed")


# --------------------------------------------------------------------------- XML text

def escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(text: str) -> str:
    return escape_text(text).replace('"', "&quot;").replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;")


_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def unescape(text: str) -> str:
    """XML character and entity references to text, in one pass."""
    def one(m: re.Match[str]) -> str:
        ref = m.group(1)
        return _NAMED.get(ref) or chr(int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:]))
    return re.sub(r"&(#[xX][0-9A-Fa-f]+|#[0-9]+|amp|lt|gt|quot|apos);", one, text) if "&" in text else text


@dataclass(frozen=True, eq=False)
class XNode:
    """One element: where its start tag, content and end lie in the document text."""

    qname: str
    ns: str
    local: str
    attrs: Mapping[str, str]
    nsmap: Mapping[str, str]
    start: int
    inner_start: int
    inner_end: int
    end: int
    children: tuple["XNode", ...]

    @property
    def prefix(self) -> str:
        return self.qname.rpartition(":")[0]

    def attr(self, local: str, ns: str = "") -> str | None:
        for qname, value in self.attrs.items():
            prefix, _, name = qname.rpartition(":")
            if name == local and prefix != "xmlns" and (self.nsmap.get(prefix) == ns if prefix else not ns):
                return value
        return None

    def get(self, local: str) -> str:
        """An unqualified attribute's value, or the empty text."""
        return self.attr(local) or ""

    def findall(self, local: str, ns: str = MAIN_NS) -> list["XNode"]:
        return [c for c in self.children if c.local == local and c.ns == ns]

    def find(self, local: str, ns: str = MAIN_NS) -> "XNode | None":
        return next(iter(self.findall(local, ns)), None)


@dataclass(frozen=True)
class XmlDoc:
    part: str
    text: str
    encoding: str
    root: XNode

    def encode(self, text: str) -> bytes:
        return text.encode(self.encoding)

    def inner_text(self, node: XNode) -> str:
        pieces = re.split(r"(<!\[CDATA\[.*?\]\]>|<[^>]*>)", self.text[node.inner_start:node.inner_end], flags=re.S)
        return "".join(p[9:-3] if p.startswith("<![CDATA[") else "" if p.startswith("<") else unescape(p)
                       for p in pieces)


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


_TOKEN = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>|<!.*?>"
                    r"|<(/?)([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>", re.S)
_ATTR = re.compile(r"([^\s=/>]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")


@dataclass
class _Frame:
    qname: str
    ns: str
    attrs: dict[str, str]
    nsmap: dict[str, str]
    start: int
    inner_start: int
    children: list[XNode] = field(default_factory=list)

    def close(self, inner_end: int, end: int) -> XNode:
        return XNode(self.qname, self.ns, self.qname.rpartition(":")[2], self.attrs, self.nsmap,
                     self.start, self.inner_start, inner_end, end, tuple(self.children))


def parse_xml(data: bytes, part: str) -> XmlDoc:
    """Parse one XML part safely (defusedxml) and locate every element in its text."""
    encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else \
        "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8"
    declared = re.match(rb"^(?:\xef\xbb\xbf)?<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)", data)
    if declared and declared.group(1).lower().replace(b"-", b"") not in (b"utf8", b"utf16"):
        raise WorkbookFileError(f"part {part} is in {declared.group(1).decode()}; Open XML parts are UTF-8 or UTF-16")
    try:
        tree, text = SafeET.fromstring(data, forbid_dtd=True), data.decode(encoding)
    except (SafeET.ParseError, DefusedXmlException, UnicodeError, LookupError, ValueError) as exc:
        raise WorkbookFileError(f"part {part} is not usable XML ({exc})") from None
    stack: list[_Frame] = []
    order: list[str] = []
    root: XNode | None = None
    for m in _TOKEN.finditer(text):
        qname = m.group(2)
        if qname is None:
            continue
        if m.group(1):
            if not stack or stack[-1].qname != qname:
                raise WorkbookFileError(f"part {part}: unexpected </{qname}> at offset {m.start()}")
            node = stack.pop().close(m.start(), m.end())
        else:
            attrs = {k: unescape(a if a or not b else b) for k, a, b in _ATTR.findall(m.group(3))}
            declared = {k[6:]: v for k, v in attrs.items() if k == "xmlns" or k.startswith("xmlns:")}
            nsmap = stack[-1].nsmap if stack else {"xml": XML_NS}
            if declared:  # shared with the parent unless the element declares namespaces of its own
                nsmap = {**nsmap, **declared}
            prefix, _, local = qname.rpartition(":")
            if prefix and prefix not in nsmap:
                raise WorkbookFileError(f"part {part}: prefix {prefix!r} is not declared")
            frame = _Frame(qname, nsmap.get(prefix, ""), attrs, nsmap, m.start(), m.end())
            order.append(f"{{{frame.ns}}}{local}" if frame.ns else local)
            if not m.group(4):
                stack.append(frame)
                continue
            node = frame.close(m.end(), m.end())
        if stack:
            stack[-1].children.append(node)
        else:
            root = node
    if root is None or stack or order != [el.tag for el in tree.iter()]:
        raise WorkbookFileError(f"part {part}: its markup could not be located safely for editing")
    return XmlDoc(part, text, encoding, root)


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping edits; insertions at one point keep their given order."""
    out: list[str] = []
    pos = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < pos:
            raise WorkbookFileError("internal error: overlapping XML edits (a bug in Musterroll)")
        out += [text[pos:edit.start], edit.text]
        pos = edit.end
    return "".join(out) + text[pos:]


def set_attr(doc: XmlDoc, node: XNode, qname: str, value: str) -> Edit:
    """An edit that sets attribute ``qname`` of ``node``, touching only its value."""
    tag = doc.text[node.start:node.inner_start]
    for m in _ATTR.finditer(tag, len(node.qname) + 1):
        if m.group(1) == qname:
            group = 2 if m.group(2) is not None else 3
            return Edit(node.start + m.start(group), node.start + m.end(group), escape_attr(value))
    cut = node.start + len(tag) - (2 if tag.endswith("/>") else 1)
    return Edit(cut, cut, f' {qname}="{escape_attr(value)}"')


def insert_child(doc: XmlDoc, parent: XNode, fragment: str) -> Edit:
    """An edit that appends ``fragment`` as the last content of ``parent``."""
    if parent.inner_start == parent.end:  # <x/>: open it up
        tag = doc.text[parent.start:parent.end]
        return Edit(parent.start, parent.end, f"{tag[:-2].rstrip()}>{fragment}</{parent.qname}>")
    return Edit(parent.inner_end, parent.inner_end, fragment)


def in_scope(fragment: str, context: XNode, ns: str = MAIN_NS) -> str:
    """Make an unprefixed ``fragment`` land in ``ns`` wherever it is inserted."""
    if context.nsmap.get("") == ns:
        return fragment
    return re.sub(r"^<([^\s/>]+)", lambda m: f'<{m.group(1)} xmlns="{ns}"', fragment, count=1)


def prefix_for(node: XNode, ns: str) -> tuple[str, str]:
    """A prefix bound to ``ns`` at ``node`` and the declaration it needs, if any."""
    found = next((p for p, uri in node.nsmap.items() if uri == ns and p), None)
    if found:
        return found, ""
    prefix = next(p for p in ("r", "mr_r", "mr_r2") if p not in node.nsmap)
    return prefix, f' xmlns:{prefix}="{ns}"'


def qualified(node: XNode, local: str) -> str:
    return f"{node.prefix}:{local}" if node.prefix else local


def app_titles_edits(doc: XmlDoc, worksheets: Sequence[str], add: Sequence[str] = (),
                     remove: Sequence[str] = ()) -> list[Edit]:
    """Edits that keep docProps/app.xml's worksheet titles and count (HeadingPairs and
    TitlesOfParts) in step with sheets added or removed; none if they don't match."""
    pairs, titles = doc.root.find("HeadingPairs", EP_NS), doc.root.find("TitlesOfParts", EP_NS)
    pairs_v = pairs.find("vector", VT_NS) if pairs is not None else None
    titles_v = titles.find("vector", VT_NS) if titles is not None else None
    if pairs_v is None or titles_v is None:
        return []
    variants, items = pairs_v.findall("variant", VT_NS), titles_v.children
    offset, known = 0, set(worksheets)
    for k in range(0, len(variants) - 1, 2):
        if not variants[k + 1].children or not doc.inner_text(variants[k + 1].children[0]).strip().isdigit():
            return []
        count_node = variants[k + 1].children[0]
        count = int(doc.inner_text(count_node))
        group = items[offset:offset + count]
        if count and len(group) == count and all(doc.inner_text(t) in known for t in group):
            break
        offset += count
    else:
        return []
    edits, changed, taken = [], len(add), set()
    if add:
        qname = group[-1].qname
        edits.append(Edit(group[-1].end, group[-1].end, "".join(f"<{qname}>{escape_text(n)}</{qname}>" for n in add)))
    for name in remove:
        hit = next((i for i in reversed(range(len(group)))
                    if i not in taken and doc.inner_text(group[i]) == name), None)
        if hit is not None:
            taken.add(hit)
            edits.append(Edit(group[hit].start, group[hit].end, ""))
            changed -= 1
    if not changed:
        return []
    return edits + [Edit(count_node.inner_start, count_node.inner_end, str(count + changed)),
                    set_attr(doc, titles_v, "size", str(len(items) + changed))]


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


def _new_name(name: str, taken: set[str]) -> str:
    """``name`` numbered past every taken part like it (sheet7.xml), rels included."""
    folder, base = posixpath.split(name)
    m = re.match(r"^(.*?)\d*(\.[^./]+)$", base)
    stem, ext = (m.group(1), m.group(2)) if m else (base, "")
    pattern = re.compile(re.escape(f"{folder}/{stem}".lower()) + r"(\d+)" + re.escape(ext.lower()) + "$")
    n = max([int(hit.group(1)) for t in taken if (hit := pattern.match(t))], default=0) + 1
    while f"{folder}/{stem}{n}{ext}".lower() in taken or f"{folder}/_rels/{stem}{n}{ext}.rels".lower() in taken:
        n += 1
    taken.update({f"{folder}/{stem}{n}{ext}".lower(), f"{folder}/_rels/{stem}{n}{ext}.rels".lower()})
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


def graft(rendered: bytes, placeholders: Mapping[str, str], sheets: Sequence[NewSheet],
          existing: set[str], styles: bytes | None) -> Graft:
    """Rename and rewire the rendered sheets for a package whose (lower-cased) part
    names are ``existing`` and whose styles part holds ``styles`` (None: no styles)."""
    temp = zipfile.ZipFile(io.BytesIO(rendered))
    types = parse_xml(temp.read("[Content_Types].xml"), "[Content_Types].xml").root.children
    defaults = {n.get("Extension").lower(): n.attr("ContentType") for n in types if n.local == "Default"}
    overrides = {n.get("PartName").lstrip("/"): n.attr("ContentType") for n in types if n.local == "Override"}
    taken, renamed = set(existing), {}
    sheet_parts = [f"xl/worksheets/sheet{i + 1}.xml" for i in range(len(sheets))]
    queue = list(sheet_parts)
    while queue:
        part = queue.pop(0)
        if part not in renamed:
            renamed[part] = _new_name(part, taken)
            queue += [target for _, target in _targets(temp, part)]
    style_ref = r'(<(?:c|row) [^>]*?\bs="|<col [^>]*?\bstyle=")(\d+)(")'
    used = {int(m.group(2)) for p in sheet_parts for m in re.finditer(style_ref, temp.read(p).decode())}
    new_styles, xf_map = merge_styles(temp.read("xl/styles.xml"), styles, used)
    parts: list[tuple[str, bytes, str | None]] = []
    for old, new in renamed.items():
        data = temp.read(old)
        if old in sheet_parts:
            xml = re.sub(style_ref, lambda m: f"{m.group(1)}{xf_map[int(m.group(2))]}{m.group(3)}", data.decode())
            data = _rewrite_sheet(xml, placeholders).encode()
        parts.append((new, data, overrides.get(old) or defaults.get(old.rpartition(".")[2].lower())))
        if rels_name(old) in temp.namelist():
            doc = parse_xml(temp.read(rels_name(old)), rels_name(old))
            edits = [set_attr(doc, rel, "Target", posixpath.relpath(renamed[target], posixpath.dirname(new)))
                     for rel, target in _targets(temp, old)]
            parts.append((rels_name(new), doc.encode(apply_edits(doc.text, edits)), None))
    grafted = tuple(GraftedSheet(s.name, renamed[p], s.hidden) for s, p in zip(sheets, sheet_parts))
    return Graft(tuple(parts), grafted, new_styles)


def _rewrite_sheet(xml: str, placeholders: Mapping[str, str]) -> str:
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
    already present (for instance appended by an earlier batch) are reused."""
    if target is None:
        return temp_styles, {i: i for i in used}
    src, doc = parse_xml(temp_styles, "xl/styles.xml (new sheets)"), parse_xml(target, "xl/styles.xml")
    lists = ("numFmts", "fonts", "fills", "borders", "cellXfs")

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
    for index in sorted(used - {0}):
        head, sep, rest = ours["cellXfs"][index].partition(">")
        head = re.sub(r'\b(numFmtId|fontId|fillId|borderId|xfId)="(\d+)"',
                      lambda m: f'{m.group(1)}="{ref(m.group(1), int(m.group(2)))}"', head)
        xf_map[index] = place("cellXfs", head + sep + rest)
    edits: list[Edit] = []
    for name, new in added.items():
        box = doc.root.find(name)
        fragment = "".join(in_scope(t, box if box is not None else doc.root) for t in new)
        if new and box is not None:
            edits += [insert_child(doc, box, fragment), set_attr(doc, box, "count", str(len(box.children) + len(new)))]
        elif new:
            follows = _STYLE_ORDER[_STYLE_ORDER.index(name) + 1:]
            later = [c for c in doc.root.children if c.ns == MAIN_NS and c.local in follows]
            at = later[0].start if later else doc.root.inner_end
            edits.append(Edit(at, at, in_scope(f'<{name} count="{len(new)}">{fragment}</{name}>', doc.root)))
    return doc.encode(apply_edits(doc.text, edits)), xf_map
