"""An import's messages never tell a player whether a guessed enemy ID exists:
an enemy stand, ME or unit named in an order gets exactly the message a
made-up name gets, and no message names anything of the other side."""
from __future__ import annotations

from pathlib import Path

import pytest

from automation.workbook.reader import Workbook
from tests.pbem.helpers import fill, run
from tests.pbem.test_abtf_pbem import build as build_abtf
from tests.pbem.test_abtf_pbem import fill as fill_abtf


def other_names(book: Path, side: str, sheets: tuple[str, ...], columns: tuple[str, ...]) -> set[str]:
    wb = Workbook(book)
    found: set[str] = set()
    for name in wb.sheet_names:
        if not name.startswith(sheets):
            continue
        rows = wb.raw(name)
        head = {h: i for i, h in enumerate(rows[0])}
        for r in rows[1:]:
            if "Side" in head and r[head["Side"]] not in (side, None, ""):
                found |= {str(r[head[c]]) for c in columns if c in head and r[head[c]]}
    return found


def answer(capsys, book: Path, export: Path, out: Path, rows, sheet: str | None = None, filler=fill) -> tuple[int, str]:
    """What the real CLI tells the player for ``rows``; the master is left as it was."""
    before = book.read_bytes()
    filler(export, out, rows, sheet) if sheet else filler(export, out, rows)
    code, stdout, err = run(capsys, "import", book, out)
    text = stdout + err
    if code == 0:
        run(capsys, "undo", book)
    assert book.read_bytes() == before or code == 0
    return code, text


@pytest.mark.parametrize("order, enemy, made_up", [
    ("Repair", "R-T34-4", "R-T34-99"),     # an enemy vehicle
    ("Repair", "R-1RR-2", "R-1RR-99"),     # an enemy rifle stand
    ("Combine", "1/87 TB", "9/87 TB"),     # an enemy ME
    ("Escape", "R-T70-1", "R-T70-9"),      # an order of the wrong sheet names it too
])
def test_an_enemy_id_and_a_made_up_one_get_the_same_message(capsys, campaign, tmp_path, order, enemy, made_up):
    book = campaign("spend_dec23")
    export = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    code_e, told_e = answer(capsys, book, export, tmp_path / "e.xlsx", [[order, enemy, 1, None]])
    code_m, told_m = answer(capsys, book, export, tmp_path / "m.xlsx", [[order, made_up, 1, None]])
    assert code_e == code_m == 2
    assert told_e.replace(enemy, "X").replace("e.xlsx", "F") == told_m.replace(made_up, "X").replace("m.xlsx", "F")
    secrets = other_names(book, "German", ("Roster",), ("Stand", "ME", "Stand type", "ME type")) - {enemy}
    assert not [s for s in secrets if s in told_e], told_e


def test_no_import_message_names_anything_of_the_other_side(capsys, campaign, tmp_path):
    book = campaign("spend_dec23")
    export = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    rows = [["Repair", s, 1, None] for s in ("R-T34-1", "R-T34-2", "R-T70-3")] + [["Combine", "2/87 TB", None, None]]
    code, told = answer(capsys, book, export, tmp_path / "e.xlsx", rows)
    assert code == 2 and told.count("not on the roster") == 3
    secrets = other_names(book, "German", ("Roster",), ("Stand", "ME", "Stand type", "ME type"))
    typed = {"R-T34-1", "R-T34-2", "R-T70-3", "2/87 TB"}
    assert not [s for s in secrets - typed if s in told], told
    assert "Russian" not in told.replace("Russian's", "")  # the other side is never said to own anything


@pytest.fixture(scope="module")
def abtf_orders(tmp_path_factory) -> Path:
    return build_abtf(tmp_path_factory.mktemp("oracle") / "abtf", "orders_18am")


@pytest.mark.parametrize("row_of", [
    lambda unit: ["Battle Harden", unit, None, None, None, None],
    lambda unit: ["Escape", None, None, unit, None, None],
    lambda unit: ["Transfer", unit, "Drop", None, None, None],
])
def test_abtf_an_enemy_unit_and_a_made_up_one_get_the_same_message(capsys, abtf_orders, tmp_path, row_of):
    import shutil

    book = tmp_path / "abtf.xlsx"
    shutil.copyfile(abtf_orders, book)
    shutil.copyfile(abtf_orders.with_suffix(".key"), book.with_suffix(".key"))
    export = tmp_path / "british.xlsx"
    assert run(capsys, "export", book, "--side", "British", "-o", export)[0] == 0
    enemy = sorted(other_names(book, "British", ("Units ",), ("Unit",)))[0]
    made_up = "G-999"
    sheet = "Orders 18AM British"
    code_e, told_e = answer(capsys, book, export, tmp_path / "e.xlsx", [row_of(enemy)], sheet, fill_abtf)
    code_m, told_m = answer(capsys, book, export, tmp_path / "m.xlsx", [row_of(made_up)], sheet, fill_abtf)
    assert code_e == code_m
    assert told_e.replace(enemy, "X").replace("e.xlsx", "F") == told_m.replace(made_up, "X").replace("m.xlsx", "F")
    secrets = other_names(book, "British", ("Units ",), ("Unit",)) - {enemy}
    assert not [s for s in secrets if s in told_e], told_e
