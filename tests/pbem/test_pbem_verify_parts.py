"""verify without the key digests again only the sheets whose stored part
changed since it was sealed: the fingerprint of each part, with the digest of
values it was checked against, is in the chain (automation.audit.parts)."""
from __future__ import annotations

import openpyxl
import pytest

from automation.audit.chain import PART, chain_links
from automation.audit.verify import unchanged_parts
from automation.pbem.guard import open_book
from automation.pbem.reports import is_report
from automation.workbook.reader import Workbook
from tests.pbem.helpers import run


def part_links(path):
    book = Workbook(path)
    reports = [n for n in book.sheet_names if is_report(n) and is_report(n, book.raw(n)[0])]
    return book, reports, [ln for n in reports for ln in chain_links(book.raw(n))[1] if ln.kind == PART]


def test_every_sealed_sheet_but_the_last_refits_is_fingerprinted_and_unchanged(campaign):
    path = campaign("dec26")
    book, reports, links = part_links(path)
    sealed = {ln.target for n in reports for ln in chain_links(book.raw(n))[1] if ln.kind == "sheet"}
    fingerprinted = {ln.target for ln in links}
    last_batch = {reports[-1]} | {ln.target for ln in chain_links(book.raw(reports[-1]))[1] if ln.kind == "sheet"}
    assert set(reports[:-2]) <= fingerprinted  # every report but the last refit's
    assert sealed - last_batch <= fingerprinted
    unchanged = {t for t, _ in unchanged_parts(open_book(path), [chain_links(book.raw(n))[1] for n in reports])}
    # the first refit's batch added the formats of its sheets to styles.xml, which the fingerprints cover:
    # the one sheet fingerprinted before that takes the cell-by-cell path
    assert unchanged == fingerprinted - {"Roster Start"}


def test_verify_parses_only_the_reports_and_the_sheets_not_fingerprinted(campaign, capsys, monkeypatch):
    path = campaign("dec26")
    book, reports, links = part_links(path)
    fingerprinted = {ln.target for ln in links} - set(reports) - {"Roster Start"}  # see the test above
    parsed = []
    real = Workbook.raw

    def spy(self, name):
        parsed.append(name)
        return real(self, name)

    monkeypatch.setattr(Workbook, "raw", spy)
    path.with_suffix(".key").rename(path.with_suffix(".hidden"))
    code, out, err = run(capsys, "verify", path)
    assert code == 0, err
    assert fingerprinted and not fingerprinted & set(parsed)


def test_a_sheet_saved_by_another_program_takes_the_cell_by_cell_check_and_an_edit_is_named(campaign, capsys):
    path = campaign("dec26")
    path.with_suffix(".key").rename(path.with_suffix(".hidden"))
    _, reports, links = part_links(path)
    roster = next(ln.target for ln in links if ln.target.startswith("Roster") and ln.target not in reports)
    wb = openpyxl.load_workbook(path)
    wb.save(path)  # every part rewritten: no fingerprint holds
    book = open_book(path)
    assert not unchanged_parts(book, [chain_links(book.raw(n))[1] for n in reports])
    code, _, err = run(capsys, "verify", path)
    assert code == 0, err
    wb = openpyxl.load_workbook(path)
    ws = wb[roster]
    ws["B2"] = f"{ws['B2'].value}x"
    wb.save(path)
    code, _, err = run(capsys, "verify", path)
    assert code == 1 and f"{roster}!B2: edited after" in err


def test_two_sheets_of_the_same_cells_have_stamps_of_their_own(campaign):
    """A fingerprint is carried by its stamp (automation.audit.carried): sheets
    whose parts hold the same bytes under other names have other fingerprints,
    so their stamps differ too."""
    from automation.audit.parts import fingerprint, stamp

    book = open_book(campaign("dec26"))
    by_stamp: dict[str, set[str]] = {}
    for name in book.sheet_names:
        by_stamp.setdefault(stamp(book, name), set()).add(fingerprint(book, name))
    assert all(len(prints) == 1 for prints in by_stamp.values())
    parts = {name: book.part_stamp(name) for name in book.sheet_names}
    assert len(set(parts.values())) < len(parts)  # the campaign has sheets of the same cells


