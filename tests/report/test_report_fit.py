"""The test of fit, its plain-words reading, the charts' SVG and the progress bar."""
from __future__ import annotations

import io
import math
import random

import pandas as pd
import pytest

from automation.report import charts
from automation.report.fit import chi2_sf, fit, pool, rolls_needed
from automation.report.progress import Progress


@pytest.mark.parametrize("x, df, p", [(3.841458820694124, 1, 0.05), (9.487729036781154, 4, 0.05),
                                      (21.665994333461924, 9, 0.01), (2.0, 2, math.exp(-1.0)), (0.0, 3, 1.0)])
def test_chi_square_tail_matches_known_values(x, df, p):
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-9, abs=1e-12)


def test_small_cells_are_pooled_with_their_neighbours_until_each_expects_five():
    cells = pool([1, 0, 2, 7, 1], [1.0, 1.5, 3.0, 6.0, 0.5])
    assert [(o, e) for o, e, _ in cells] == [(3, 5.5), (8, 6.5)]
    assert [m for _, _, m in cells] == [[0, 1, 2], [3, 4]]


def test_few_rolls_are_not_tested_and_the_reading_says_how_many_would_be_needed():
    f = fit(["Hit", "Miss"], [2, 0], [1.0, 1.0])
    assert f.p_value is None and "too few to test" in f.reading
    assert f.needed == rolls_needed(0.5) == 194 and "about 194 rolls" in f.reading


def test_fair_dice_fit_and_loaded_dice_do_not():
    rng = random.Random(7)
    faces = [str(i) for i in range(1, 7)]
    fair = [0] * 6
    for _ in range(600):
        fair[rng.randrange(6)] += 1
    loaded = [60, 80, 100, 100, 120, 140]
    assert fit(faces, fair, [100.0] * 6).p_value > 0.01
    bad = fit(faces, loaded, [100.0] * 6)
    assert bad.statistic == pytest.approx(sum((o - 100) ** 2 / 100 for o in loaded))
    assert bad.p_value < 1e-6 and "rare for fair dice" in bad.reading and bad.df == 5


def test_charts_are_inline_svg_with_text_as_text_and_nothing_external():
    frame = pd.DataFrame({("German", "strength", "stands ready"): [20, 17], ("Russian", "strength", "stands ready"): [44, 43]},
                         index=["Dec 23", "Dec 24"])
    frame.columns = pd.MultiIndex.from_tuples(frame.columns)
    svg = charts.lines_by_side(frame, "Strength per date", "count")
    assert svg.startswith("<svg ") and 'aria-label="Strength per date"' in svg
    assert "<text" in svg and "Dec 24" in svg  # fonts are not turned into paths or files
    assert "http://" not in svg.replace("http://www.w3.org/", "") and "<image" not in svg and "@font-face" not in svg


def test_the_progress_bar_writes_to_its_stream_only_for_long_campaigns():
    out = io.StringIO()
    bar = Progress(True, out)
    bar.stage("reading the reports", 200)
    for _ in range(200):
        bar.step()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("report: [") and lines[-1].endswith("100% reading the reports") and len(lines) == 11
    assert not Progress.for_campaign(10).enabled and Progress.for_campaign(400).enabled
    assert not Progress.for_campaign(400, quiet=True).enabled
