"""Shared fixture and helpers of the ABtF table tests."""
from __future__ import annotations

from fractions import Fraction as F

import pytest

from automation.engine.resolver import Situation, odds, resolve
from automation.errors import UsageError
from automation.rulebook import load_rulebook


@pytest.fixture(scope="module")
def abtf():
    return load_rulebook().system("asl-abtf")


def table(system, name):
    return system.table(f"abtf.{name}")


def chart(system, name):
    return system.charts[f"abtf.{name}"]


def bands(t, column=None):
    column = column or t.columns[0]
    return [(b.low, b.high, b.results[column]) for b in t.bands]


def mods(t):
    return {m.id: m for m in t.modifiers}


def chance(t, result, column=None, drm=0):
    return sum((o.probability for o in odds(t, column, drm) if o.result == result), F(0))


