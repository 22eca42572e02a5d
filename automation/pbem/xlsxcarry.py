"""An export whose carried sheets XlsxWriter never drew.

A long campaign's export is mostly sheets whose part an earlier export
stored (:mod:`automation.pbem.partstore`). XlsxWriter draws only the others;
the package is then laid out as XlsxWriter would have written it with every
sheet: each sheet's part under its number (``xl/worksheets/sheetN.xml``: its
place, but for the orders to fill, numbered last: :func:`part_numbers`), and
the four parts that list the sheets (the workbook, its relationships, the
content types and the document's titles) written for all of them, in
XlsxWriter's own order and escaping, with its print titles. Every export is
laid out so, whatever it carried (the lists deflated fast: every export writes
them anew). So an export that carried nothing and one that carried every
sealed sheet are the same bytes (``tests/pbem/test_perf_export_parts.py``),
and no XlsxWriter sheet is made, listed or zipped for a carried one.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from automation.errors import WorkbookFileError
from automation.workbook.zipraw import ANEW_LEVEL, Deflated, RawMember, RawRun, RawZip

SHEET = re.compile(r"xl/worksheets/sheet(\d+)\.xml")
SHEET_RELS = re.compile(r"xl/worksheets/_rels/sheet(\d+)\.xml\.rels")
WORKSHEET_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
WORKSHEET_CONTENT = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
DRAWN_LEVEL = 6  # zipfile's default deflate level, at which XlsxWriter deflates every part it writes
LISTS = ("xl/workbook.xml", "xl/_rels/workbook.xml.rels", "[content_types].xml", "docprops/app.xml")
# (the parts that list every sheet, written anew by every export: deflated fast, ANEW_LEVEL; 320 KB of XML at 100
# dates)


class Titles(NamedTuple):
    """What a sheet adds to the workbook's defined names, as XlsxWriter keeps
    it: an autofilter, a print area and print titles (empty: none). (A named
    tuple: an export makes one for each of a thousand carried sheets.)"""

    autofilter: str = ""
    print_area: str = ""
    print_titles: str = ""

    @classmethod
    def of(cls, ws: Any) -> Titles:
        """A drawn XlsxWriter worksheet's (see ``Workbook._prepare_defined_names``)."""
        titles = ",".join(r for r in (ws.repeat_col_range, ws.repeat_row_range) if r)
        return cls(ws.autofilter_area or "", ws.print_area_range or "", titles)

    @classmethod
    def header_row(cls, name: str) -> Titles:
        """A carried sheet's: its header row repeated on every page."""
        return cls.header_rows([name])[0]

    @classmethod
    def header_rows(cls, names: Sequence[str]) -> list[Titles]:
        """:meth:`header_row` of each of ``names`` (an export carries a
        thousand sheets). XlsxWriter quotes a name (``quote_sheetname``) that
        holds a character other than a word character or "." whatever else
        it holds, the first rule it checks: such a name (most sheets of a
        campaign, named with spaces) is quoted here without its other rules."""
        from xlsxwriter.utility import RE_QUOTE_RULE1, quote_sheetname

        first_rule = RE_QUOTE_RULE1.search
        return [cls("", "", ("'" + name.replace("'", "''") + "'!$1:$1") if first_rule(name) and name[:1] != "'"
                    else f"{quote_sheetname(name)}!$1:$1") for name in names]


def part_numbers(count: int, orders: int) -> list[int]:
    """The number of each place's part (``xl/worksheets/sheetN.xml``) in an
    export of ``count`` sheets, the ``orders`` after the first holding the
    orders to fill: each place's own, as XlsxWriter numbers them, when there
    are none; else the sheets after the orders are numbered from 2 on, and
    the orders last, so a run of the sheets after them
    (:mod:`automation.pbem.xlsxrun`) is named the same with orders or without."""
    if not orders:
        return list(range(1, count + 1))
    return [1, *range(count - orders + 1, count + 1), *range(2, count - orders + 1)]


