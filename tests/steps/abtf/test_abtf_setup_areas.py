"""9.605-9.6053: Block Control, forfeiture and Isolated units, with the Block C
example of 9.6053 built by hand."""
from __future__ import annotations

import pytest

from automation.errors import WorkbookError
from automation.steps.abtf import setup_areas
from tests.support.abtf import ScriptedDice, block, entry_area, inputs, line, state, texts, unit

# Block C under British Control; the Germans hold every Location but hex n (9.6053 EX).
BLOCK_C = [block("C", "British", "C3", "C5", "C6", "n"), block("F", "German", "F3"), block("R", None),
           entry_area("East Entry", "German"), block("D", "British", "D1")]


def block_c_end():
    return state(
        unit("B-3", cls="HS", strength="3-3-8", area="C", location="n"),
        unit("B-L1", cls="Leader", strength="7-0", area="C", location="n", status="Wounded"),
        unit("G-1", side="German", strength="6-5-8", area="C", location="C3"),
        unit("G-L1", side="German", cls="Leader", strength="8-1", area="C", location="C3", holder="G-1"),
        unit("G-2", side="German", strength="4-6-7", area="C", location="C6"),
        unit("G-MMG", side="German", cls="SW", strength=None, area="C", location="C6", holder="G-2", pp=4),
        unit("G-V1", side="German", cls="Vehicle", strength=None, area="C", location="C5", vehicle="CT AFV",
             morale_override=8, status="Immobile"),
        unit("G-V1-MA", side="German", cls="Vehicular weapon", strength=None, area="C", location="C5", holder="G-V1"),
        areas=BLOCK_C)


BLOCK_C_UMPIRE = [line("Location control", "C3", "German"), line("Location control", "C5", "German", row=3),
                  line("Location control", "C6", "German", row=4), line("Retain", "C3", area="F", row=5),
                  line("Retain", "C6", area="East Entry", row=6), line("Retain", "G-V1", area="F", row=7)]


def test_the_block_c_example_keeps_block_c_british_and_retains_the_germans():
    result = setup_areas.run(block_c_end(), inputs(umpire=BLOCK_C_UMPIRE), ScriptedDice())
    after = result.state
    assert after.areas["C"].controller == "British"
    assert "no side Controls all its Strategic Locations (C3: German; C5: German; C6: German; n: British)" in texts(result, "C")[0]
    assert (after.unit("G-1").area, after.unit("G-1").location) == ("F", None)
    assert after.unit("G-L1").area == "F" and after.unit("G-2").area == "East Entry"
    assert after.unit("G-MMG").area == "East Entry" and after.unit("G-MMG").holder == "G-2"
    ivl = after.unit("G-V1")
    assert ivl.has("Abandoned") and (ivl.area, ivl.location) == ("C", "C5")
    assert after.unit("G-V1 crew").area == "F" and after.unit("G-V1 crew").morale == 8
    assert after.unit("B-3").area == "C" and after.unit("B-L1").area == "C"
    assert not after.escaping


def test_a_block_changes_hands_when_one_side_controls_all_its_strategic_locations():
    given = inputs(umpire=BLOCK_C_UMPIRE + [line("Location control", "n", "German", row=8)])
    end = block_c_end().drop(["B-3", "B-L1"])
    result = setup_areas.run(end, given, ScriptedDice())
    assert result.state.areas["C"].controller == "German"
    assert result.state.unit("G-1").area == "C" and result.state.unit("G-V1").status == frozenset({"Immobile"})


def test_forfeiture_gives_the_block_to_the_side_whose_armed_mmc_hold_a_strategic_location_alone():
    end = state(unit("G-1", side="German", strength="6-5-8", area="C", location="C3"),
                unit("B-L1", cls="Leader", strength="7-0", area="C", location="n"), areas=BLOCK_C)
    result = setup_areas.run(end, inputs(umpire=[line("Retain", "n", area="D")]), ScriptedDice())
    assert result.state.areas["C"].controller == "German"
    assert "forfeiture (9.6051): G-1 hold a Strategic Location" in texts(result, "C")[0]
    assert result.state.unit("B-L1").area == "D"  # a leader is no MMC: now Isolated, he is Retained


def test_an_unarmed_or_crew_mmc_does_not_take_a_block_by_forfeiture():
    end = state(unit("G-C", side="German", cls="Crew", strength="2-2-8", area="C", location="C3"),
                unit("G-9", side="German", strength="4-6-7", area="C", location="C5", status="Unarmed"), areas=BLOCK_C)
    given = inputs(umpire=[line("Retain", "C3", area="F"), line("Retain", "C5", area="F", row=3)])
    assert setup_areas.run(end, given, ScriptedDice()).state.areas["C"].controller == "British"


def test_a_block_without_strategic_locations_is_never_controlled():
    result = setup_areas.run(state(areas=[block("R", None)]), inputs(), ScriptedDice())
    assert result.state.areas["R"].controller is None and "never Controlled" in texts(result, "R")[0]


def test_an_isolated_unit_without_a_retain_or_escape_entry_waits_for_the_umpire():
    result = setup_areas.run(block_c_end(), inputs(umpire=BLOCK_C_UMPIRE[:3]), ScriptedDice())
    assert result.waiting is not None and result.waiting.who == "Umpire" and "G-1 of the German" in result.waiting.what


def test_an_escape_entry_sends_the_unit_to_9_6054_with_its_hexes():
    given = inputs(umpire=BLOCK_C_UMPIRE[:4] + [line("Escape", "C6", area="F", hexes=3, row=6),
                                                 line("Retain", "G-V1", area="F", row=7)])
    after = setup_areas.run(block_c_end(), given, ScriptedDice()).state
    assert after.escaping["G-2"].hexes == 3 and after.unit("G-2").area == "C"


def test_an_immobile_vehicle_in_uncontrolled_territory_stays_where_it_is():
    end = state(unit("G-V1", side="German", cls="Vehicle", strength=None, area="R", location="R2", vehicle="CT AFV",
                     status="Immobile"), areas=BLOCK_C)
    result = setup_areas.run(end, inputs(), ScriptedDice())
    assert result.state.unit("G-V1").status == frozenset({"Immobile"}) and "stays in its Location and VCA" in texts(result, "G-V1")[0]


def test_retaining_into_an_area_that_is_not_friendly_names_the_cell():
    given = inputs(umpire=BLOCK_C_UMPIRE[:3] + [line("Retain", "C3", area="D", row=5)])
    with pytest.raises(WorkbookError, match=r"Umpire 19AM!D5: Retain: 'D' is not a Friendly Setup Area or Eligible Entry "
                                            r"Area of the German; valid: F, East Entry"):
        setup_areas.run(block_c_end(), given, ScriptedDice())


def test_control_of_a_location_that_is_not_strategic_is_refused():
    with pytest.raises(WorkbookError, match=r"Umpire 19AM!B2: Location control: 'C9' is not a Strategic Location"):
        setup_areas.run(block_c_end(), inputs(umpire=[line("Location control", "C9", "German")]), ScriptedDice())


def test_a_strategic_location_created_in_play_counts_for_control():
    given = inputs(umpire=[line("Strategic Location", "R5", "German", area="R")])
    end = state(areas=[block("R", None)])
    after = setup_areas.run(end, given, ScriptedDice()).state
    assert after.areas["R"].strategic == ("R5",) and after.areas["R"].controller == "German"
