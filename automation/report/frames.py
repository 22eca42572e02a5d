"""The report's tables as pandas frames: strength, economy and losses over
time, every roll, and the dice statistics against the exact odds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from automation.pbem import stats as dice_stats
from automation.report.fit import Fit, fit
from automation.report.model import CampaignData

START_DATES = ("Start",)  # the roster a campaign starts from (Roster Start, Units Start)
ROLL_COLUMNS = ("Date", "Side", "Subject", "Table", "Step", "Rule", "Dice", "Natural", "Modifiers", "DRM", "Final",
                "Result", "Odds", "Report sheet", "Label")


def measure_frame(data: CampaignData, groups: tuple[str, ...]) -> pd.DataFrame:
    """Dates down, (side, group, item) across; dates in campaign order."""
    records = [{"Date": m.date, "Side": m.side, "Group": m.group, "Item": m.item, "Value": m.value}
               for m in data.measures if m.group in groups]
    if not records:
        return pd.DataFrame()
    frame = pd.DataFrame.from_records(records)
    wide = frame.pivot_table(index="Date", columns=["Side", "Group", "Item"], values="Value", aggfunc="last")
    extra = [d for d in wide.index if d not in data.dates]
    before = [d for d in extra if d in START_DATES]
    order = before + [d for d in data.dates if d in wide.index] + [d for d in extra if d not in before]
    return wide.reindex(order)


def display(frame: pd.DataFrame) -> pd.DataFrame:
    """Whole numbers shown as such, gaps as a dash."""
    return frame.map(lambda v: "-" if pd.isna(v) else (f"{int(v):,}" if float(v).is_integer() else f"{v:,.2f}"))


def rolls_frame(data: CampaignData) -> pd.DataFrame:
    rows = [{"Date": r.date, "Side": r.side, "Subject": r.subject, "Table": r.table, "Step": r.step, "Rule": r.rule,
             "Dice": r.dice, "Natural": _whole(r.natural), "Modifiers": r.modifiers, "DRM": _whole(r.drm),
             "Final": _whole(r.final), "Result": r.result, "Odds": r.odds, "Report sheet": r.sheet, "Label": r.label,
             "Physical": r.physical}
            for r in data.rolls]
    return pd.DataFrame.from_records(rows, columns=list(ROLL_COLUMNS) + ["Physical"])


def _whole(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return "" if v is None else v


@dataclass(frozen=True)
class TableFit:
    side: str
    table_id: str
    title: str
    rule: str
    column: str
    frame: pd.DataFrame  # Result, Observed, Expected, Observed %, Expected %
    fit: Fit


@dataclass(frozen=True)
class FacesFit:
    side: str
    die: int
    frame: pd.DataFrame  # Face, Observed, Expected
    fit: Fit


@dataclass(frozen=True)
class DiceStats:
    tables: list[TableFit]
    faces: list[FacesFit]
    left_out: list[str]

    @property
    def tests(self) -> int:
        return sum(1 for t in self.tables if t.fit.p_value is not None) + sum(
            1 for f in self.faces if f.fit.p_value is not None)


def dice_statistics(data: CampaignData, physical: bool) -> DiceStats:
    """Per side and table (and per side and die), observed against the exact
    odds, for keyed rolls or, with ``physical``, for the physical dice."""
    chosen = [r.source for r in data.rolls if r.physical == physical and r.source is not None]
    found = dice_stats.collect(chosen, data.system)
    tables = []
    for t in found.tables:
        labels = [rc.result for rc in t.results]
        observed = [rc.observed for rc in t.results]
        expected = [float(rc.expected) for rc in t.results]
        frame = pd.DataFrame({"Result": labels, "Observed": observed, "Expected": expected})
        frame["Observed %"] = frame["Observed"] / max(t.rolls, 1) * 100
        frame["Expected %"] = frame["Expected"] / max(t.rolls, 1) * 100
        tables.append(TableFit(t.side, t.table_id, t.title, t.rule, t.column, frame, fit(labels, observed, expected)))
    faces = []
    for d in found.dice:
        labels = [str(i + 1) for i in range(d.die)]
        each = d.rolls / d.die
        frame = pd.DataFrame({"Face": labels, "Observed": list(d.faces), "Expected": [each] * d.die})
        faces.append(FacesFit(d.side, d.die, frame, fit(labels, list(d.faces), [each] * d.die, unit="die")))
    return DiceStats(tables, faces, list(found.unreadable))