def layout(book: Any, written: RawZip, names: Sequence[str], drawn: Sequence[int], titles: Mapping[int, Titles],
           sheets: Mapping[int, bytes | Deflated], orders: int = 0,
           pieces: Mapping[int, RawRun] | None = None) -> tuple[RawZip, dict[str, bytes | Deflated | RawRun]]:
    """The export as XlsxWriter would have written it with every sheet.

    ``book``: the XlsxWriter workbook, closed, that drew the sheets at places
    ``drawn`` (1-based, in order; the first place among them) into
    ``written``; ``names``: every sheet's name in order; ``titles``: each
    place's defined names; ``sheets``: each place's part, but those in
    ``pieces``, each written as one piece (of a run: :mod:`automation.pbem.xlsxrun`),
    by the number of its first part. Each place's part is named by its number
    (:func:`part_numbers`; ``orders``: the sheets after the first that hold
    the orders to fill).
    Returns the members in order (each sheet's modelled on the first drawn
    one) and the parts to write in them (``zipraw.write_zip``'s ``replaced``)."""
    count = len(names)
    numbers = part_numbers(count, orders)
    place_of = {number: place for place, number in enumerate(numbers, start=1)}
    small_to_place = {small: place for small, place in enumerate(drawn, start=1)}
    first = written.get("xl/worksheets/sheet1.xml")
    if first is None or drawn[:1] != [1]:
        raise WorkbookFileError(f"{written.where}: internal error: the first sheet of an export is always drawn")
    meta = book.worksheet_meta
    if [n for n in book.defined_names if not str(n[0]).startswith("_xlnm.")] or meta.activesheet or \
            meta.firstsheet or any(ws.hidden for ws in book.worksheets()):
        # what is laid out here is what an export holds: no name but its sheets' own, every sheet shown, the
        # first one active
        raise WorkbookFileError(f"{written.where}: internal error: an export with names, hidden sheets or "
                                "another active sheet cannot take carried sheets")
    members: list[RawMember] = []
    replaced: dict[str, bytes | Deflated | RawRun] = {}
    sheets_done = rels_done = False
    pieces = pieces or {}
    in_run = {n for start, piece in pieces.items() for n in range(start + 1, start + piece.count)}
    for member in written.members:
        if SHEET.fullmatch(member.name):
            if not sheets_done:
                for number in range(1, count + 1):
                    if number in in_run:
                        continue  # (in a piece, written with its first part)
                    name = f"xl/worksheets/sheet{number}.xml"
                    members.append(RawMember(name, *first[1:]))  # (modelled on the first: _replace is slower)
                    replaced[name.lower()] = pieces[number] if number in pieces else sheets[place_of[number]]
                sheets_done = True
        elif SHEET_RELS.fullmatch(member.name):
            if not rels_done:
                for small, place in small_to_place.items():
                    own = written.get(f"xl/worksheets/_rels/sheet{small}.xml.rels")
                    if own is not None:
                        name = f"xl/worksheets/_rels/sheet{numbers[place - 1]}.xml.rels"
                        members.append(own._replace(name=name))
                        replaced[name.lower()] = written.read(own.name)
                rels_done = True
        else:
            members.append(member)
    defined = _defined_names(book, titles)
    replaced["xl/workbook.xml"] = _workbook(written.read("xl/workbook.xml").decode("utf-8"), names,
                                            defined).encode("utf-8")
    replaced["xl/_rels/workbook.xml.rels"] = _relationships(
        written.read("xl/_rels/workbook.xml.rels").decode("utf-8"), numbers).encode("utf-8")
    replaced["[content_types].xml"] = _content_types(written.read("[Content_Types].xml").decode("utf-8"),
                                                      count).encode("utf-8")
    replaced["docprops/app.xml"] = _app(book, written.read("docProps/app.xml").decode("utf-8"), names,
                                        defined).encode("utf-8")
    index = {m.name.lower(): m for m in members}
    # a drawn sheet's part, or its relationships, deflated as XlsxWriter deflates every part (zipfile's default
    # level); the lists, as every export lays them out
    replaced = {name: Deflated.of(data, ANEW_LEVEL if name in LISTS else DRAWN_LEVEL) if isinstance(data, bytes)
                else data for name, data in replaced.items()}
    return RawZip(written.where, tuple(members), written.comment, index), replaced


def _writer() -> Any:
    """XlsxWriter's escaping of attributes and text (its own functions)."""
    from xlsxwriter.xmlwriter import XMLwriter

    return XMLwriter()


def _defined_names(book: Any, titles: Mapping[int, Titles]) -> list[list[Any]]:
    """The workbook's defined names as XlsxWriter sorts them (its own sort)."""
    names: list[list[Any]] = []
    for place in sorted(titles):
        t = titles[place]
        if t.autofilter:
            names.append(["_xlnm._FilterDatabase", place - 1, t.autofilter, 1])
        if t.print_area:
            names.append(["_xlnm.Print_Area", place - 1, t.print_area, 0])
        if t.print_titles:
            names.append(["_xlnm.Print_Titles", place - 1, t.print_titles, 0])
    return book._sort_defined_names(names)


def _replace_one(text: str, pattern: str, new: str, part: str) -> str:
    found = list(re.finditer(pattern, text, flags=re.S))
    if len(found) != 1:
        raise WorkbookFileError(f"{part}: internal error: XlsxWriter's part is not as expected")
    return text[:found[0].start()] + new + text[found[0].end():]


