"""Which sheets a new campaign of each rule system starts with."""
from __future__ import annotations

from typing import Any

from automation.engine.tables import RuleSystem
from automation.workbook.bf_start import bf_default_lists, bf_starting_sheets  # noqa: F401  (re-exported)
from automation.workbook.columns import START  # noqa: F401  (re-exported)
from automation.workbook.content import SheetContent

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
