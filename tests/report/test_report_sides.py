"""A side's report holds nothing of the other side: it is built from the
side's export, and searched here for the other side's secrets the way exports
are searched (both rule systems, both sides)."""
from __future__ import annotations

from html import escape

import pytest

from automation.pbem.reports import ALL, Header, is_report
from automation.workbook.reader import Workbook
from tests.report.helpers import parse, record_table, report

BF = ("German", "Russian")
ABTF = ("British", "German")
ROSTERS = ("Roster ", "Units ", "End ")


def texts_visible_to(book: Workbook, side: str) -> set[str]:
    """Every text the side may legitimately see in the master's reports and rosters."""
    seen: set[str] = set()
    for name in book.sheet_names:
        rows = book.raw(name)
        if not rows:
            continue
        h = Header.of(rows[0])
        for r in rows[1:]:
            if is_report(name):
                ok = str(h.get(r, "Visible to") or "") in (ALL, side)
            else:
                ok = name.startswith(ROSTERS) and h.get(r, "Side") == side
            if ok:
                seen.update(str(v) for v in r if isinstance(v, str))
    return seen


def secrets_of(book: Workbook, enemy: str, side: str) -> set[str]:
    """The enemy's roll labels, subjects and results of the report lines only
    it may see, and its stand, ME and unit names, less anything the side may see."""
    found: set[str] = set()
    for name in book.sheet_names:
        rows = book.raw(name)
        if not rows:
            continue
        h = Header.of(rows[0])
        for r in rows[1:]:
            if is_report(name) and h.get(r, "Visible to") == enemy and h.get(r, "Step") != "Dice statistics":
                found.update(str(h.get(r, c)) for c in ("Label", "Subject", "Result") if h.get(r, c))
            if name.startswith(ROSTERS) and h.get(r, "Side") == enemy:
                found.update(str(h.get(r, c)) for c in ("Stand", "ME", "Unit") if h.get(r, c))
            if name.startswith(("Orders ", "Spend ", "Purchases ")) and name.endswith(f" {enemy}"):
                found.add(name)
    public = texts_visible_to(book, side) | set(BF) | set(ABTF)
    return {s for s in found - public if len(s) > 3 and not any(s in p for p in public)}


def enemy_labels(book: Workbook, enemy: str) -> set[str]:
    out = set()
    for name in book.sheet_names:
        rows = book.raw(name)
        if is_report(name) and rows:
            h = Header.of(rows[0])
            out |= {str(h.get(r, "Label")) for r in rows[1:] if h.get(r, "Label") and h.get(r, "Visible to") == enemy}
    return out


@pytest.mark.parametrize("system, side", [("rostov", "German"), ("rostov", "Russian"),
                                          ("bridge", "British"), ("bridge", "German")])
def test_a_sides_report_holds_no_secret_of_the_other_side(request, capsys, tmp_path, system, side):
    book_path = request.getfixturevalue(system)
    sides = BF if system == "rostov" else ABTF
    enemy = sides[1 - sides.index(side)]
    html = report(capsys, book_path, tmp_path / "side.html", "--side", side, "--quiet").read_text(encoding="utf-8")
    book = Workbook(book_path)
    secret = secrets_of(book, enemy, side)
    assert len(secret) > 8, secret  # the search has something to find
    leaks = sorted(s for s in secret if s in html or escape(s) in html or escape(s, quote=False) in html)
    assert leaks == []
    umpire = report(capsys, book_path, tmp_path / "umpire.html", "--quiet").read_text(encoding="utf-8")
    labels = {s for s in secret if s in enemy_labels(book, enemy)}
    assert labels and all(escape(s) in umpire for s in labels)  # the umpire's report has every roll


@pytest.mark.parametrize("system, side", [("rostov", "German"), ("bridge", "British")])
def test_a_sides_report_shows_every_roll_the_side_may_see_and_no_other(request, capsys, tmp_path, system, side):
    book_path = request.getfixturevalue(system)
    html = report(capsys, book_path, tmp_path / "side.html", "--side", side, "--quiet").read_text(encoding="utf-8")
    book = Workbook(book_path)
    wanted = set()
    for name in book.sheet_names:
        rows = book.raw(name)
        if is_report(name) and rows and is_report(name, rows[0]):
            h = Header.of(rows[0])
            wanted |= {str(h.get(r, "Label")) for r in rows[1:] if h.get(r, "Label") and h.get(r, "Table")
                       and h.get(r, "Step") not in ("Dice statistics", "Tamper evidence")
                       and str(h.get(r, "Visible to")) in (ALL, side)}
    shown = {r["Label"] for r in record_table(parse(html).tables["roll-table"])}
    # the export names enemy units by their aliases, in labels too (enemy-xxxxxx)
    assert len(shown) == len(wanted) and wanted
    for label in shown - wanted:
        head, _, alias = label.rpartition("/")
        assert alias.startswith("enemy-") and any(w.startswith(head + "/") for w in wanted - shown)
    assert f"for the {side} player" in html