def _escaped(names: Sequence[str], escape: Callable[[str], str]) -> list[str]:
    """Each of ``names`` escaped by XlsxWriter's ``escape``, escaped at once:
    its escapes replace characters one by one, or a run of a fixed form, and
    no name holds a "/" (a sheet's name never does, nor a print title's
    range named after it), so the names joined by "/" escape as each does
    alone; else one by one."""
    if not names or any("/" in name for name in names):
        return [escape(name) for name in names]
    found = escape("/".join(names)).split("/")
    return found if len(found) == len(names) else [escape(name) for name in names]


def _workbook(text: str, names: Sequence[str], defined: Sequence[list[Any]]) -> str:
    w = _writer()
    sheets = "".join(f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>'
                     for i, name in enumerate(_escaped(names, w._escape_attributes), start=1))
    text = _replace_one(text, r"<sheets>.*?</sheets>", f"<sheets>{sheets}</sheets>", "xl/workbook.xml")
    hide = {0: "", 1: ' hidden="1"'}
    labels = {name: w._escape_attributes(name) for name, _, _, _ in defined}  # (a few: print titles, areas...)
    values = _escaped([value for _, _, value, _ in defined],
                      lambda text: w._escape_control_characters(w._escape_data(text)))
    defined = "".join(f'<definedName name="{labels[name]}" localSheetId="{index}"{hide[hidden]}>{value}</definedName>'
                      for (name, index, _, hidden), value in zip(defined, values))
    if "<definedNames>" in text:
        return _replace_one(text, r"<definedNames>.*?</definedNames>",
                            f"<definedNames>{defined}</definedNames>" if defined else "", "xl/workbook.xml")
    return text.replace("</sheets>", f"</sheets><definedNames>{defined}</definedNames>", 1) if defined else text


def _relationships(text: str, numbers: Sequence[int]) -> str:
    """Relationship ``rId1``... to each sheet (its part: ``numbers``, by place),
    then the workbook's others (theme, styles, shared strings) numbered after
    them, in XlsxWriter's order."""
    count = len(numbers)
    found = list(re.finditer(r"<Relationship [^>]*/>", text))
    if not found:
        raise WorkbookFileError("xl/_rels/workbook.xml.rels: internal error: XlsxWriter's part is not as expected")
    others = [m.group(0) for m in found if f'Type="{WORKSHEET_TYPE}"' not in m.group(0)]
    body = "".join(f'<Relationship Id="rId{i}" Type="{WORKSHEET_TYPE}" Target="worksheets/sheet{n}.xml"/>'
                   for i, n in enumerate(numbers, start=1))
    body += "".join(re.sub(r'Id="rId\d+"', f'Id="rId{count + n}"', rel, count=1)
                    for n, rel in enumerate(others, start=1))
    return text[:found[0].start()] + body + text[found[-1].end():]


def _content_types(text: str, count: int) -> str:
    """One Override per sheet, where XlsxWriter lists them."""
    run = re.compile(r'(?:<Override PartName="/xl/worksheets/sheet\d+\.xml" ContentType="[^"]*"/>)+')
    body = "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" ContentType="{WORKSHEET_CONTENT}"/>'
                   for i in range(1, count + 1))
    return _replace_one(text, run.pattern, body, "[Content_Types].xml")


def _app(book: Any, text: str, names: Sequence[str], defined: Sequence[list[Any]]) -> str:
    """The document's titles: every sheet, then its named ranges (the print
    titles), with the heading pairs counting them (``xlsxwriter.app``)."""
    w = _writer()
    ranges = book._extract_named_ranges(defined)
    pairs = [("Worksheets", len(names))] + ([("Named Ranges", len(ranges))] if ranges else [])
    heading = "".join(f"<vt:variant><vt:lpstr>{label}</vt:lpstr></vt:variant><vt:variant><vt:i4>{n}</vt:i4>"
                      "</vt:variant>" for label, n in pairs)
    titles = _escaped([*names, *ranges], lambda t: w._escape_control_characters(w._escape_data(t)))
    parts = "".join(f"<vt:lpstr>{t}</vt:lpstr>" for t in titles)
    new = (f'<HeadingPairs><vt:vector size="{2 * len(pairs)}" baseType="variant">{heading}</vt:vector>'
           f'</HeadingPairs><TitlesOfParts><vt:vector size="{len(names) + len(ranges)}" baseType="lpstr">'
           f"{parts}</vt:vector></TitlesOfParts>")
    return _replace_one(text, r"<HeadingPairs>.*?</TitlesOfParts>", new, "docProps/app.xml")
