"""The Battlefront export's Choices sheet names what a Removal may target
(2.1.1.5.1) and nothing import refuses: enemy wrecks behind the side's lines
outside their own side's pocket (2.1.1.3.1 item 3), and the enemy's
fortifications on the roster, each under its alias."""
from __future__ import annotations

from pathlib import Path

import pytest

from automation.pbem.bf import BattlefrontView
from automation.pbem.sidesheets import alias
from automation.steps.bf.state import Situation
from automation.workbook.reader import Workbook
from tests.forms.form_helpers import planned
from tests.pbem.helpers import build, fill, private_copy, run


@pytest.fixture(scope="module")
def spend_dec24(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("choices") / "s", "spend_dec24")


def choices(book: Path, side: str, edit=None) -> tuple[dict[str, str], object]:
    wb, plan, key = planned(book)
    if edit is not None:
        plan.run.state = edit(plan.run.state)
    return {str(r[0]): str(r[1]) for r in BattlefrontView().choices(wb, plan, side, key)[1:]}, key


def test_the_choices_list_enemy_fortifications_under_their_aliases(spend_dec24):
    wb = Workbook(spend_dec24)
    roster = wb.raw("Roster Dec 23")
    forts = [r[6] for r in roster[1:] if r[8] == "Fortification" and r[0] == "German"]
    assert forts, "the German bought a minefield section at Dec 23"
    listed, key = choices(spend_dec24, "Russian")
    for fort in forts:
        assert listed[alias(key, fort)].startswith("enemy fortification: ")
        assert fort not in listed


def test_a_wreck_inside_its_own_sides_pocket_is_not_offered(spend_dec24):
    listed, key = choices(spend_dec24, "German")
    assert alias(key, "R-T34-2") in listed  # behind the German lines, no pocket

    def pocket(state):
        wreck = state.roster.stand("R-T34-2")
        return state.with_(roster=state.roster.replace_stands([wreck.with_(situation=Situation.ISOLATED)]))

    listed, key = choices(spend_dec24, "German", pocket)
    assert alias(key, "R-T34-2") not in listed


def test_a_removal_of_an_offered_enemy_fortification_imports(capsys, spend_dec24, tmp_path):
    book = private_copy(spend_dec24, tmp_path / "m")
    wb, plan, key = planned(book)
    from automation.pbem.planning import answers

    waiting = [p for p in ("Russian", "German") if not answers(wb).has(f"Spend Dec 24 {p}")]  # forms: not yet
    side = "Russian" if "Russian" in waiting else waiting[0]
    listed, key = choices(book, side)
    target = next(a for a, what in listed.items() if what.startswith("enemy fortification: "))
    out = tmp_path / "export.xlsx"
    code, _, err = run(capsys, "export", book, "--side", side, "-o", out)
    assert code == 0, err
    back = fill(out, tmp_path / "back.xlsx", [["Removal", target, None, None]], f"Spend Dec 24 {side}")
    code, text, err = run(capsys, "import", book, back)
    assert code == 0 and "1 order(s)" in text, err
