"""An honest test of fit of observed results against the engine's exact odds.

Pearson's chi-square over the table's results, with small cells pooled (in
the table's order, neighbours together) until every pooled cell expects at
least :data:`MIN_EXPECTED` rolls, as the test's approximation needs. The
p-value is the chi-square distribution's upper tail, computed here with the
regularised incomplete gamma function (series and continued fraction), so no
statistics library is needed.

The plain-words reading says how surprising the gap is for fair dice, and how
many rolls it would take to tell a die that is 10 points off on the table's
most likely result from a fair one (5% two-sided, 80% power).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

MIN_EXPECTED = 5.0
PLURAL = {"die": "dice"}
SHIFT = 0.10  # the bias the "rolls needed" figure is for: 10 percentage points
Z_ALPHA = 1.959963984540054  # two-sided 5%
Z_POWER = 0.8416212335729143  # 80% power


def _gamma_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= x / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gamma_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("df must be positive")
    if x <= 0:
        return 1.0
    a, half = df / 2.0, x / 2.0
    if half < a + 1:
        return max(0.0, 1.0 - _gamma_series(a, half))
    return min(1.0, _gamma_fraction(a, half))


def pool(observed: Sequence[float], expected: Sequence[float]) -> list[tuple[float, float, list[int]]]:
    """Neighbouring cells merged until each expects at least MIN_EXPECTED
    (a short tail joins the last cell). Cells expecting nothing are left out
    when nothing was observed in them."""
    cells: list[tuple[float, float, list[int]]] = []
    o_acc = e_acc = 0.0
    members: list[int] = []
    for i, (o, e) in enumerate(zip(observed, expected)):
        if e <= 0 and o == 0:
            continue
        o_acc, e_acc = o_acc + o, e_acc + e
        members.append(i)
        if e_acc >= MIN_EXPECTED:
            cells.append((o_acc, e_acc, members))
            o_acc = e_acc = 0.0
            members = []
    if members:
        if cells:
            o, e, m = cells.pop()
            cells.append((o + o_acc, e + e_acc, m + members))
        else:
            cells.append((o_acc, e_acc, members))
    return cells


@dataclass(frozen=True)
class Fit:
    rolls: int
    statistic: float | None  # None: too few rolls for any test
    df: int
    p_value: float | None
    cells: int  # cells after pooling
    needed: int  # rolls needed to tell a 10-point bias from fair dice
    likeliest: str  # the result that figure is about
    reading: str


def count(n: int, unit: str) -> str:
    """'1 roll', '32 rolls', '32 dice'."""
    return f"{n:,} {unit if n == 1 else PLURAL.get(unit, unit + 's')}"


def rolls_needed(p: float, shift: float = SHIFT) -> int:
    """Rolls to tell a result's true chance ``p`` from ``p`` +- ``shift``."""
    q = p + shift if p + shift <= 1 else p - shift
    n = ((Z_ALPHA * math.sqrt(p * (1 - p)) + Z_POWER * math.sqrt(q * (1 - q))) / shift) ** 2
    return max(1, math.ceil(n))


def odds_phrase(p: float) -> str:
    if p >= 0.5:
        return "more often than not"
    return f"about 1 time in {max(2, round(1 / p)):,}" if p > 0 else "almost never"


def fit(labels: Sequence[str], observed: Sequence[int], expected: Sequence[float], unit: str = "roll") -> Fit:
    """The test of fit of ``observed`` against ``expected`` counts (``unit``:
    what is counted, a roll of a table or one die's throw)."""
    rolls = int(sum(observed))
    shares = [e / rolls for e in expected] if rolls else [0.0 for _ in expected]
    best = max(range(len(labels)), key=lambda i: shares[i]) if labels else 0
    p_best = shares[best] if labels else 0.0
    needed = rolls_needed(p_best) if 0 < p_best < 1 else 0
    likeliest = labels[best] if labels else ""
    cells = pool(observed, expected)
    need = (f"Telling dice that are 10 points off on '{likeliest}' (expected {p_best:.0%} of {PLURAL.get(unit, unit + 's')}) from fair dice takes "
            f"about {count(needed, unit)}" if needed else "")
    if rolls == 0 or len(cells) < 2:
        reading = (f"{count(rolls, unit)}: too few to test against the odds. " + (need + "." if need else "")).strip()
        return Fit(rolls, None, 0, None, len(cells), needed, likeliest, reading)
    stat = sum((o - e) ** 2 / e for o, e, _ in cells)
    df = len(cells) - 1
    p = chi2_sf(stat, df)
    if p >= 0.05:
        verdict = "well within what fair dice give"
    elif p >= 0.001:
        verdict = ("unusual, but with many tables in a campaign about 1 in 20 looks this odd by chance alone: "
                   "not evidence of a bias on its own")
    else:
        verdict = "rare for fair dice: worth checking the rolls with musterroll verify"
    reading = (f"{count(rolls, unit)}. Fair dice give a gap from the odds at least this large {odds_phrase(p)} "
               f"(chi-square {stat:.2f}, {df} degree(s) of freedom, p = {p:.3g}): {verdict}. "
               f"{need}; there are {rolls:,} here.")
    return Fit(rolls, stat, df, p, len(cells), needed, likeliest, reading)
