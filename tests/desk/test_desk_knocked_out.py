"""The Knocked Out Vehicle Table (house rules 8) as an option of the Battlefront refit."""
import dataclasses
import datetime as dt

import pytest

from automation.campaign.model import CampaignDate, Dice, Part
from automation.engine.dice import CampaignKey, DiceKind
from automation.rulebook import load_rulebook
from automation.steps.bf import knocked_out as ko
from automation.steps.bf.state import (
    ME, BFInputs, BFState, Ledger, Roster, SideInfo, Stand, StandResult, Status,
)
from desk_helpers import ScriptedDice


@dataclasses.dataclass(frozen=True)
class NotedResult(StandResult):
    """A Results row with its Notes (the field the Results adapter is asked to pass on)."""

    notes: str = ""


def stand(sid, side="German", type_="Pz IV", kind="AFV", me="A1", status=Status.WRECK, notes=""):
    return Stand(sid, side, me, type_, kind, "Veteran", status=status, wreck_lines="Own lines", notes=notes)


def setup(stands, results, day=dt.date(1944, 7, 10), russian="Russian", option="Yes"):
    mes = {m: ME(m, s.side, "A", "Tank") for s in stands for m in [s.me]}
    prev = CampaignDate("Jul 10", day, Part.FULL_DAY, 0)
    date = CampaignDate("Jul 11", day + dt.timedelta(days=1), Part.FULL_DAY, 1)
    sides = (SideInfo("German", "German", 10, 0, False), SideInfo("Soviet", russian, 10, 0, False))
    inputs = BFInputs(date, prev, sides, (prev, date), {}, {}, {}, ("Raw", "Trained", "Veteran"), {},
                      {ko.SETTING: option}, {r.stand: r for r in results}, {}, {})
    return BFState(Roster(mes, tuple(stands)), Ledger({}, {})), inputs


def ko_result(sid, side="German", by="Direct fire", notes=""):
    return NotedResult(side, sid, "Knocked out", by, notes=notes)


def test_the_option_is_off_unless_the_campaign_says_yes():
    state, inputs = setup([stand("G1")], [ko_result("G1")], option="No")
    dice = ScriptedDice(10)
    result = ko.run(state, inputs, dice)
    assert result.entries == () and dice.rolls == [] and result.state == state


@pytest.mark.parametrize("die, burn", [(8, "fierce"), (6, "smoke"), (7, "smoke"), (5, "none"), (1, "none")])
def test_the_bands_burn_fiercely_on_8_smoke_on_6_7_and_do_not_burn_on_5_or_less(die, burn):
    state, inputs = setup([stand("G1")], [ko_result("G1")])
    result = ko.run(state, inputs, ScriptedDice(die))
    assert result.entries[0].roll.effect["burn"] == burn


def test_burning_fiercely_takes_the_wreck_off_the_roster_so_repair_never_sees_it():
    state, inputs = setup([stand("G1"), stand("G2", status=Status.AVAILABLE)], [ko_result("G1")])
    result = ko.run(state, inputs, ScriptedDice(9))
    assert result.state.roster.stand("G1") is None and result.state.roster.stand("G2") is not None
    assert result.entries[0].text == "Burns fiercely: irreparable, crew killed; the wreck leaves the roster"


def test_smoking_keeps_a_repairable_wreck_marked_with_half_its_crew_lost():
    state, inputs = setup([stand("G1", notes="Ace")], [ko_result("G1")])
    result = ko.run(state, inputs, ScriptedDice(6))
    g1 = result.state.roster.stand("G1")
    assert g1.status is Status.WRECK and g1.notes == "Ace; KO Jul 10: smoked, extensive repair, half crew lost"


def test_not_burning_keeps_a_recoverable_wreck_with_its_crew():
    state, inputs = setup([stand("G1")], [ko_result("G1")])
    result = ko.run(state, inputs, ScriptedDice(3))
    assert result.state.roster.stand("G1").notes == "KO Jul 10: no fire, crew safe"


