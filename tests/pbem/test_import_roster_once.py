"""An import plans its refit twice (on the master, then with the returned
orders laid over it, which the refit checks): the latest roster is turned
into stands once, and a roster read again is checked again against what
its check depends on."""
from __future__ import annotations

import shutil

import pytest

from automation.errors import WorkbookError
from automation.samples import SAMPLE
from automation.workbook import bf_adapter
from automation.workbook.forms.fill import fill
from automation.workbook.reader import Workbook
from tests.forms.test_master_forms import ANSWERS, copy, refitted  # noqa: F401 - the fixture
from tests.pbem.helpers import run


@pytest.fixture
def rosters_made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many stands each roster the workbook adapter makes holds, as it makes them."""
    made: list[int] = []
    real = bf_adapter.Roster

    def counted(mes, stands):  # noqa: ANN001
        made.append(len(stands))
        return real(mes, stands)

    monkeypatch.setattr(bf_adapter, "Roster", counted)
    return made


def test_an_import_turns_the_latest_roster_into_stands_once(capsys, tmp_path, refitted, rosters_made) -> None:
    book = copy(refitted["bf"], tmp_path)
    export = tmp_path / "german.xlsx"
    assert run(capsys, "export", book, "--side", "German", "-o", export)[0] == 0
    fill(export, "Spend Dec 23 German", ANSWERS["Spend Dec 23 German"])
    rosters_made.clear()
    code, out, err = run(capsys, "import", book, export)
    assert code == 0 and "1 order(s)" in out, err
    assert len(rosters_made) == 1 and rosters_made[0] > 0


def test_a_roster_read_again_is_the_same_and_against_another_rg_chart_is_checked_again(
        tmp_path, rosters_made) -> None:
    book = tmp_path / SAMPLE.name
    shutil.copyfile(SAMPLE, book)
    wb = Workbook(book)
    lists = wb.read_lists()
    lists["sides"] = ["German", "Russian"]
    chart = bf_adapter.read_rg_chart(wb, lists)
    first = bf_adapter.read_roster(wb, "Roster Start", lists, chart)
    assert bf_adapter.read_roster(wb, "Roster Start", lists, chart) is first
    assert len(rosters_made) == 1
    named = {s.rg for s in first.mes.values() if s.rg}
    fewer = {k: v for k, v in chart.items() if k[1] != sorted(named)[0]}
    with pytest.raises(WorkbookError, match="is not on the RG chart of"):
        bf_adapter.read_roster(wb, "Roster Start", lists, fewer)
    assert bf_adapter.read_roster(Workbook(book), "Roster Start", lists, chart) is not first  # another reader's rows
