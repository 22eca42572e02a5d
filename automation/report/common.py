"""Reading helpers both rule systems' extractors share."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from automation.pbem.reports import Header, as_int
from automation.report.model import Category, Event, Measure
from automation.report.source import DatedSheet, Source, report_lines, visible, where

NUMBER = re.compile(r"-?\d+")


def event(sheet: DatedSheet, h: Header, i: int, row: list[Any], category: Category, text: str | None = None,
          side: str | None = None) -> Event:
    return Event(sheet.date, str(h.get(row, "Side") or "") if side is None else side, category,
                 str(h.get(row, "Rule") or ""), str(h.get(row, "Subject") or ""),
                 text if text is not None else str(h.get(row, "Result") or ""), where(sheet.name, h, "Result", i))


def lines(source: Source) -> Iterable[tuple[DatedSheet, Header, int, list[Any]]]:
    """Every visible line of every report, in workbook order."""
    for sheet in source.reports():
        for h, i, row in report_lines(source, sheet):
            if visible(h, row, source.viewer):
                yield sheet, h, i, row


def is_roll(h: Header, row: list[Any]) -> bool:
    return bool(h.get(row, "Label")) and bool(h.get(row, "Table"))


def number(value: Any) -> float | None:
    n = as_int(value)
    if n is not None:
        return float(n)
    if isinstance(value, float):
        return value
    return None


def losses_from_events(events: list[Event], item: str) -> list[Measure]:
    """One 'losses' measure per date and side: the story's Lost lines."""
    counts: dict[tuple[str, str], tuple[int, str]] = {}
    for e in events:
        if e.category is Category.LOST and e.side:
            n, first = counts.get((e.date, e.side), (0, e.where))
            counts[(e.date, e.side)] = (n + 1, first)
    return [Measure(d, s, "losses", item, float(n), w) for (d, s), (n, w) in counts.items()]


def table_rows(source: Source, name: str) -> tuple[Header, list[tuple[int, list[Any]]]]:
    rows = source.rows(name)
    if not rows:
        return Header({}), []
    return Header.of(rows[0]), [(i, r) for i, r in enumerate(rows[1:], start=2)]
