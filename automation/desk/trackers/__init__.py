"""The trackers the desk keeps up to date, one module each (docs/trackers.md)."""
from __future__ import annotations

from automation.desk.trackers import dumps, engineering, ending, fire, foo, greif, intensive, saturation
from automation.desk.trackers.base import Tracker

TRACKERS: dict[str, Tracker] = {t.id: t for t in (
    greif.TRACKER, dumps.TRACKER, intensive.TRACKER, saturation.TRACKER, ending.TRACKER,
    engineering.TRACKER, foo.TRACKER, fire.TRACKER,
)}

__all__ = ["TRACKERS", "Tracker"]
