"""2.1.1.7 Choose forces: the RG chart's scenario maximum limits how many MEs
of an RG a side deploys in one scenario, its groups still isolated on the map
included; the next refit checks each side's Forces sheet before anything else."""
from __future__ import annotations

from dataclasses import replace

import pytest

from automation.errors import WorkbookError
from automation.steps.bf import forces
from automation.steps.bf.state import Deployment, Ref, Situation, Status
from tests.support.bf import Campaign, afv, aircraft, command, oba, run, texts, troops, wreck


def germans() -> Campaign:
    return (Campaign()
            .rg("German", "I1", cpp=8, scenario_max=2, campaign_max=4, stands="Panzergrenadier x6")
            .rg("German", "O3", "OBA", cpp=6, scenario_max=2, campaign_max=4)
            .rg("German", "F1", "Aircraft", cpp=5, scenario_max=1, campaign_max=3)
            .me("4/114 PzG", "German", "I", "Panzergrenadier company", command("G-A1"), troops("G-A2"), rg="I1")
            .me("I1-2", "German", "I", "Panzergrenadier company", troops("G-B1"), troops("G-B2"), rg="I1")
            .me("I1-3", "German", "I", "Panzergrenadier company", troops("G-C1"), troops("G-C2"), rg="I1")
            .me("II/11 Pz", "German", "A", "Panzer company", wreck("G-Pz-1"), wreck("G-Pz-2"))
            .me("O3-1", "German", "O", "Medium artillery battalion", oba("O3-1 OBA"), rg="O3")
            .me("F1-1", "German", "F", "Stuka flight", aircraft("F1-1 Aircraft"), rg="F1")
            .me("1/87 TB", "Russian", "A", "Tank company", afv("R-T1"), discipline="Trained"))


def chose(campaign: Campaign, side: str, *mes: str):
    inputs, state = campaign.build()
    sheet = f"Forces {inputs.previous.label} {side}"
    rows = tuple(Deployment(me, Ref(sheet, f"A{i}")) for i, me in enumerate(mes, start=2))
    return replace(inputs, forces={**inputs.forces, side: rows}), state


def refused(inputs, state) -> list[str]:
    with pytest.raises(WorkbookError) as err:
        run(forces, inputs, state)
    return [str(p) for p in err.value.problems]


def test_2_1_1_7_three_mes_of_an_rg_with_a_scenario_maximum_of_2_are_refused_at_the_third():
    inputs, state = chose(germans(), "German", "4/114 PzG", "I1-2", "I1-3", "O3-1")
    assert refused(inputs, state) == [
        "Forces Dec 23 German!A4: Forces: 3 MEs of RG I1 in one scenario (4/114 PzG, I1-2, I1-3); the RG chart's "
        "scenario maximum is 2, so at most 2 may be chosen (2.1.1.7)"]


def test_2_1_1_7_two_of_three_owned_is_a_valid_choice_rotating_the_third():
    inputs, state = chose(germans(), "German", "I1-2", "I1-3", "O3-1", "F1-1")
    result = run(forces, inputs, state)
    assert texts(result, "German") == [
        "4 ME(s) chosen on Forces Dec 23 German, within the RG chart's scenario maximums: I1-2, I1-3, O3-1, F1-1"]
    assert result.state == state


def test_2_1_1_7_a_group_isolated_on_the_map_counts_against_the_scenario_maximum():
    campaign = germans().stand_is("G-C1", situation=Situation.ISOLATED)
    inputs, state = chose(campaign, "German", "4/114 PzG", "I1-2")
    assert refused(inputs, state) == [
        "Forces Dec 23 German!A3: Forces: 3 MEs of RG I1 in one scenario (4/114 PzG, I1-2; isolated on the map: "
        "I1-3); the RG chart's scenario maximum is 2, so at most 1 may be chosen (2.1.1.7)"]
    inputs, state = chose(campaign, "German", "4/114 PzG", "I1-3")  # naming the isolated ME itself
    assert run(forces, inputs, state).state == state


def test_2_1_1_7_only_the_sides_own_mes_with_a_stand_available_once_each():
    inputs, state = chose(germans(), "German", "1/87 TB", "II/11 Pz", "O3-1", "O3-1")
    assert refused(inputs, state) == [
        "Forces Dec 23 German!A2: Forces: '1/87 TB' is not an ME of German on the roster; valid: 4/114 PzG, F1-1, "
        "I1-2, I1-3, O3-1",
        "Forces Dec 23 German!A3: Forces: II/11 Pz has no stand available (wrecks are not deployed until repaired, "
        "2.1.1.3.1 item 5); valid: 4/114 PzG, F1-1, I1-2, I1-3, O3-1",
        "Forces Dec 23 German!A5: Forces: O3-1 is already chosen at A4; one row per ME"]


def test_2_1_1_4_2_air_support_is_not_chosen_for_a_night_scenario():
    campaign = germans().dated(("Dec 23 N", "1942-12-23", "Night"), ("Dec 24", "1942-12-24", "Full day"), today="Dec 24")
    inputs, state = chose(campaign, "German", "F1-1")
    assert refused(inputs, state) == [
        "Forces Dec 23 N German!A2: Forces: F1-1 is air support, which may not be used at night (2.1.1.4.2)"]


def test_no_forces_sheet_checks_nothing_and_after_both_defended_none_is_read():
    inputs, state = germans().build()
    assert run(forces, inputs, state).entries == ()
    inputs, state = chose(germans().both_defended_last_time(), "German", "4/114 PzG", "I1-2", "I1-3")
    assert run(forces, inputs, state).entries == ()


def test_2_1_1_4_3_oba_modules_used_earlier_in_the_day_count_against_the_daily_maximum():
    days = (("Dec 23 AM", "1942-12-23", "Morning"), ("Dec 23 PM", "1942-12-23", "Afternoon"),
            ("Dec 24 AM", "1942-12-24", "Morning"))
    campaign = (germans().dated(*days, today="Dec 24 AM")
                .me("O3-2", "German", "O", "Medium artillery battalion", oba("O3-2 OBA", status=Status.USED), rg="O3")
                .me("O3-3", "German", "O", "Medium artillery battalion", oba("O3-3 OBA", status=Status.USED), rg="O3"))
    inputs, state = chose(campaign, "German", "O3-1")
    assert refused(inputs, state) == [
        "Forces Dec 23 PM German!A2: Forces: 3 MEs of RG O3 in one day (O3-1; used earlier today: O3-2, O3-3); "
        "the RG chart's scenario maximum is 2, so at most 0 may be chosen (2.1.1.7)"]
    inputs, state = chose(campaign, "German", "O3-2", "O3-3")  # the morning's two again in the afternoon
    assert run(forces, inputs, state).state == state
