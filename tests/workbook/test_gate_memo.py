"""The gate keeps what it found in a master's lists (automation.workbook.gatememo):
the next gate of the same file takes it instead of scanning and parsing the
lists, and an append carries it forward to the file it writes, equal to what
a gate finds in that file. Findings cut short, changed or of another file,
a player's file and keeping turned off all leave the gate to check the lists
whole."""
from __future__ import annotations

import dataclasses

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.cachesetting import CACHE_SETTING
from automation.workbook import gate as gate_module
from automation.workbook import gatememo, gatezip, package
from automation.workbook.gate import MASTER, PLAYER, Gate

from test_package_lists import KINDS, _variant

SHEETS = [report("Report 9"), report("Roster 9", kind="roster"), report("Notes 9", hidden=True)]


def _kept(path: Path) -> gatememo.Found | None:
    """What is kept for the file at ``path`` (None: nothing)."""
    key = gatememo.key_for(path.read_bytes(), MASTER)
    return gatememo.find(key) if key is not None else None


def _found_whole(path: Path, monkeypatch: pytest.MonkeyPatch) -> gatememo.Found | None:
    """What a gate finds in the file's lists, checking them whole (keeping off)."""
    with monkeypatch.context() as m:
        m.setenv(CACHE_SETTING, "off")
        return Gate(str(path), path.read_bytes(), MASTER).found()


