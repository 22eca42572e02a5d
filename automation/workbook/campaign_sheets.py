"""Which sheets a new campaign of each rule system starts with."""
from __future__ import annotations

from typing import Any

from automation.engine.tables import RuleSystem
from automation.workbook import bf_sheets
from automation.workbook.template import SheetContent

START = "Start"  # the date label of the umpire's initial roster: "Roster Start"

# Charts of the rules that belong to one bundled scenario, not to every campaign of
# the system: a new campaign's Charts sheet leaves them out (its sample adds them).
SAMPLE_CHARTS: dict[str, tuple[str, ...]] = {"bf-campaign": ("bf.rostov_historical_drm",)}
# Systems whose campaigns name their own sides on a Sides sheet (A Bridge Too Far's
# sides are British and German by the rules: it has none).
SIDES_SHEET_SYSTEMS = ("bf-campaign",)


def sample_charts(system_id: str) -> tuple[str, ...]:
    return SAMPLE_CHARTS.get(system_id, ())


def uses_sides_sheet(system_id: str) -> bool:
    return system_id in SIDES_SHEET_SYSTEMS


def is_campaign_system(system_id: str) -> bool:
    from automation.systems import campaign_system_ids

    return system_id in campaign_system_ids()


def default_lists(system: RuleSystem) -> dict[str, list[str]]:
    from automation.systems import campaign_system

    cs = campaign_system(system.id)
    return cs.default_lists(system) if cs else {}


def default_sides(system: RuleSystem) -> list[list[Any]]:
    return []


def starting_sheets(system: RuleSystem) -> list[SheetContent]:
    from automation.systems import campaign_system

    cs = campaign_system(system.id)
    return cs.starting_sheets(system) if cs else []


def bf_default_lists(system: RuleSystem) -> dict[str, list[str]]:
    ladder = sorted(system.charts["bf.discipline_ladder"].rows, key=lambda r: r["Rank"])
    return {
        "discipline": [r["Rating"] for r in ladder],
        "me_class": list(bf_sheets.DEFAULT_LISTS["me_class"]),
        "stand_kind": list(bf_sheets.DEFAULT_LISTS["stand_kind"]),
    }


def bf_starting_sheets(system: RuleSystem) -> list[SheetContent]:
    return [
        SheetContent(bf_sheets.DATES, bf_sheets.DATES.title),
        SheetContent(bf_sheets.HISTORICAL_DRM, bf_sheets.HISTORICAL_DRM.title),
        SheetContent(bf_sheets.RG_CHART, bf_sheets.RG_CHART.title),
        SheetContent(bf_sheets.FP_CHART, bf_sheets.FP_CHART.title),
        SheetContent(bf_sheets.ROSTER, bf_sheets.ROSTER.name_for(date=START)),
        SheetContent(bf_sheets.REINFORCEMENTS, bf_sheets.REINFORCEMENTS.title),
    ]
