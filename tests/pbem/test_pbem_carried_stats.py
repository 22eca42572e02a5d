"""The dice statistics are carried from report to report: a refit reads the
last section back, adds its own rolls and writes the new totals, exactly; verify
with the key recounts every roll and names any carried total that differs."""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from automation.audit import chain_links, is_dated_input, seal, verify_book, workbook_system
from automation.keys import read_key_file
from automation.pbem.reports import is_report, roll_rows
from automation.pbem.stats import CampaignStats, Tally, collect
from automation.service import plan_refit
from automation.workbook.package import append_sheets
from automation.workbook.reader import Workbook
from tests.pbem.helpers import cheat, enter_date, play_on, run

STAGE_2 = ["Refit Dec 23 2", "Refit Dec 24 2", "Refit Dec 25 2", "Refit Dec 26 2"]


def carried_and_recounted(book: Path) -> list[tuple[str, CampaignStats, CampaignStats]]:
    """For each report with a statistics section: (name, what it carries, a recount of every roll up to it)."""
    wb = Workbook(book)
    _, system = workbook_system(wb)
    rolls, out = [], []
    for name in wb.sheet_names:
        if not is_report(name):
            continue
        rows = wb.raw(name)
        rolls += roll_rows(name, rows)
        carried = Tally.carried(rows, system)
        if carried is not None:
            out.append((name, carried.stats(), collect(rolls, system)))
    return out


def stats_row(book: Path, sheet: str, side: str, subject: str, starts: str) -> tuple[int, str]:
    ws = openpyxl.load_workbook(book)[sheet]
    head = {c.value: c.column for c in ws[1]}
    for r in range(2, ws.max_row + 1):
        text = str(ws.cell(r, head["Result"]).value or "")
        if (ws.cell(r, head["Step"]).value == "Dice statistics" and ws.cell(r, head["Visible to"]).value == side
                and ws.cell(r, head["Subject"]).value == subject and text.startswith(starts)):
            return r, text
    raise AssertionError((sheet, side, subject, starts))


def test_each_dates_carried_totals_equal_a_recount_of_every_roll_before_them(campaign):
    found = carried_and_recounted(campaign("dec26"))
    assert [name for name, _, _ in found] == STAGE_2
    for name, carried, recount in found:
        assert carried.tables == recount.tables, name
        assert carried.dice == recount.dice, name
        assert carried.tables and carried.dice


def test_the_carried_expectation_stays_an_exact_fraction_over_four_dates(campaign):
    book = campaign("dec26")
    _, carried, _ = carried_and_recounted(book)[-1]
    cpp = next(t for t in carried.tables if t.side == "German" and t.table_id == "bf.cpp_replenishment")
    # German CPP rolls at DRM -2, 0, +2, +4 (Historical DRM, 2.1.1.1) read d10 6, 3, 7, 4: +10, +10, +16, +14.
    # Per DRM each result holds two faces (1/5), +18 (11+) four faces at +4: +6 = 1/5, +8 = 2/5, +10 = 3/5,
    # +12 = 4/5, +14 = 4/5, +16 = 3/5, +18 = 3/5 (together 4 rolls).
    assert cpp.rolls == 4
    assert {r.result: (r.observed, str(r.expected)) for r in cpp.results} == {
        "+6": (0, "1/5"), "+8": (0, "2/5"), "+10": (2, "3/5"), "+12": (0, "4/5"), "+14": (1, "4/5"),
        "+16": (1, "3/5"), "+18": (0, "3/5")}
    _, text = stats_row(book, "Refit Dec 26 2", "German", "bf.cpp_replenishment (CPP increase)", "+10:")
    assert text == "+10: 2 of 4 (50.00%); expected 0.60 (15.00%), exactly 3/5"


def test_a_long_campaign_verifies_with_every_section_recounted(capsys, campaign):
    book = campaign("dec26")
    code, out, _ = run(capsys, "verify", book, "--key", book.with_suffix(".key"))
    assert code == 0
    assert "the chain of 8 report(s) is intact (dates: Dec 23, Dec 24, Dec 25, Dec 26" in out
    assert "4 dice statistics section(s) match a recount of every roll of the campaign" in out


class Reads:
    """A workbook that notes which sheets are read from it."""

    def __init__(self, book: Workbook) -> None:
        self._book, self.names = book, []

    def __getattr__(self, name: str):
        return getattr(self._book, name)

    def raw(self, name: str):
        self.names.append(name)
        return self._book.raw(name)

    def read(self, kind, name=None, lists=None):
        self.names.append(name or kind.title)
        return self._book.read(kind, name, lists)


