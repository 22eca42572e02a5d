"""The report's numbers against the workbook they come from, read back from
the HTML tables the report writes (both rule systems)."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from automation.pbem.reports import Header, is_report, roll_rows
from automation.workbook.reader import Workbook
from tests.report.helpers import column_table, parse, record_table, report, run, slug

SIDES = ("German", "Russian")


@pytest.fixture(scope="module")
def rostov_page(rostov, tmp_path_factory):
    out = tmp_path_factory.mktemp("rostov-page") / "umpire.html"
    from automation.report import build_report

    build_report(rostov, out, quiet=True)
    return out.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def bridge_page(bridge, tmp_path_factory):
    out = tmp_path_factory.mktemp("bridge-page") / "umpire.html"
    from automation.report import build_report

    build_report(bridge, out, quiet=True)
    return out.read_text(encoding="utf-8")


def whole(text: str) -> int:
    return int(text.replace(",", ""))


def same(text: str, value) -> bool:
    """A report cell shows the workbook's value (an empty cell shows a dash)."""
    return text == "-" if value in (None, "") else whole(text) == value


def last_sheet(book: Workbook, prefix: str) -> str:
    return [n for n in book.sheet_names if n.startswith(prefix)][-1]


def all_roll_labels(book: Workbook) -> list[str]:
    labels = []
    for name in book.sheet_names:
        rows = book.raw(name)
        if is_report(name) and rows and is_report(name, rows[0]):
            labels += [r.label for r in roll_rows(name, rows)]
    return labels


# ------------------------------------------------------------------ Battlefront

def test_strength_cpp_and_fpp_match_the_workbooks_summary_sheet(rostov, rostov_page):
    book = Workbook(rostov)
    summary = book.raw(last_sheet(book, "Summary"))
    h = Header.of(summary[0])
    tables = parse(rostov_page).tables
    strength = column_table(tables["strength-table"])
    economy = column_table(tables["economy-table"])
    assert len(summary) == 5  # Dec 23 to Dec 26
    for row in summary[1:]:
        date = row[h.positions["Date"]]
        for side in SIDES:
            on_roster = whole(strength[date][f"{side} · stands ready"]) + whole(strength[date][f"{side} · wrecks on the roster"])
            assert on_roster == h.get(row, f"{side} stands")
            assert whole(economy[date][f"{side} · CPP saved"]) == h.get(row, f"{side} CPP")
            assert whole(economy[date][f"{side} · FPP saved"]) == h.get(row, f"{side} FPP")


def test_cpp_earned_and_spent_match_each_ledger(rostov, rostov_page):
    book = Workbook(rostov)
    economy = column_table(parse(rostov_page).tables["economy-table"])
    checked = 0
    for name in (n for n in book.sheet_names if n.startswith("Ledger ")):
        date = name.removeprefix("Ledger ")
        rows = book.raw(name)
        h = Header.of(rows[0])
        for side in SIDES:
            amounts = [h.get(r, "Amount") for r in rows[1:] if h.get(r, "Side") == side and h.get(r, "Account") == "CPP"
                       and isinstance(h.get(r, "Amount"), (int, float))]
            assert whole(economy[date][f"{side} · CPP earned"]) == sum(a for a in amounts if a > 0)
            assert whole(economy[date][f"{side} · CPP spent"]) == -sum(a for a in amounts if a < 0)
            checked += 1
    assert checked == 8


def test_losses_per_date_count_the_results_sheets_knocked_out_and_abandoned_stands(rostov, rostov_page):
    book = Workbook(rostov)
    losses = column_table(parse(rostov_page).tables["losses-table"])
    results = [n for n in book.sheet_names if n.startswith("Results ")]
    assert results
    for name in results:
        rows = book.raw(name)
        h = Header.of(rows[0])
        counts = Counter(h.get(r, "Side") for r in rows[1:] if h.get(r, "Outcome") in ("Knocked out", "Abandoned"))
        for side in SIDES:
            assert whole(losses[name.removeprefix("Results ")][side]) == counts[side]
    assert whole(losses["Dec 23"]["German"]) == 3 and whole(losses["Dec 23"]["Russian"]) == 5


