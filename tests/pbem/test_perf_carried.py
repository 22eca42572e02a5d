"""Work carried from run to run (automation.pbem.carry): export, import and
stats give, from carried derivations, exactly what they give reading every
sheet, and a sheet changed since is derived anew."""
from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from automation.pbem.carry import folder_for
from tests.pbem.test_abtf_pbem import played  # noqa: F401 - the played A Bridge Too Far sample (a fixture)
from tests.pbem.helpers import parts, play_on, run
from tests.pbem.test_pbem_export import forms, secrets_of


def cells(path: Path) -> dict[str, list[list[object]]]:
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    return {n: book.get_sheet_by_name(n).to_python(skip_empty_area=False) for n in book.sheet_names}


def export(capsys, book: Path, side: str, out: Path) -> dict[str, list[list[object]]]:
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    return cells(out)


def fresh_and_carried(capsys, book: Path, side: str, tmp_path: Path) -> tuple[dict, dict]:
    """An export with nothing carried, then one from what the first carried."""
    shutil.rmtree(folder_for(book), ignore_errors=True)
    first = export(capsys, book, side, tmp_path / f"{side}-1.xlsx")
    assert folder_for(book).is_dir() and list(folder_for(book).iterdir())
    return first, export(capsys, book, side, tmp_path / f"{side}-2.xlsx")


@pytest.mark.parametrize("side", ["German", "Russian"])
def test_a_carried_battlefront_export_is_the_export_read_from_every_sheet(capsys, campaign, tmp_path, side):
    fresh, carried = fresh_and_carried(capsys, campaign("dec26"), side, tmp_path)
    assert list(carried) == list(fresh) and len(fresh) > 20
    assert carried == fresh


@pytest.mark.parametrize("side", ["British", "German"])
def test_a_carried_a_bridge_too_far_export_is_the_export_read_from_every_sheet(capsys, played, tmp_path, side):
    book = tmp_path / "abtf" / played.name
    book.parent.mkdir()
    shutil.copyfile(played, book)
    shutil.copyfile(played.with_suffix(".key"), book.with_suffix(".key"))
    fresh, carried = fresh_and_carried(capsys, book, side, tmp_path)
    assert carried == fresh and any(n.startswith("Units") for n in fresh)


def test_names_carried_dates_ago_stay_secret_as_the_campaign_goes_on(capsys, campaign, tmp_path):
    book = campaign("complete")
    export(capsys, book, "German", tmp_path / "early.xlsx")  # carries every roster's names so far
    play_on(book, ["Dec 25", "Dec 26"])
    out = tmp_path / "late.xlsx"
    late = export(capsys, book, "German", out)
    secret = secrets_of(book, "Russian") - secrets_of(book, "German")
    assert len(secret) > 20
    assert [(p, s) for p, data in parts(out).items() for s in secret if any(f in data for f in forms(s))] == []
    shutil.rmtree(folder_for(book))
    assert export(capsys, book, "German", tmp_path / "again.xlsx") == late


def replace_in_part(book: Path, sheet: str, old: bytes, new: bytes) -> None:
    """Edit one sheet's part in place, every other part byte for byte as it was."""
    from automation.workbook.reader import Workbook

    from automation.workbook.zipraw import parse_zip

    part = Workbook(book)._gate.sheet_targets()[sheet][0]
    raw = parse_zip(book.read_bytes(), str(book))
    with zipfile.ZipFile(io.BytesIO(book.read_bytes())) as z:
        items = [(i, data, deflated_level(raw.deflated(i.filename), data))
                 for i in z.infolist() for data in [z.read(i.filename)]]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data, level in items:
            if info.filename == part:
                assert old in data
                data = data.replace(old, new)
            z.writestr(info, data, compresslevel=level)
    book.write_bytes(buffer.getvalue())


def deflated_level(stored: Any, data: bytes) -> int:
    """The deflate level that gives a part's ``data`` as it is ``stored``
    (parts are deflated at several levels: written again at its own, a part
    is byte for byte as it was)."""
    import zlib

    for level in (6, 3, 1, 9, 2, 4, 5, 7, 8):
        packer = zlib.compressobj(level, zlib.DEFLATED, -15)
        if stored is None or packer.compress(data) + packer.flush() == stored.body:
            return level
    return 6


def test_a_sheet_edited_after_it_was_carried_is_read_again(capsys, campaign, tmp_path):
    book = campaign("complete")
    before = export(capsys, book, "German", tmp_path / "a.xlsx")
    row = next(r for r in before["Ledger Dec 23"][1:] if "Purchase" in str(r))
    entry = next(v for v in row if isinstance(v, str) and v.startswith("Purchase"))
    replace_in_part(book, "Ledger Dec 23", entry.encode(), b"Purchase edited by hand")
    after = export(capsys, book, "German", tmp_path / "b.xlsx")
    assert any("Purchase edited by hand" in r for r in after["Ledger Dec 23"])
    assert any("Purchase edited by hand" in r for r in after["Purchase record"])
    assert not any(entry in r for r in after["Purchase record"] if r[0] == "Dec 23")


def test_an_import_from_carried_names_unaliases_as_before(capsys, campaign, tmp_path):
    """The import reads the side's secrets from the carried names: a returned
    spending naming an enemy wreck by its alias lands as with nothing carried."""
    from tests.pbem.helpers import fill

    src = campaign("spend_dec24")
    results = {}
    for carried in (False, True):
        book = tmp_path / f"carried-{carried}" / src.name
        shutil.copytree(src.parent, book.parent)
        out = tmp_path / f"g{carried}.xlsx"
        exported = export(capsys, book, "German", out)
        wreck = next((r[0] for r in exported.get("Choices", []) if str(r[0]).startswith("enemy-")), None)
        back = fill(out, tmp_path / f"back{carried}.xlsx", [])
        if not carried:
            shutil.rmtree(folder_for(book))
        assert folder_for(book).is_dir() == carried
        code, msg, err = run(capsys, "import", book, back)
        results[carried] = (code, msg.replace(str(book), "BOOK"), err, wreck)
    assert results[True] == results[False] and results[True][0] == 0


def test_stats_from_the_carried_totals_count_every_roll_of_every_report(capsys, campaign):
    from automation.audit import workbook_system
    from automation.pbem import stats
    from automation.pbem.reports import is_report, roll_rows
    from automation.workbook.reader import Workbook

    book = campaign("dec26")
    wb = Workbook(book)
    _, system = workbook_system(wb)
    rolls = [r for n in wb.sheet_names if is_report(n) and is_report(n, wb.raw(n)[0]) for r in roll_rows(n, wb.raw(n))]
    every = stats.as_json(stats.collect(rolls, system))
    for _ in range(2):  # the second from what the first carried
        code, out, err = run(capsys, "stats", book, "--json")
        assert code == 0, err
        found = json.loads(out)
        assert {k: v for k, v in found.items() if k != "workbook"} == {**every, "physical_dice": []}
    assert every["sides"]["German"]["tables"]