def modifiers(stands, results, die=5, **kw):
    state, inputs = setup(stands, results, **kw)
    result = ko.run(state, inputs, ScriptedDice(*[die] * len(results)))
    return [{m.id: m.value for m in e.roll.modifiers} for e in result.entries if e.roll]


def test_indirect_fire_and_close_combat_take_one_off():
    assert modifiers([stand("G1"), stand("G2")], [ko_result("G1", by="Indirect fire"), ko_result("G2", by="Close combat")]) \
        == [{"idf_or_close_combat": -1}, {"idf_or_close_combat": -1}]


def test_soft_small_and_fire_suppression_each_take_one_off():
    truck = stand("G1", type_="Opel truck", kind="Soft vehicle", status=Status.AVAILABLE, notes="small")
    modern = stand("G2", type_="Leopard", notes="fire suppression")
    assert modifiers([truck, modern], [ko_result("G1"), ko_result("G2")]) == [
        {"soft": -1, "small": -1}, {"fire_suppression": -1}]


def test_large_calibre_comes_from_the_results_notes():
    assert modifiers([stand("G1")], [ko_result("G1", notes="88mm+; flank shot")]) == [{"large_calibre": 1}]


def test_prone_to_burn_panther_russian_tank_and_shermans_by_date():
    stands = [stand("G1", type_="Panther A"), stand("S1", side="Soviet", type_="T-34/76", me="A2"),
              stand("S2", side="Soviet", type_="M4A2 Sherman", me="A2"),
              stand("S3", side="Soviet", type_="Valentine", me="A2", notes="lend-lease")]
    results = [ko_result("G1"), ko_result("S1", "Soviet"), ko_result("S2", "Soviet"), ko_result("S3", "Soviet")]
    assert modifiers(stands, results) == [{"panther": 1}, {"russian_tank": 1}, {"sherman": 1}, {}]
    early = modifiers(stands[2:3], results[2:3], day=dt.date(1943, 12, 31))
    assert early == [{"sherman_pre_1944": 2}]


def test_a_prone_tag_overrides_the_stand_type():
    assert modifiers([stand("G1", type_="Panther D", notes="prone: none")], [ko_result("G1")]) == [{}]
    assert modifiers([stand("G1", type_="Jumbo", notes="prone: sherman")], [ko_result("G1")],
                     day=dt.date(1943, 5, 1)) == [{"sherman_pre_1944": 2}]


def test_a_result_rolled_at_the_table_is_used_without_a_roll():
    state, inputs = setup([stand("G1")], [ko_result("G1", notes="ko table: fierce")])
    dice = ScriptedDice()
    result = ko.run(state, inputs, dice)
    assert dice.rolls == [] and result.state.roster.stand("G1") is None


def test_soft_vehicles_roll_but_leave_the_roster_whatever_the_result():
    truck = stand("G1", type_="Opel truck", kind="Soft vehicle", status=Status.AVAILABLE)
    state, inputs = setup([truck], [ko_result("G1")])
    result = ko.run(state, inputs, ScriptedDice(2))
    assert [e.text for e in result.entries][1] == "not kept as a wreck: leaves the roster whatever the result"
    assert result.state.roster.stand("G1") == truck  # the casualties step removes it


def test_abandoned_vehicles_are_not_destroyed_and_do_not_roll():
    state, inputs = setup([stand("G1")], [NotedResult("German", "G1", "Abandoned")])
    dice = ScriptedDice()
    assert ko.run(state, inputs, dice).entries == () and dice.rolls == []


def test_the_real_campaign_dice_roll_the_house_table_under_a_dated_label():
    bf = load_rulebook().systems["bf-campaign"]
    dice = Dice(CampaignKey.from_text("k"), bf, "Jul 11")
    state, inputs = setup([stand("G1")], [ko_result("G1")])
    entry = ko.run(state, inputs, dice).entries[0]
    assert entry.roll.label == "Jul 11/knocked-out/German/G1" and entry.roll.table_id == "house.ko_vehicle"
    expected = CampaignKey.from_text("k").throw(DiceKind.D10, dice.label("knocked-out", "German", "G1"))
    assert entry.roll.dice == expected
