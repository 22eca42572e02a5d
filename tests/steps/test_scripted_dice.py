"""The scripted dice used by the step tests behave like the real Dice: same
interface, the real resolver and tables, labels checked when asked to."""
from __future__ import annotations

from fractions import Fraction

import pytest

from automation.campaign.model import Dice
from automation.engine.dice import CampaignKey, DiceKind
from automation.engine.resolver import Situation
from tests.support.dice import ScriptedDice, at, bf_system, faces_for


def test_a_scripted_natural_goes_through_the_real_table_and_its_modifiers():
    dice = ScriptedDice(7)
    result = dice.roll("bf.cpp_replenishment", ("cpp", "German"), Situation.of("attacked_at_night", historical_drm=2))
    # 7 + 2 historical - 5 night = 4: the 3-4 band gives +10 CPP
    assert (result.natural, result.final, result.result, result.effect["cpp"]) == (7, 4, "+10", 10)
    assert result.probability == Fraction(2, 10)
    assert result.label == "Dec 24/cpp/German"


def test_labels_are_checked_when_the_script_names_them():
    dice = ScriptedDice(at("cpp/German", 7))
    with pytest.raises(AssertionError, match="scripted for cpp/German but bf.cpp_replenishment asked for cpp/Russian"):
        dice.roll("bf.cpp_replenishment", ("cpp", "Russian"))


def test_asking_for_more_rolls_than_scripted_fails():
    dice = ScriptedDice()
    with pytest.raises(AssertionError, match="no scripted throw left for bf.armor_repair repair/German/G-Pz-2"):
        dice.roll("bf.armor_repair", ("repair", "German", "G-Pz-2"))


def test_unused_throws_fail_the_test():
    dice = ScriptedDice(3, 4)
    dice.roll("bf.armor_withdrawal", ("withdrawal", "Russian", "1/87 TB"))
    with pytest.raises(AssertionError, match="1 scripted throw"):
        dice.assert_used_up()


def test_percentile_naturals_read_as_the_tens_and_ones_dice():
    for natural in (1, 5, 10, 37, 40, 99, 100):
        assert DiceKind.D100.total(faces_for(DiceKind.D100, natural)) == natural


def test_the_real_dice_use_the_same_labels_as_the_double():
    real = Dice(CampaignKey.from_text("k"), bf_system(), "Dec 24")
    result = real.roll("bf.armor_repair", ("repair", "German", "G-Pz-2"))
    assert result.label == ScriptedDice(1).roll("bf.armor_repair", ("repair", "German", "G-Pz-2")).label