def test_every_roll_of_every_report_is_in_the_roll_table_with_its_sheet_dice_and_odds(rostov, rostov_page):
    book = Workbook(rostov)
    rows = record_table(parse(rostov_page).tables["roll-table"])
    labels = all_roll_labels(book)
    assert sorted(r["Label"] for r in rows) == sorted(labels) and len(labels) > 30
    shown = {r["Label"]: r for r in rows}
    for name in (n for n in book.sheet_names if n.startswith("Refit ")):
        sheet = book.raw(name)
        h = Header.of(sheet[0])
        for rr in roll_rows(name, sheet):
            row = shown[rr.label]
            assert row["Report sheet"] == name
            assert row["Dice"] == rr.dice and row["Result"] == rr.result_text
            assert row["Odds"] == h.get(sheet[rr.row - 1], "Odds")
            assert row["Modifiers"] == rr.modifiers


def test_dice_statistics_match_the_stats_command_table_by_table(capsys, rostov, rostov_page):
    code, out, err = run(capsys, "stats", rostov, "--json")
    assert code == 0, err
    found = json.loads(out)["sides"]
    tables = parse(rostov_page).tables
    checked = 0
    for side, data in found.items():
        for t in data["tables"]:
            shown = record_table(tables[slug("fit", side, t["table"], t["column"])])
            assert [r["Result"] for r in shown] == [r["result"] for r in t["results"]]
            assert [int(r["Observed"]) for r in shown] == [r["observed"] for r in t["results"]]
            assert [r["Expected"] for r in shown] == [f"{r['expected']:.2f}" for r in t["results"]]
            checked += 1
        for d in data["dice"]:
            shown = record_table(tables[slug("faces", side, d["die"])])
            assert {r["Face"]: int(r["Observed"]) for r in shown} == d["faces"]
    assert checked >= 10


def test_the_story_tells_postures_purchases_losses_and_repairs_with_their_cells(rostov_page):
    for text in ("postures revealed: German Attack; Russian Attack: attacker German",
                 "buys A2 (Light tank company (T-70)) for 6 CPP as A2-2",
                 "G-PzG-3: Panzergrenadier (Troops) knocked out: permanently off the roster",
                 "repair roll: No effect", "1/87 TB: withdrawal roll: Retained", "Refit Dec 24 2!K4"):
        assert text in rostov_page


# ------------------------------------------------------------------ A Bridge Too Far

def test_abtf_cpp_and_cvp_match_the_last_cg_roster(bridge, bridge_page):
    book = Workbook(bridge)
    roster = book.raw(last_sheet(book, "CG Roster"))
    h = Header.of(roster[0])
    tables = parse(bridge_page).tables
    economy, cvp = column_table(tables["economy-table"]), column_table(tables["cvp-table"])
    for row in roster[1:]:
        date, side = h.get(row, "CG Date"), h.get(row, "Side")
        assert same(cvp[date][f"{side} · final CVP"], h.get(row, "Final CVP"))
        assert same(cvp[date][f"{side} · RePh CVP"], h.get(row, "RePh CVP"))
        assert same(economy[date][f"{side} · CPP saved"], h.get(row, "CPP left"))
        assert same(economy[date][f"{side} · CPP spent"], h.get(row, "CPP spent"))
    assert whole(economy["18AM"]["British · CPP earned"]) == 27


def test_abtf_story_has_block_control_initiative_and_cvp_and_strength_counts_units(bridge, bridge_page):
    book = Workbook(bridge)
    blocks = book.raw(last_sheet(book, "Blocks"))
    h = Header.of(blocks[0])
    for row in blocks[1:]:
        if h.get(row, "Kind") == "Block" and h.get(row, "Controlled by"):
            assert f"Block {h.get(row, 'Area')}: Controlled by the {h.get(row, 'Controlled by')}" in bridge_page
    assert "Initiative Chits revealed: British Idle, German Attack: German Assault" in bridge_page
    assert "A: Block A:" not in bridge_page and "<li>B-1: eliminated" in bridge_page  # a subject is named once
    umpire = book.raw(last_sheet(book, "Umpire"))
    hu = Header.of(umpire[0])
    finals = {hu.get(r, "Subject"): hu.get(r, "Value") for r in umpire[1:] if hu.get(r, "Entry") == "Final CVP"}
    assert finals
    for side, value in finals.items():
        assert f"CG Scenario End: final CVP {int(value)}" in bridge_page
    units = book.raw(last_sheet(book, "Units"))
    hu = Header.of(units[0])
    squads = sum(1 for r in units[1:] if hu.get(r, "Side") == "British" and hu.get(r, "Class") == "Squad")
    strength = column_table(parse(bridge_page).tables["strength-table"])
    assert whole(strength["18AM"]["British · Squad"]) == squads


