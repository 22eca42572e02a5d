"""A campaign sealed by an earlier version of musterroll verifies with today's:
its reports record the version that sealed them, and replay then compares
rolls, numbers and outcomes, not wording."""
from __future__ import annotations

import dataclasses

import pytest

from automation.audit import chain
from automation.audit.replay import first_difference_in_substance
from automation.pbem.reports import Header, canonical, is_report
from tests.pbem.helpers import build, run

HEADER = ["Step", "Rule", "Side", "Subject", "Table", "Dice", "Natural", "Modifiers", "DRM", "Final", "Result",
          "Odds", "Visible to", "Label"]


def reworded(real):
    """plan_refit as a later version would word it: every text of a row without a roll said otherwise."""

    def plan(book, key=None):
        outcome, sheets = real(book, key)
        out = []
        for s in sheets:
            if not is_report(s.name):
                out.append(s)
                continue
            h = Header.of(s.rows[0])
            rows = [list(s.rows[0])]
            for row in s.rows[1:]:
                row = list(row)
                r = h.positions["Result"]
                if not h.get(row, "Label") and isinstance(h.get(row, "Result"), str):
                    row[r] = f"In short: {row[r]}"
                rows.append(row)
            out.append(dataclasses.replace(s, rows=rows))
        return outcome, out

    return plan


@pytest.fixture(scope="module")
def old_campaign(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setattr(chain, "sealer", lambda: "musterroll 0.0.9")
    try:
        return build(tmp_path_factory.mktemp("old") / "book", "complete")
    finally:
        mp.undo()


@pytest.fixture
def later_wording(monkeypatch):
    import automation.pbem.planning as planning

    monkeypatch.setattr(planning, "plan_refit", reworded(planning.plan_refit))  # what verify's replay runs


def test_reports_record_the_version_that_sealed_them(old_campaign):
    from automation.workbook.reader import Workbook

    book = Workbook(old_campaign)
    reports = [n for n in book.sheet_names if is_report(n)]
    assert reports and all(chain.sealed_by(book.raw(n)) == "musterroll 0.0.9" for n in reports)


def test_an_earlier_versions_campaign_verifies_when_only_wording_changed(old_campaign, later_wording, capsys):
    code, out, err = run(capsys, "verify", old_campaign)
    assert code == 0, err
    assert "sealed by an earlier version of musterroll differ from today's only in wording" in out


def test_the_same_wording_change_fails_a_campaign_sealed_by_this_version(campaign, later_wording, capsys):
    code, _, err = run(capsys, "verify", campaign("complete"))
    assert code == 1 and "edited value: written" in err


@pytest.mark.parametrize("column, value", [("Final", "9"), ("Result", "Repaired"), ("Label", "bf/x/2"),
                                           ("Modifiers", "+2 Veteran (bf 3.1)")])
def test_a_roll_number_or_outcome_differs_even_from_an_earlier_version(column, value):
    def differs(written, expected):
        return first_difference_in_substance("Refit Dec 23 1", canonical(written), canonical(expected))

    roll = ["Repair", "bf 3.2", "German", "G-1", "bf.repair", "d6: 4", "4", "+1 Veteran (bf 3.1)", "1", "5",
            "No effect", "50%", "All", "bf/x/1"]
    prose = ["Posture", "bf 2.1", "German", None, None, None, None, None, None, None, "Attack, 12 CPP", None, "All"]
    expected = [HEADER, roll, prose]
    assert differs(expected, expected) is None
    worded = [HEADER, roll, prose[:10] + ["Attacks: 12 CPP"] + prose[11:]]
    assert differs(worded, expected) is None
    edited = [HEADER, list(roll), prose]
    edited[1][HEADER.index(column)] = value
    found = differs(edited, expected)
    assert found is not None and found.cell[0] == "ABCDEFGHIJKLMN"[HEADER.index(column)], found
    numbers = [HEADER, roll, prose[:10] + ["Attack, 13 CPP"] + prose[11:]]
    assert differs(numbers, expected).cell == "K3"