def test_a_stamp_is_worked_out_for_the_sheet_asked_for_alone(campaign):
    book = Workbook(campaign("dec26"))
    first = book.part_stamp("Campaign")
    assert first is not None and list(book._stamps) == ["Campaign"]  # no other sheet looked up
    assert set(book.gate.sheet_targets()._done) <= {"Campaign"}  # nor resolved
    assert all(book.part_stamp(name) == Workbook(book.path).part_stamp(name) for name in book.sheet_names)
    assert book.part_stamp("Campaign") == first and book.part_stamp("No such sheet") is None


def test_a_reader_asked_for_many_stamps_works_out_those_alone_and_each_as_a_reader_asked_for_it_alone(campaign):
    path = campaign("dec26")
    names = Workbook(path).sheet_names
    assert len(names) > 40
    alone = {name: Workbook(path).part_stamp(name) for name in names}  # each from a reader asked for it alone
    book = Workbook(path)
    asked = names[1::2]  # many, but not every sheet (an import asks for every roster)
    assert {name: book.part_stamp(name) for name in asked} == {name: alone[name] for name in asked}
    assert set(book._stamps) == set(asked)  # the others are not worked out
    assert {name: book.part_stamp(name) for name in names} == alone
    assert book.part_stamp("No such sheet") is None


def test_the_stamps_of_many_sheets_at_once_are_those_each_gives_asked_for_alone(campaign):
    path = campaign("dec26")
    names = Workbook(path).sheet_names
    alone = [Workbook(path).part_stamp(name) for name in names]
    book = Workbook(path)
    asked = [*names[1::2], "No such sheet", names[1]]  # (a name twice, and one the workbook does not have)
    assert book.part_stamps(asked) == [alone[names.index(n)] if n in names else None for n in asked]
    assert set(book._stamps) == set(asked)  # the others are not worked out
    assert book.part_stamps(names) == alone and book.part_stamps([]) == []


@pytest.mark.parametrize("target, extra", [
    ("/xl/worksheets/sheet1.xml", {}),  # written from the package's root, not beside the workbook part
    ("worksheets/sheet%31.xml", {}),  # %-encoded: resolved as one by one
    ("worksheets/sheet1.xml", {"worksheets/sheet1.xml": b"<worksheet/>"}),  # a part in each place it may name
])
def test_a_sheet_s_parts_looked_up_from_the_directory_are_those_its_targets_resolve_to(tmp_path, target, extra):
    """The parts a sheet is looked up by from the zip directory (automation.workbook.gatezip.Targets.entries_of)
    are those its targets resolve to, however the target is written."""
    import shutil
    import zipfile

    from tests.workbook.package_helpers import RICH, rezip

    book = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, book)
    with zipfile.ZipFile(book) as zf:
        rels = zf.read("xl/_rels/workbook.xml.rels").decode()
    assert 'Target="worksheets/sheet1.xml"' in rels
    rezip(book, {"xl/_rels/workbook.xml.rels": rels.replace('Target="worksheets/sheet1.xml"',
                                                            f'Target="{target}"', 1).encode(), **extra})
    gate = Workbook(book).gate
    one_by_one = gate.sheet_targets()
    expected = {name: tuple(gate.info(p) for p in one_by_one[name]) for name in one_by_one}
    looked_up = Workbook(book).gate.sheet_targets()
    assert {name: looked_up.entries_of(name) for name in one_by_one} == expected
    names = [*one_by_one, "No such sheet"]
    assert Workbook(book).part_stamps(names) == [Workbook(book).part_stamp(name) for name in names]
    assert sum(len(parts) for parts in expected.values()) >= len(expected) + (1 if extra else 0)
