"""`musterroll new`, and the tables a campaign workbook holds: the engine reads
them back, so the umpire's edits change the next refit."""
from __future__ import annotations

import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest
from workbook_helpers import copy_sample, edit, sheet_values

from automation.engine.dice import CampaignKey
from automation.rulebook import load_rulebook
from automation.systems import campaign_system_ids
from automation.workbook.reader import Workbook
from automation.workbook.schema import SETTINGS
from automation.workbook.tables_io import system_from_workbook
from automation.workbook.template import CAMPAIGN_PLACEHOLDER, COMMITMENT_PLACEHOLDER, build_template

REPORT = "Refit Dec 23 1"


def settings(book: Path) -> dict[str, Any]:
    return {r["Setting"]: r["Value"] for r in Workbook(book).read(SETTINGS)}


def package_text(book: Path) -> str:
    with zipfile.ZipFile(book) as z:
        return "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist())


# ------------------------------------------------------------------ musterroll new

def test_new_creates_the_workbook_and_its_key_beside_it(tmp_path: Path, musterroll) -> None:
    run = musterroll("new", "bf-campaign", tmp_path / "kharkov.xlsx", "--campaign", "Kharkov 1943")
    assert run.code == 0, run.err
    assert (tmp_path / "kharkov.xlsx").is_file() and (tmp_path / "kharkov.key").is_file()
    assert "kharkov.xlsx" in run.out and "kharkov.key" in run.out
    assert stat.S_IMODE((tmp_path / "kharkov.key").stat().st_mode) == 0o600


def test_the_campaign_sheet_holds_the_name_and_the_keys_commitment_never_the_key(tmp_path: Path, musterroll) -> None:
    book = tmp_path / "kharkov.xlsx"
    assert musterroll("new", "bf-campaign", book, "--campaign", "Kharkov 1943").code == 0
    key = CampaignKey.from_hex(book.with_suffix(".key").read_text().strip())
    values = settings(book)
    assert values["Campaign name"] == "Kharkov 1943"
    assert values["Rule system"] == "bf-campaign"
    assert values["Key commitment"] == key.commitment
    text = package_text(book)
    assert key.to_hex() not in text and key.to_hex().upper() not in text
    assert CAMPAIGN_PLACEHOLDER not in text and COMMITMENT_PLACEHOLDER not in text


def test_the_campaign_name_defaults_to_the_file_name(tmp_path: Path, musterroll) -> None:
    assert musterroll("new", "bf-campaign", tmp_path / "Rostov 42.xlsx").code == 0
    assert settings(tmp_path / "Rostov 42.xlsx")["Campaign name"] == "Rostov 42"


def test_two_new_campaigns_get_different_keys(tmp_path: Path, musterroll) -> None:
    for name in ("a.xlsx", "b.xlsx"):
        assert musterroll("new", "bf-campaign", tmp_path / name).code == 0
    assert settings(tmp_path / "a.xlsx")["Key commitment"] != settings(tmp_path / "b.xlsx")["Key commitment"]


def test_new_refuses_to_overwrite_a_workbook(tmp_path: Path, musterroll) -> None:
    book = tmp_path / "campaign.xlsx"
    book.write_bytes(b"the umpire's own work")
    run = musterroll("new", "bf-campaign", book)
    assert run.code == 2 and "campaign.xlsx: already exists" in run.err
    assert book.read_bytes() == b"the umpire's own work"
    assert not book.with_suffix(".key").exists()


def test_new_refuses_to_replace_a_campaign_key(tmp_path: Path, musterroll) -> None:
    key = tmp_path / "campaign.key"
    key.write_text("an old campaign's key\n")
    run = musterroll("new", "bf-campaign", tmp_path / "campaign.xlsx")
    assert run.code == 2 and "campaign.key: a key file is already there" in run.err
    assert key.read_text() == "an old campaign's key\n"
    assert not (tmp_path / "campaign.xlsx").exists()


@pytest.mark.parametrize("system", ["bf-campain", "bfta-optional"])
def test_new_with_an_unknown_campaign_system_exits_2_naming_the_valid_ones(tmp_path: Path, musterroll, system: str) -> None:
    run = musterroll("new", system, tmp_path / "campaign.xlsx")
    assert run.code == 2 and run.out == ""
    assert f"unknown campaign system {system!r}; valid: " in run.err
    assert all(s in run.err for s in campaign_system_ids())
    assert list(tmp_path.iterdir()) == []


