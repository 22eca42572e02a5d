"""2.1.1.2 Armor ME withdrawal: only sides under the rule, only non-isolated
tank/tank-destroyer-only MEs that lost an AFV; a withdrawn ME leaves with all
its stands and wrecks."""
from __future__ import annotations

from fractions import Fraction

from automation.steps.bf import casualties, fpp, withdrawal
from tests.support.bf import (
    Campaign, afv, command, engineers, ledger, removal, rolls, run, soft, texts, troops,
)
from tests.support.dice import ScriptedDice, at


def tank_battle() -> Campaign:
    return (Campaign()
            .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T34-1", "T-34/76"), afv("R-T34-2", "T-34/76"),
                afv("R-T34-3", "T-34/76"), discipline="Trained")
            .result("R-T34-2", "Knocked out", ends_in="Enemy lines"))


def test_a_roll_of_2_withdraws_the_me_from_the_campaign():
    inputs, state = tank_battle().prepared()
    result = run(withdrawal, inputs, state, ScriptedDice(at(("withdrawal", "Russian", "1/87 TB"), 2)))
    (roll,) = rolls(result)
    assert roll.result == "Withdraws" and roll.probability == Fraction(2, 10)
    assert "1/87 TB" not in result.state.roster.mes and result.state.roster.of_me("1/87 TB") == []
    assert result.state.withdrawn == {"1/87 TB"}
    assert result.state.withdrawn_stands == {"R-T34-1", "R-T34-2", "R-T34-3"}
    assert result.state.ledger.rg_used == state.ledger.rg_used  # still counted in the campaign


def test_a_roll_of_3_retains_the_me():
    inputs, state = tank_battle().prepared()
    result = run(withdrawal, inputs, state, ScriptedDice(at(("withdrawal", "Russian", "1/87 TB"), 3)))
    assert rolls(result)[0].result == "Retained" and rolls(result)[0].probability == Fraction(8, 10)
    assert "1/87 TB" in result.state.roster.mes


def test_a_side_not_under_armor_withdrawal_never_rolls():
    inputs, state = tank_battle().side("Russian", withdrawal=False).prepared()
    result = run(withdrawal, inputs, state, ScriptedDice())
    assert texts(result) == ["not under armor withdrawal: no rolls"]


def test_a_command_stand_on_foot_still_leaves_a_tank_only_me():
    inputs, state = tank_battle().me("2/87 TB", "Russian", "A", "Tank company", command("R-HQ-1"),
                                     afv("R-T70-1", "T-70"), afv("R-T70-2", "T-70")) \
        .result("R-T70-2", "Knocked out", ends_in="Own lines").prepared()
    result = run(withdrawal, inputs, state, ScriptedDice(at(("withdrawal", "Russian", "1/87 TB"), 5),
                                                         at(("withdrawal", "Russian", "2/87 TB"), 5)))
    assert len(rolls(result)) == 2


def test_infantry_with_attached_afv_or_halftracks_does_not_roll():
    campaign = (Campaign()
                .me("1/1378 RR", "Russian", "I", "Rifle company", troops("R-1RR-1"), afv("R-SU76-1", "SU-76"))
                .me("3/87 MB", "Russian", "A", "Motorised company", afv("R-T34-9"), soft("R-HT-1", "M3 halftrack"))
                .result("R-SU76-1", "Knocked out", ends_in="Own lines")
                .result("R-T34-9", "Knocked out", ends_in="Own lines"))
    inputs, state = campaign.prepared()
    result = run(withdrawal, inputs, state, ScriptedDice())
    assert texts(result, "1/1378 RR") == ["not a tank/tank-destroyer-only ME: no roll"]
    assert texts(result, "3/87 MB") == ["not a tank/tank-destroyer-only ME: no roll"]


def test_an_isolated_me_does_not_roll():
    inputs, state = tank_battle().result("R-T34-1", situation="Isolated").result("R-T34-3", situation="Cut off").prepared()
    result = run(withdrawal, inputs, state, ScriptedDice())
    assert texts(result, "1/87 TB") == ["isolated: no roll"]


def test_a_partly_isolated_me_still_rolls():
    inputs, state = tank_battle().result("R-T34-1", situation="Isolated").prepared()
    assert rolls(run(withdrawal, inputs, state, ScriptedDice(9)))


def test_an_me_that_lost_no_afv_does_not_roll():
    inputs, state = (Campaign()
                     .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T34-1"), afv("R-T34-2"))
                     .result("R-T34-2", "Panicked").prepared())
    assert run(withdrawal, inputs, state, ScriptedDice()).entries == ()


def test_the_wrecks_of_a_withdrawn_me_leave_and_enemy_removal_orders_on_them_cost_nothing():
    campaign = (tank_battle()
                .me("2/57 Pio", "German", "E", "Pioneer platoon", engineers("G-Pio-1"), engineers("G-Pio-2"),
                    engineers("G-Pio-3"))
                .spend("German", removal("R-T34-2")))
    inputs, state = campaign.prepared()
    state = run(withdrawal, inputs, state, ScriptedDice(at(("withdrawal", "Russian", "1/87 TB"), 1))).state
    assert texts(run(withdrawal, inputs, campaign.prepared()[1], ScriptedDice(1)), "R-T34-2") == [
        "wreck (enemy lines) leaves with its withdrawn ME"]
    after = run(casualties, inputs, state, ScriptedDice())  # no removal roll
    assert texts(after, "R-T34-2") == ["left the campaign with its withdrawn ME (2.1.1.2): no attempt, no FPP spent"]
    assert ledger(after.state, "German", "FPP") == []
    assert rolls(run(fpp, inputs, after.state, ScriptedDice())) == []  # nor taken for a fortification
