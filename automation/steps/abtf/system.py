"""The ABtF campaign as a CampaignSystem: the registry in automation.systems
finds it here (campaign_system) and the service runs it like any other."""
from __future__ import annotations

from typing import Any


def campaign_system() -> Any:
    """automation.systems.CampaignSystem for rule system asl-abtf (seed 003)."""
    from automation.steps.abtf import pipeline
    from automation.systems import CampaignSystem
    from automation.workbook import abtf_adapter, abtf_output

    return CampaignSystem(
        "asl-abtf", abtf_output.starting_sheets, abtf_adapter.default_lists, abtf_adapter.load, pipeline.refit,
        abtf_output.sheets_for, lambda inputs: inputs.date.label, lambda inputs: inputs.side_names,
    )
