"""The sheets and lists a new Battlefront: WWII campaign starts with."""
from __future__ import annotations

from automation.engine.tables import RuleSystem
from automation.workbook import bf_sheets
from automation.workbook.columns import START
from automation.workbook.content import SheetContent


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
