"""Campaign rule systems the refit knows, each as a :class:`CampaignSystem`.

A system supplies: the sheets a new campaign starts with, the lists its
dropdowns offer, how to read a workbook into its inputs and state, its steps,
and the sheets a run appends. The service runs any of them the same way.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from automation.campaign.model import Dice, RefitRun
from automation.engine.tables import RuleSystem


class BookSource(Protocol):
    """What a refit reads a workbook through: the file adapter
    (automation.workbook.reader.Workbook) is one; the Excel and Calc buttons run the
    command line's file functions, so they read through it too."""

    path: Any
    gate: Any  # the checked bytes it read (automation.workbook.gate.Gate), which a refit's batch is appended to
    sheet_names: list[str]

    def has(self, name: str) -> bool: ...
    def raw(self, name: str) -> list[list[Any]]: ...
    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[Any]: ...
    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]: ...


@dataclass(frozen=True)
class CampaignSystem:
    id: str
    starting_sheets: Callable[[RuleSystem], list[Any]]
    default_lists: Callable[[RuleSystem], dict[str, list[str]]]
    load: Callable[[BookSource, RuleSystem, dict[str, Any]], tuple[Any, Any]]
    refit: Callable[[Any, Any, Dice], RefitRun[Any]]
    sheets_for: Callable[[RefitRun[Any], Any, BookSource, dict[str, list[str]]], list[Any]]
    date_of: Callable[[Any], str]
    side_names: Callable[[Any], tuple[str, ...]]


def _bf() -> CampaignSystem:
    from automation.steps.bf import pipeline
    from automation.workbook import bf_adapter, bf_output, bf_start

    return CampaignSystem(
        "bf-campaign", bf_start.bf_starting_sheets, bf_start.bf_default_lists,
        bf_adapter.load, pipeline.refit, bf_output.sheets_for,
        lambda inputs: inputs.date.label, lambda inputs: inputs.side_names,
    )


def _abtf() -> CampaignSystem:
    from automation.steps.abtf import pipeline
    from automation.workbook import abtf_adapter, abtf_output

    return CampaignSystem(
        "asl-abtf", abtf_output.starting_sheets, abtf_adapter.default_lists, abtf_adapter.load, pipeline.refit,
        abtf_output.sheets_for, lambda inputs: inputs.date.label, lambda inputs: inputs.side_names,
    )


FACTORIES: dict[str, Callable[[], CampaignSystem]] = {"bf-campaign": _bf, "asl-abtf": _abtf}


def campaign_system(system_id: str) -> CampaignSystem | None:
    factory = FACTORIES.get(system_id)
    return factory() if factory else None


def campaign_system_ids() -> tuple[str, ...]:
    return tuple(FACTORIES)