def test_abtf_every_roll_is_in_the_roll_table(bridge, bridge_page):
    rows = record_table(parse(bridge_page).tables["roll-table"])
    assert sorted(r["Label"] for r in rows) == sorted(all_roll_labels(Workbook(bridge)))


# ------------------------------------------------------------------ the command

def test_a_wrong_output_or_side_is_bad_input_and_leaves_the_workbook_untouched(capsys, rostov, tmp_path):
    before = rostov.read_bytes()
    code, _, err = run(capsys, "report", rostov, "-o", tmp_path / "r.pdf")
    assert code == 2 and "must be an .html file" in err
    code, _, err = run(capsys, "report", rostov, "--side", "French", "-o", tmp_path / "r.html")
    assert code == 2 and "valid: German, Russian" in err
    code, _, err = run(capsys, "report", rostov, "-o", tmp_path / "missing" / "r.html")
    assert code == 2 and "does not exist" in err
    assert rostov.read_bytes() == before and not (tmp_path / "r.html").exists()


def test_the_key_is_in_the_report_only_when_revealed(capsys, rostov, tmp_path):
    key = rostov.with_suffix(".key").read_text().split()[0]
    plain = report(capsys, rostov, tmp_path / "plain.html", "--side", "German", "--quiet").read_text()
    shown = report(capsys, rostov, tmp_path / "shown.html", "--reveal-key", "--quiet").read_text()
    assert key not in plain and "Key revealed: <strong>not yet</strong>" in plain
    assert key in shown and "Key revealed: <strong>yes</strong>" in shown
    assert "musterroll verify EXPORT.xlsx --key KEY" in plain
    assert "the chain of 8 sealed report(s) is intact" in plain
    # the command a player can run before the key is out, named in the side's report, works on its export
    assert "<code>musterroll verify EXPORT.xlsx</code> checks on its own" in plain
    assert "musterroll verify BOOK.xlsx" in shown and "musterroll verify BOOK.xlsx" not in plain
    assert run(capsys, "export", rostov, "--side", "German", "-o", tmp_path / "export.xlsx")[0] == 0
    code, out, _ = run(capsys, "verify", tmp_path / "export.xlsx")
    assert code == 0 and "are all in its Dice audit" in out


# ------------------------------------------------------------------ the audit

def test_the_chain_checked_in_a_second_process_is_the_one_checked_inline(rostov):
    from automation.report.gather import PendingChain, check_chain

    inline = check_chain(str(rostov))
    assert inline.reports == 8 and inline.problems == () and inline.dates == ("Dec 23", "Dec 24", "Dec 25", "Dec 26")
    assert PendingChain(rostov, in_background=True).result() == inline


def test_a_changed_report_shows_a_broken_chain_to_the_umpire_and_only_the_fact_to_a_side(capsys, rostov, tmp_path):
    import shutil

    import openpyxl

    book = tmp_path / "rostov.xlsx"
    shutil.copyfile(rostov, book)
    shutil.copyfile(rostov.with_suffix(".key"), book.with_suffix(".key"))
    wb = openpyxl.load_workbook(book)
    ws = wb["Refit Dec 24 2"]
    ws["K4"] = "Repaired: back in service"  # the repair roll's result, rewritten
    wb.save(book)
    umpire = report(capsys, book, tmp_path / "u.html", "--quiet").read_text(encoding="utf-8")
    side = report(capsys, book, tmp_path / "s.html", "--side", "Russian", "--quiet").read_text(encoding="utf-8")
    assert "Tamper-evident chain: <strong>NOT intact</strong>" in umpire and "the chain is broken" in umpire
    assert "Tamper-evident chain: <strong>NOT intact</strong>" in side and "ask the umpire" in side
