"""A side's report is read from its export built in memory (never written),
and shows the side's own strength by kind at every date, from its own rows of
each dated roster: checked against the master's rosters and the umpire's
report, for both rule systems and both sides."""
from __future__ import annotations

from collections import Counter

import pytest

from automation.pbem.export import export, side_export
from automation.report.source import SheetsBook, own_history, scrubbed
from automation.workbook.reader import Workbook
from tests.report.helpers import column_table, parse, report

CASES = [("rostov", "German"), ("rostov", "Russian"), ("bridge", "British"), ("bridge", "German")]
# (roster sheet prefix, column counted, the report's table, whether a row counts)
BF = ("Roster ", "Kind", "ready-by-kind-table", lambda status: status == "Available")
ABTF = ("Units ", "Class", "strength-table", lambda status: "Eliminated" not in status)


def spec(system: str):
    return BF if system == "rostov" else ABTF


def master_counts(book: Workbook, side: str, system: str) -> dict[str, Counter]:
    """{date: {kind: count}} of the side's stands or units on every dated roster of the master."""
    prefix, column, _, counts = spec(system)
    out: dict[str, Counter] = {}
    for name in book.sheet_names:
        if not name.startswith(prefix):
            continue
        rows = book.raw(name)
        head = [str(h) for h in rows[0]]
        at = {c: head.index(c) for c in ("Side", column, "Status")}
        out[name[len(prefix):]] = Counter(
            str(r[at[column]]) for r in rows[1:]
            if r[at["Side"]] == side and r[at[column]] and counts(str(r[at["Status"]] or "")))
    return out


def report_counts(html: str, side: str, system: str) -> dict[str, Counter]:
    table = column_table(parse(html).tables[spec(system)[2]])
    out: dict[str, Counter] = {}
    for date, cells in table.items():
        if date == "Date":  # the index's name, on a header row of its own
            continue
        out[date] = Counter({column.partition(" · ")[2]: int(v.replace(",", "")) for column, v in cells.items()
                             if column.startswith(f"{side} · ") and v not in ("-", "")})
    return out


@pytest.mark.parametrize("system, side", CASES)
def test_a_sides_strength_by_kind_covers_every_date_of_its_rosters(request, capsys, tmp_path, system, side):
    book_path = request.getfixturevalue(system)
    expected = master_counts(Workbook(book_path), side, system)
    assert len(expected) >= 3 and len({tuple(sorted(c.items())) for c in expected.values()}) >= 3  # it changes
    html = report(capsys, book_path, tmp_path / "side.html", "--side", side, "--quiet").read_text(encoding="utf-8")
    assert report_counts(html, side, system) == expected
    umpire = report(capsys, book_path, tmp_path / "umpire.html", "--quiet").read_text(encoding="utf-8")
    assert report_counts(umpire, side, system) == expected


@pytest.mark.parametrize("system, side", CASES)
def test_the_export_in_memory_reads_as_the_written_export(request, tmp_path, system, side):
    book_path = request.getfixturevalue(system)
    built = side_export(book_path, side)
    out = tmp_path / "export.xlsx"
    export(book_path, side, out)
    written = Workbook(out)
    memory = SheetsBook(book_path, built.sheets)
    forms = {s.name for s in built.sheets if s.form is not None}
    assert memory.sheet_names == [n for n in written.sheet_names if n not in forms]
    assert len(memory.sheet_names) > 8
    for name in memory.sheet_names:
        assert memory.raw(name) == written.raw(name), name


@pytest.mark.parametrize("system, side", CASES)
def test_the_history_holds_only_the_sides_rows_and_the_rosters_the_export_leaves_out(request, system, side):
    book_path = request.getfixturevalue(system)
    master = Workbook(book_path)
    built = side_export(book_path, side)
    exported = {s.name for s in built.sheets}
    system_id = "bf-campaign" if system == "rostov" else "asl-abtf"
    history = scrubbed(own_history(master, system_id, built.side), built.scrub, exported)
    prefix = spec(system)[0]
    assert set(history) == {n for n in master.sheet_names if n.startswith(prefix)} - exported
    assert history and not set(history) & exported
    for name, rows in history.items():
        side_at = rows[0].index("Side")
        assert rows[1:] and all(r[side_at] == side for r in rows[1:]), name
        # the columns stand where that date's export put them
        assert rows[0] == list(next(s for s in built.sheets if s.name.startswith(prefix)).rows[0]), name