def _parsing_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every scan and parse of a part by the gate, listed as it happens."""
    seen: list[str] = []
    scan, tree, gate_tree = Gate._scan, gate_module.ElementTree.fromstring, Gate._tree

    def counted_scan(self: Gate, name: str, *args: object, **kwargs: object) -> None:
        seen.append(f"scan {name}")
        scan(self, name, *args, **kwargs)

    def counted_tree(data: bytes) -> object:
        seen.append("parse")
        return tree(data)
    def counted_gate_tree(self: Gate, name: str) -> object:
        seen.append(f"tree {name}")
        return gate_tree(self, name)
    monkeypatch.setattr(Gate, "_scan", counted_scan)
    monkeypatch.setattr(Gate, "_tree", counted_gate_tree)
    monkeypatch.setattr(gate_module.ElementTree, "fromstring", counted_tree)
    return seen


@pytest.mark.parametrize("replacing", [False, True], ids=["sheets added", "a form answered"])
@pytest.mark.parametrize("kind", KINDS)
def test_an_append_carries_forward_what_a_gate_finds_in_the_file_it_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str, replacing: bool) -> None:
    path = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, path)
    _variant(path, kind)
    if replacing:
        append_sheets(path, [report("Orders 5")], "Orders")
        append_sheets(path, [report("Orders 5", rows=[["Turn"], [7]]), *SHEETS], "Answer", replace=["Orders 5"])
    else:
        append_sheets(path, SHEETS, "Refit 9")
    whole = _found_whole(path, monkeypatch)
    assert whole is not None
    carried = _kept(path)
    assert carried is not None, "the append kept what a gate of its file finds"
    # with the sheets whose cells the appends wrote, checked as a gate checks a sheet before it is parsed
    written = carried.checked - whole.checked
    assert dataclasses.replace(carried, checked=whole.checked) == whole
    with monkeypatch.context() as m:
        m.setenv(CACHE_SETTING, "off")
        fresh = Gate(str(path), path.read_bytes(), MASTER)
        targets = fresh.sheet_targets()
        appended = {part for sheet in [*SHEETS, *([report("Orders 5")] if replacing else [])]
                    for part in targets[sheet.name]}
        assert appended <= written <= {part for name in targets for part in targets[name]}
        for name in targets:
            if set(targets[name]) & written:
                fresh.check_sheet(name)  # what they were spared, they pass
    with zipfile.ZipFile(path) as z:  # the parts' unpacked bytes, carried as a gate of the file counts them
        assert carried.unpacked == whole.unpacked == sum(i.file_size for i in z.infolist())
    names = dict(whole.names or ())
    assert whole.lists[("xl/workbook.xml", "sheet")][-1]["name"] == "Notes 9"
    assert any(name.startswith("_mr_batch_") for name in names)


def test_a_gate_of_a_file_that_passed_before_scans_and_parses_none_of_its_lists(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    data = book.read_bytes()
    first = Gate(str(book), data, MASTER)
    targets, names = dict(first.sheet_targets()), first.defined_names()
    seen = _parsing_counted(monkeypatch)
    again = Gate(str(book), data, MASTER)
    assert dict(again.sheet_targets()) == targets
    assert again.defined_names() == names
    assert again.defined_names(lambda name: name.startswith("_mr_batch_")) == \
        [(n, t) for n, t in names if n.startswith("_mr_batch_")]
    assert seen == []
    again.check_sheet("Report 1")  # a sheet whose cells the append wrote was checked as it was written
    assert seen == []
    other = next(name for name in again.sheet_targets() if name != "Report 1")
    again.check_sheet(other)  # any other sheet is still checked when it is read
    assert any(s.startswith("scan xl/worksheets/") for s in seen)


def test_a_gate_finds_the_lists_of_the_file_it_is_given_not_those_kept_for_another(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Gate(str(book), book.read_bytes(), MASTER)  # kept for the file before the append
    with monkeypatch.context() as m:
        m.setenv(CACHE_SETTING, "off")
        append_sheets(book, [report("Report 1")], "Refit 1")  # (which carries nothing forward)
    seen = _parsing_counted(monkeypatch)
    assert "Report 1" in Gate(str(book), book.read_bytes(), MASTER).sheet_targets()
    assert "scan xl/workbook.xml" in seen and "parse" in seen


@pytest.mark.parametrize("damage", ["cut short", "a byte changed", "another file's", "another format"])
def test_findings_cut_short_changed_or_kept_for_another_file_are_not_used(
        book: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    data = book.read_bytes()
    Gate(str(book), data, MASTER)
    key = gatememo.key_for(data, MASTER)
    kept = gatememo.folder() / f"{key[:40]}{gatememo.SUFFIX}"
    raw = kept.read_bytes()
    if damage == "cut short":
        kept.write_bytes(raw[:len(raw) // 2])
    elif damage == "a byte changed":
        kept.write_bytes(raw[:10] + bytes([raw[10] ^ 1]) + raw[11:])
    elif damage == "another file's":
        other = gatememo.Found.from_bytes(raw, key)
        assert other is not None
        kept.write_bytes(other.to_bytes("0" * 64))
    else:
        import hashlib
        import marshal

        body = marshal.dumps(("0", *marshal.loads(raw[:-32])[1:]))
        kept.write_bytes(body + hashlib.sha256(body).digest())
    assert gatememo.find(key) is None
    seen = _parsing_counted(monkeypatch)
    Gate(str(book), data, MASTER).sheet_targets()
    assert "scan xl/workbook.xml" in seen and "parse" in seen


def test_a_players_file_is_always_checked_whole(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = book.read_bytes()
    Gate(str(book), data, MASTER)  # a master's findings for the very same bytes are kept
    before = sorted(gatememo.folder().glob("*" + gatememo.SUFFIX))
    seen = _parsing_counted(monkeypatch)
    Gate(str(book), data, PLAYER).sheet_targets()
    assert "scan xl/workbook.xml" in seen and "parse" in seen
    assert sorted(gatememo.folder().glob("*" + gatememo.SUFFIX)) == before  # and nothing is kept for it


def test_a_players_file_streams_the_lists_a_reader_parses_and_not_the_two_only_a_change_parses(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = book.read_bytes()
    with monkeypatch.context() as m:
        m.setenv(CACHE_SETTING, "off")
        seen = _parsing_counted(m)
        Gate(str(book), data, MASTER)
        assert {"scan [Content_Types].xml", "scan docProps/app.xml"} <= set(seen)  # a change edits them
        seen.clear()
        Gate(str(book), data, PLAYER)  # a player's file is only read: nothing parses them
    assert {"scan xl/workbook.xml", "scan xl/_rels/workbook.xml.rels", "scan xl/styles.xml"} <= set(seen)
    assert not {"scan [Content_Types].xml", "scan docProps/app.xml"} & set(seen)


def test_a_list_changed_since_it_passed_is_checked_again_and_refused(book: Path) -> None:
    Gate(str(book), book.read_bytes(), MASTER)
    xml = contents(book)["xl/workbook.xml"].decode()
    rezip(book, {"xl/workbook.xml": xml.replace("?>", '?><!DOCTYPE x [<!ENTITY a "b">]>', 1).encode()})
    with pytest.raises(WorkbookFileError, match="DTD"):
        Gate(str(book), book.read_bytes(), MASTER)


def test_keeping_off_keeps_no_findings(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert gatememo.folder() is None
    Gate(str(book), book.read_bytes(), MASTER)
    append_sheets(book, [report("Report 1")], "Refit 1")
    assert gatememo.key_for(book.read_bytes(), MASTER) is None


def test_only_the_newest_findings_are_kept(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gatememo, "KEPT", 3)
    for n in range(1, 6):
        append_sheets(book, [report(f"Report {n}")], f"Refit {n}")
    assert len(list(gatememo.folder().glob("*" + gatememo.SUFFIX))) == 3
    assert _kept(book) is not None  # the last file's among them


def test_a_list_grown_past_the_limits_or_given_a_dtd_is_left_to_the_next_gate() -> None:
    found = gatememo.Found(frozenset({"xl/workbook.xml"}), {"xl/workbook.xml": 3},
                           {("xl/workbook.xml", "sheet"): ({"name": "A"},)}, ())
    grown = {("xl/workbook.xml", "sheet"): [{"name": "B"}]}
    small = b'<workbook xmlns="x"><sheets><sheet name="A"/><sheet name="B"/></sheets></workbook>'
    ok = gatememo.appended(found, {"xl/workbook.xml": small}, elements=10, namespaces=5, added=grown,
                           names=[("n", "", "t")])
    assert ok is not None and ok.lists[("xl/workbook.xml", "sheet")] == ({"name": "A"}, {"name": "B"})
    assert ok.marks["xl/workbook.xml"] == small.count(b"<") == 6 and ok.names == (("n", "t"),)
    assert gatememo.appended(found, {"xl/workbook.xml": small}, elements=3, namespaces=5, added=grown,
                             names=[]) is None  # more "<" than elements allowed
    assert gatememo.appended(found, {"xl/workbook.xml": small}, elements=10, namespaces=0, added=grown,
                             names=[]) is None  # more namespace declarations than allowed
    assert gatememo.appended(found, {"xl/workbook.xml": b"<!DOCTYPE x>" + small}, elements=10, namespaces=5,
                             added=grown, names=[]) is None
    assert gatememo.appended(found, {"xl/styles.xml": small}, elements=10, namespaces=5, added={},
                             names=[]) is None  # a part that had not passed whole
    no_names = gatememo.Found(found.checked, found.marks, found.lists, None)
    assert gatememo.appended(no_names, {"xl/workbook.xml": small}, elements=10, namespaces=5, added=grown,
                             names=[]) is None


def test_findings_read_again_are_kept_while_newer_ones_come_and_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    books = []
    for n in range(3):
        path = tmp_path / f"book{n}.xlsx"
        shutil.copyfile(RICH, path)
        if n:
            append_sheets(path, [report(f"Report {n}")], f"Refit {n}")
        Gate(str(path), path.read_bytes(), MASTER)
        books.append(path)
    first, second, third = books
    keys = [gatememo.key_for(path.read_bytes(), MASTER) for path in books]
    for age, key in zip((1000, 2000, 3000), keys):  # the first kept longest ago
        os.utime(gatememo.folder() / f"{key[:40]}{gatememo.SUFFIX}", ns=(age * 10**9, age * 10**9))
    monkeypatch.setattr(gatememo, "KEPT", 2)
    assert _kept(first) is not None  # read again now
    gatememo.keep(keys[2], gatememo.find(keys[2]))  # kept anew: the two last kept or used stay
    assert _kept(first) is not None and _kept(third) is not None
    assert _kept(second) is None


def test_an_append_to_a_file_whose_lists_were_found_before_builds_no_tree_of_them(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")  # (which carries the findings forward)
    with monkeypatch.context() as m:
        seen = _parsing_counted(m)
        append_sheets(book, [report("Report 2")], "Refit 2")
    assert not any(s.startswith(("tree ", "scan xl/workbook.xml", "scan xl/_rels/")) for s in seen), seen
    kept, whole = _kept(book), _found_whole(book, monkeypatch)
    assert kept is not None and whole is not None
    assert dataclasses.replace(kept, checked=whole.checked) == whole  # and the two reports' sheets checked
    assert len(kept.checked - whole.checked) == 2
    assert [s.name for s in package._Package(str(book), book.read_bytes()).listing().sheets][-2:] == \
        ["Report 1", "Report 2"]


def test_a_sheet_an_append_wrote_past_the_limits_is_checked_when_it_is_read(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from automation.workbook import gatezip

    with monkeypatch.context() as m:
        m.setattr(gatezip.Limits, "admits", lambda self, rows, columns: False)  # no sheet within the limits
        append_sheets(book, [report("Report 1")], "Refit 1")
    again = Gate(str(book), book.read_bytes(), MASTER)
    seen = _parsing_counted(monkeypatch)
    again.check_sheet("Report 1")
    assert any(s.startswith("scan xl/worksheets/") for s in seen)


def test_the_limits_admit_a_sheet_as_the_check_before_it_is_parsed_does() -> None:
    from automation.workbook.cellxml import bounds, extent

    assert MASTER.admits(6807, 19) and MASTER.admits(MASTER.rows, 1) and MASTER.admits(1, MASTER.columns)
    assert not MASTER.admits(MASTER.rows + 1, 1) and not MASTER.admits(1, MASTER.columns + 1)
    assert not MASTER.admits(MASTER.cells // 100 + 1, 100)  # within rows and columns, too many cells
    assert [bounds(extent(r, c)) for r, c in [(-1, -1), (0, 0), (0, 5), (6806, 18), (9, 26), (1048575, 16383)]] == \
        [(1, 1), (1, 1), (1, 6), (6807, 19), (10, 27), (1048576, 16384)]


def _part_checks_counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every part the gate checks against the limits from the zip directory, listed as it happens."""
    seen: list[str] = []
    check = gatezip.check_part

    def counted(where: str, name: str, *args: object) -> None:
        seen.append(name)
        check(where, name, *args)  # type: ignore[arg-type]
    monkeypatch.setattr(gatezip, "check_part", counted)
    return seen


