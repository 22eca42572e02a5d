"""The recorded batches as a command that already read the file lists them
(from the defined names its gate parsed, without parsing the workbook part
again) are those the package writer reads, a damaged record is refused alike,
and a package whose workbook part lies elsewhere is read as before."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.workbook.reader import Workbook


def test_the_batches_listed_through_a_readers_gate_are_those_the_package_reads(book: Path) -> None:
    append_sheets(book, [report()], 'Refit "24DEC" & co')
    append_sheets(book, [report("Report 25DEC"), report("Notes 25DEC")], "Refit 25DEC")
    read = Workbook(book)
    listed = list_batches(book, read.gate.data)
    assert listed == list_batches(book)  # (no reader's gate for a fresh read: the package parses it)
    assert [(b.name, b.sheets) for b in listed] == [('Refit "24DEC" & co', ("Report 24DEC",)),
                                                     ("Refit 25DEC", ("Report 25DEC", "Notes 25DEC"))]


def test_a_damaged_record_is_refused_alike_both_ways(book: Path) -> None:
    append_sheets(book, [report()], "Refit 24DEC")
    workbook = contents(book)["xl/workbook.xml"]
    rezip(book, {"xl/workbook.xml": re.sub(rb'(_mr_batch_0*1"[^>]*>)\{', rb"\1{oops", workbook)})
    read = Workbook(book)
    with pytest.raises(WorkbookFileError, match="batch record _mr_batch_0*1 is damaged") as fast:
        list_batches(book, read.gate.data)
    with pytest.raises(WorkbookFileError, match="batch record _mr_batch_0*1 is damaged") as slow:
        list_batches(book)
    assert str(fast.value) == str(slow.value)


def test_a_workbook_part_named_elsewhere_by_the_package_is_read_by_the_package(book: Path) -> None:
    from automation.workbook.gate import Gate

    append_sheets(book, [report()], "Refit 24DEC")
    files = contents(book)
    rezip(book, {"_rels/.rels": files["_rels/.rels"].replace(b'Target="xl/workbook.xml"', b'Target="/xl/workbook.xml"')})
    read = Workbook(book)
    assert read.gate.defined_names() is not None  # the same part, however its target is written
    assert [b.name for b in list_batches(book, read.gate.data)] == ["Refit 24DEC"]

    types = files["[Content_Types].xml"].replace(b'PartName="/xl/workbook.xml"', b'PartName="/xl/main.xml"')
    rezip(book, {"_rels/.rels": files["_rels/.rels"].replace(b'Target="xl/workbook.xml"', b'Target="xl/main.xml"'),
                 "xl/main.xml": files["xl/workbook.xml"], "xl/_rels/main.xml.rels": files["xl/_rels/workbook.xml.rels"],
                 "[Content_Types].xml": types})
    data = book.read_bytes()
    gate = Gate.of(str(book), data)
    assert gate.defined_names() is None  # not the part it parsed: the package finds and parses the main part
    assert [b.name for b in list_batches(book, data)] == [b.name for b in list_batches(book)] == ["Refit 24DEC"]


def test_the_batches_are_found_through_the_readers_gate_whichever_way_the_path_is_written(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from automation.workbook.batches import from_gate

    append_sheets(book, [report()], "Refit 24DEC")
    monkeypatch.chdir(book.parent)
    written = f"./{book.name}"  # as a person types it; the reader names its gate by the path made of it
    read = Workbook(Path(written))
    found = from_gate(written, read.gate.data)
    assert found is not None and [b.name for b in found] == ["Refit 24DEC"]


def test_a_record_named_outside_the_workbooks_defined_names_is_no_batch_either_way(book: Path) -> None:
    from automation.workbook.batches import RECORD

    append_sheets(book, [report()], "Refit 24DEC")
    workbook = contents(book)["xl/workbook.xml"]
    stray = (b'<extLst><ext uri="{00000000-0000-0000-0000-000000000000}">'
             b'<definedName name="_mr_batch_0009">{"Not a batch","7|Nowhere"}</definedName></ext></extLst>')
    rezip(book, {"xl/workbook.xml": workbook.replace(b"</workbook>", stray + b"</workbook>")})
    read = Workbook(book)
    assert [n for n, _ in read.gate.defined_names(RECORD.fullmatch) or []] == ["_mr_batch_0001"]
    assert [b.name for b in list_batches(book, read.gate.data)] == [b.name for b in list_batches(book)] \
        == ["Refit 24DEC"]


@pytest.mark.parametrize("text", [
    '{"Refit 24DEC","3|Roster Dec 24","form 4|Orders Dec 24 German","replaced 2|Orders Dec 24 German"}',
    '{"Refit ""24DEC""","3|Roster ""A"", B"}',  # quotes doubled within a text: the pattern reads it
    '{"Notes","3"}',  # a number without its bar: an entry of no sheet number
    '{"Notes","\u0663|Arabic-Indic three","|no number","x|y"}',  # digits other than 0-9: the pattern's way
    '{ "Notes" ; "3|Roster" }',  # spaces and a semicolon, as a person may type the list
    '{""}', '{"",""}',
])
def test_a_record_written_as_the_writer_writes_it_is_read_as_the_pattern_reads_it(text: str) -> None:
    from automation.workbook.batches import ENTRY, _ITEMS, records

    texts = [t[1:-1].replace('""', '"') for t in _ITEMS.findall(text)]
    entries = []
    for t in texts[1:]:
        hit = ENTRY.fullmatch(t)
        if hit is None or hit.group(1) != "replaced ":
            entries.append((int(hit.group(2)), hit.group(3)) if hit else (None, t))
    [(number, _, batch, found)] = records("book.xlsx", [("_mr_batch_0007", text, None)])
    assert (number, batch.name, found) == (7, texts[0], entries)


@pytest.mark.parametrize("text", ['{"}', '{"a"b"}', '{"a","b}', '{}', '"a"'])
def test_a_record_that_is_no_list_is_refused_however_it_begins(text: str) -> None:
    from automation.workbook.batches import records

    with pytest.raises(WorkbookFileError, match="batch record _mr_batch_0007 is damaged"):
        records("book.xlsx", [("_mr_batch_0007", text, None)])