def test_sealing_reads_the_last_report_and_the_sheets_added_since_it_only(campaign):
    book = campaign("dec26")
    enter_date(book, "Dec 26", "Dec 27")
    key = read_key_file(book.with_suffix(".key")).key
    outcome, sheets = plan_refit(Workbook(book), key=key)
    assert [s.name for s in sheets][:2] == ["Refit Dec 27 1", "Refit Dec 27 2"]
    spy = Reads(Workbook(book))
    sealed = seal(spy, sheets, key=key)
    assert {n for n in spy.names if is_report(n)} == {"Refit Dec 26 2"}
    assert sorted({n for n in spy.names if is_dated_input(n)}) == [  # and the last refit's sheets, to fingerprint them
        "Ledger Dec 26", "Orders Dec 27 German", "Orders Dec 27 Russian", "Results Dec 26", "Roster Dec 26",
        "Spend Dec 27 German", "Spend Dec 27 Russian", "Summary Dec 26"]
    _, links = chain_links(sealed[0].rows)
    assert [ln.target for ln in links if ln.kind == "sheet"] == [  # the first report seals what was entered
        "Results Dec 26", "Orders Dec 27 German", "Orders Dec 27 Russian",
        "Spend Dec 27 German", "Spend Dec 27 Russian"]
    append_sheets(book, sealed, batch="Refit Dec 27", expected_digest=spy.digest)
    result = verify_book(Workbook(book), key)
    # Dec 23 and 24 seal 14 sheets (Roster Start; spending, results and orders; rosters, ledgers, summaries),
    # each later date 8: results and orders, spending, roster, ledger, summary
    assert result.problems == [] and result.stats_checked == 5 and result.sealed_sheets == 14 + 3 * 8


@pytest.mark.parametrize("subject, starts, changed, given", [
    ("bf.cpp_replenishment (CPP increase)", "+10:", "+10: 1 of 2 (50.00%); expected 0.40 (20.00%), exactly 2/5",
     "+10: 2 of 2 (100%); expected 0.40 (20.00%), exactly 2/5"),
    ("bf.cpp_replenishment (CPP increase)", "+10:", "+10: 2 of 2 (100%); expected 0.40 (20.00%), exactly 1/2",
     "+10: 2 of 2 (100%); expected 0.40 (20.00%), exactly 2/5"),
    ("d10 faces", "faces", None, None),  # one die moved from the face 9 to the face 10 of the real count
])
def test_a_carried_total_changed_with_a_recomputed_digest_is_named_by_the_key(capsys, campaign, subject, starts,
                                                                                changed, given):
    book = campaign("complete")
    row, text = stats_row(book, "Refit Dec 24 2", "German", subject, starts)
    if changed is None:
        import re

        nine, ten = (int(re.search(rf"\b{f}: (\d+)", text).group(1)) for f in (9, 10))
        given, changed = text, text.replace(f"9: {nine},", f"9: {nine - 1},").replace(f"10: {ten} ", f"10: {ten + 1} ")
        assert changed != text and nine > 0
    cheat(book, "Refit Dec 24 2", row, {11: changed})
    key = book.with_suffix(".key").rename(book.parent / "kept-elsewhere.key")  # verify finds BOOK.key beside the book
    unkeyed = run(capsys, "verify", book)
    code, _, err = run(capsys, "verify", book, "--key", key)
    assert unkeyed[0] == 0  # consistent: only the key can tell
    assert code == 1
    assert (f"Refit Dec 24 2!K{row}: the dice statistics show {changed!r} but a recount of the campaign's rolls "
            f"gives {given!r}") in err


def test_a_carried_total_removed_with_a_recomputed_digest_is_named_by_the_key(capsys, campaign):
    book = campaign("complete")
    row, text = stats_row(book, "Refit Dec 24 2", "Russian", "bf.escape (Infantry)", "Escape:")
    wb = openpyxl.load_workbook(book)
    wb["Refit Dec 24 2"].delete_rows(row)
    wb.save(book)
    cheat(book, "Refit Dec 24 2", 1, {})
    code, _, err = run(capsys, "verify", book, "--key", book.with_suffix(".key"))
    assert code == 1
    assert (f"Refit Dec 24 2!K{row}: the dice statistics lack the bf.escape (Infantry) Escape of Russian: a recount of the "
            f"campaign's rolls gives {text!r}") in err


def test_a_total_edited_after_sealing_is_named_and_the_next_refit_does_not_carry_it(capsys, campaign):
    book = campaign("complete")
    row, _ = stats_row(book, "Refit Dec 24 2", "German", "bf.cpp_replenishment (CPP increase)", "+10:")
    wb = openpyxl.load_workbook(book)
    wb["Refit Dec 24 2"].cell(row, 11).value = "+10: 0 of 2 (0%); expected 0.40 (20.00%), exactly 2/5"
    wb.save(book)
    code, _, err = run(capsys, "verify", book)
    assert code == 1 and f"Refit Dec 24 2!K{row}: edited after Refit Dec 24 2 sealed it" in err
    play_on(book, ["Dec 25"])
    (name, carried, recount), = [f for f in carried_and_recounted(book) if f[0] == "Refit Dec 25 2"]
    assert (carried.tables, carried.dice) == (recount.tables, recount.dice)
    _, text = stats_row(book, "Refit Dec 25 2", "German", "bf.cpp_replenishment (CPP increase)", "+10:")
    assert text.startswith("+10: 2 of 3 (66.67%)")