def test_a_zip_directory_that_passed_before_is_not_checked_part_by_part_again(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")  # carries what a gate of the new file finds
    seen = _part_checks_counted(monkeypatch)
    again = Gate(str(book), book.read_bytes(), MASTER)
    assert seen == []
    with zipfile.ZipFile(book) as z:
        assert again.unpacked == sum(i.file_size for i in z.infolist())
    with monkeypatch.context() as m:  # without what was kept, every part is checked
        m.setenv(CACHE_SETTING, "off")
        Gate(str(book), book.read_bytes(), MASTER)
    assert len(seen) == len(again.archive.infolist())


def test_findings_kept_without_the_parts_checked_have_the_next_gate_check_them_and_keep_that(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Gate(str(book), book.read_bytes(), MASTER)
    key = gatememo.key_for(book.read_bytes(), MASTER)
    kept = _kept(book)
    assert key is not None and kept is not None
    gatememo.keep(key, dataclasses.replace(kept, unpacked=None))  # as an append whose parts did not pass leaves it
    seen = _part_checks_counted(monkeypatch)
    Gate(str(book), book.read_bytes(), MASTER)
    assert len(seen) > 0
    assert _kept(book).unpacked == kept.unpacked  # type: ignore[union-attr]
    seen.clear()
    Gate(str(book), book.read_bytes(), MASTER)
    assert seen == []


class _Member:
    def __init__(self, size: int) -> None:
        self.size = size


def test_a_directory_an_append_wrote_passes_only_when_each_part_it_wrote_and_the_whole_pass() -> None:
    lim = dataclasses.replace(MASTER, part_bytes=1000, total_bytes=5000, members=4, ratio=10)
    before = {"xl/workbook.xml": _Member(300), "xl/worksheets/sheet1.xml": _Member(2000)}
    new = {"xl/workbook.xml": (0, b"", b"x" * 100), "xl/worksheets/sheet2.xml": (0, b"", b"x" * 200)}
    replaced, added = {"xl/workbook.xml": b"w" * 400}, [("xl/worksheets/sheet2.xml", b"s" * 900)]
    assert gatezip.unpacked_after(2300, lim, before, new, replaced, added) == 2300 - 300 + 400 + 900
    assert gatezip.unpacked_after(2300, lim, before, new, replaced, [("xl/worksheets/sheet2.xml", b"s" * 1001)]) \
        is None  # a part over its limit
    assert gatezip.unpacked_after(4001, lim, before, new, replaced, added) is None  # over the total
    assert gatezip.unpacked_after(2300, dataclasses.replace(lim, members=2), before, new, replaced, added) is None
    assert gatezip.unpacked_after(2300, lim, before, new, replaced, [*added, ("XL/worksheets/sheet2.xml", b"")]) \
        is None  # a name taken twice
    taken = {**new, "xl/worksheets/sheet1.xml": (0, b"", b"x")}
    assert gatezip.unpacked_after(2300, lim, before, taken, replaced, [("xl/worksheets/sheet1.xml", b"")]) is None
    assert gatezip.unpacked_after(2300, lim, before, new, {"xl/styles.xml": b""}, added) is None  # not there before
    assert gatezip.unpacked_after(2300, lim, before, {}, replaced, added) is None  # a part not written as told
    tight = {**new, "xl/worksheets/sheet2.xml": (0, b"", b"x")}  # a zip bomb
    assert gatezip.unpacked_after(2300, dataclasses.replace(lim, part_bytes=2**21, total_bytes=2**23),
                                  before, tight, {}, [("xl/worksheets/sheet2.xml", b"s" * (2**20 + 1))]) is None


def test_the_findings_kept_write_each_relationship_type_and_name_of_a_defined_name_once(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long campaign's lists name three relationship types and one print
    title a thousand times each: the findings hold each text as one string,
    which marshal writes once and reads back as one, however many appends
    carried them, as a gate that checked the lists whole finds them."""
    worksheet = b"officeDocument/2006/relationships/worksheet"
    for k in range(3):
        append_sheets(book, [report(f"Report {k}"), report(f"Roster {k}", kind="roster")], f"Refit {k}")
    for found in (_kept(book), _found_whole(book, monkeypatch)):
        assert found is not None
        rels = [r for r in found.lists[("xl/_rels/workbook.xml.rels", "Relationship")]
                if r["Type"].endswith("/worksheet")]
        assert len(rels) > 6 and all(r["Type"] is rels[0]["Type"] for r in rels)
        titles = [n for n, _ in found.names or () if n == "_xlnm.Print_Titles"]
        assert len(titles) >= 6 and all(n is titles[0] for n in titles)
        raw = found.to_bytes("key")
        assert raw.count(worksheet) == 1 and raw.count(b"_xlnm.Print_Titles") == 1
        again = gatememo.Found.from_bytes(raw, "key")
        assert again == found and again.to_bytes("key").count(worksheet) == 1  # (read back: still one string)


def _file_of(path: Path) -> Path:
    """The file the findings of the workbook at ``path`` are kept in."""
    key = gatememo.key_for(path.read_bytes(), MASTER)
    assert key is not None
    return gatememo.folder() / f"{key[:40]}{gatememo.SUFFIX}"


def test_an_append_keeps_the_findings_of_the_file_it_wrote_as_what_they_add_to_those_it_read(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    append_sheets(book, [report(f"Old {k}") for k in range(40)], "Refit 9")  # (the file it read: checked whole)
    before = _kept(book)
    assert before is not None
    append_sheets(book, [report("Report 10"), report("Roster 10", kind="roster")], "Refit 10")
    kept = _kept(book)
    assert kept is not None and kept.depth == before.depth + 1
    assert _file_of(book).stat().st_size < len(kept.to_bytes("key")) // 4  # what the append added, not the whole
    whole = _found_whole(book, monkeypatch)
    assert whole is not None and dataclasses.replace(kept, checked=whole.checked) == whole


def test_after_so_many_appends_the_findings_are_kept_whole_again(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gatememo, "DEPTH", 2)
    depths = []
    for k in range(5):
        append_sheets(book, [report(f"Report {k}")], f"Refit {k}")
        kept = _kept(book)
        assert kept is not None
        depths.append(kept.depth)
    assert depths == [1, 2, 0, 1, 2]  # (the file the first append read: its findings kept whole by its gate)
    whole = _found_whole(book, monkeypatch)
    assert whole is not None and dataclasses.replace(_kept(book), checked=whole.checked) == whole


@pytest.mark.parametrize("what", ["gone", "kept again otherwise"])
def test_findings_kept_after_those_of_a_file_that_are_gone_or_changed_are_not_used(
        book: Path, monkeypatch: pytest.MonkeyPatch, what: str) -> None:
    append_sheets(book, SHEETS, "Refit 9")
    earlier = book.with_name("earlier.xlsx")
    shutil.copyfile(book, earlier)
    parent = _file_of(earlier)
    append_sheets(book, [report("Report 10")], "Refit 10")
    assert _kept(book) is not None and _kept(book).depth >= 1
    if what == "gone":
        parent.unlink()
    else:  # the same findings, with another stamp of the forms told: another file
        found = _kept(earlier)
        assert found is not None
        gatememo.keep(gatememo.key_for(earlier.read_bytes(), MASTER),
                      dataclasses.replace(found, forms=gatememo.Forms("another reader", ())))
    assert _kept(book) is None  # the gate checks the lists whole again
    seen = _parsing_counted(monkeypatch)
    Gate(str(book), book.read_bytes(), MASTER).sheet_targets()
    assert any(s.startswith("scan") for s in seen)
    assert _kept(book) is not None  # and keeps what it found


def test_findings_a_later_command_keeps_again_stay_kept_after_those_they_were_kept_after(
        book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command after an append tells the forms the append added and keeps
    that with the findings: they stay what they add to the findings of the
    file the append read, and read back as kept."""
    append_sheets(book, [report(f"Old {k}") for k in range(40)], "Refit 9")
    append_sheets(book, [report("Report 10")], "Refit 10")
    kept = _kept(book)
    assert kept is not None and kept.depth >= 1
    size = _file_of(book).stat().st_size
    gate = Gate(str(book), book.read_bytes(), MASTER)
    told = gatememo.Forms("a reader", ("Report 10",))
    gate.keep_forms(told)
    again = _kept(book)
    assert again is not None and again.forms == told and again.depth == kept.depth
    assert again == kept and _file_of(book).stat().st_size < size * 2  # (not the whole findings)