def test_a_new_campaigns_first_refit_says_what_to_enter_and_leaves_the_workbook_alone(tmp_path: Path, musterroll) -> None:
    book = tmp_path / "campaign.xlsx"
    assert musterroll("new", "bf-campaign", book).code == 0
    before = book.read_bytes()
    run = musterroll("refit", book)
    assert run.code == 2
    assert "Sides!A2: 0 side(s) entered; exactly two sides are needed" in run.err
    assert book.read_bytes() == before


# ------------------------------------------------------------------ the tables in the workbook

@pytest.mark.parametrize("system_id", sorted(load_rulebook().systems))
def test_a_workbook_gives_back_exactly_the_rule_systems_tables(tmp_path: Path, system_id: str) -> None:
    base = load_rulebook().system(system_id)
    book = tmp_path / f"{system_id}.xlsx"
    build_template(base, book)
    assert system_from_workbook(Workbook(book), base).tables == base.tables


def _set(wb: Any, sheet: str, match: dict[str, Any], column: str, value: Any) -> None:
    ws = wb[sheet]
    header = [c.value for c in ws[1]]
    for row in ws.iter_rows(min_row=2):
        if all(row[header.index(k)].value == v for k, v in match.items()):
            row[header.index(column)].value = value
            return
    raise AssertionError(f"no row of {sheet} matches {match}")


def cpp_line(book: Path, side: str) -> dict[str, Any]:
    rows = sheet_values(book, REPORT)
    header = rows[0]
    line = next(r for r in rows[1:] if r[0] == "CPP replenishment" and r[2] == side)
    return dict(zip(header, line))


def test_an_umpires_edit_of_a_modifier_changes_the_next_refit(tmp_path: Path, musterroll) -> None:
    """2.1.1.1: the German historical DRM on Dec 23 is -2; counting it twice
    (Value 2 per point) makes it -4 on the same natural roll of 6."""
    plain = edit(copy_sample(tmp_path / "plain"), lambda wb: None)
    doubled = edit(copy_sample(tmp_path / "doubled"),
                   lambda wb: _set(wb, "Modifiers", {"Table": "bf.cpp_replenishment", "Modifier": "historical"}, "Value", 2))
    assert musterroll("refit", plain).code == 0 and musterroll("refit", doubled).code == 0
    before, after = cpp_line(plain, "German"), cpp_line(doubled, "German")
    assert before["Natural"] == after["Natural"] == 6
    assert (before["DRM"], before["Final"], before["Result"]) == (-2, 4, "+10 CPP")
    assert (after["DRM"], after["Final"], after["Result"]) == (-4, 2, "+8 CPP")
    assert after["Modifiers"] == "-4 Historical DRM for the current CG scenario (2.1.1.1)"
    assert cpp_line(plain, "Russian")["Result"] == cpp_line(doubled, "Russian")["Result"] == "+14 CPP"


def test_an_umpires_edit_of_a_table_band_changes_the_next_refit(tmp_path: Path, musterroll) -> None:
    """The German final 4 falls in the 3-4 band of the CPP Replenishment Table."""
    richer = edit(copy_sample(tmp_path / "richer"), lambda wb: (
        _set(wb, "Tables", {"Table": "bf.cpp_replenishment", "Min": 3}, "Result", "+11"),
        _set(wb, "Tables", {"Table": "bf.cpp_replenishment", "Min": 3}, "Effect", "cpp=11")))
    assert musterroll("refit", richer).code == 0
    assert cpp_line(richer, "German")["Result"] == "+11 CPP"


def test_a_bad_edit_of_the_tables_names_its_cell_and_writes_nothing(tmp_path: Path, musterroll) -> None:
    book = edit(copy_sample(tmp_path), lambda wb: (
        _set(wb, "Modifiers", {"Table": "bf.cpp_replenishment", "Modifier": "historical"}, "Value", "two"),
        _set(wb, "Modifiers", {"Table": "bf.cpp_replenishment", "Modifier": "night_attack"}, "Table", "bf.cpp")))
    before = book.read_bytes()
    run = musterroll("refit", book)
    assert run.code == 2
    assert "Modifiers!D2: Value: text 'two' where a whole number is expected" in run.err
    assert book.read_bytes() == before
