"""The report's charts, drawn by matplotlib's SVG backend into inline SVG
(text kept as text, no font files, no external reference)."""
from __future__ import annotations

import io
import re
from collections.abc import Sequence

import pandas as pd
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib import rc_context

STYLE = {"svg.fonttype": "none", "svg.hashsalt": "musterroll", "font.size": 9, "axes.spines.top": False,
         "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3}
MAX_TICKS = 12
MANY_DATES = 30  # from this many dates, bars become lines
XML_HEAD = re.compile(r"\A.*?(?=<svg)", re.S)
METADATA = re.compile(r"\s*<metadata>.*?</metadata>", re.S)


def to_svg(fig: Figure, title: str) -> str:
    buf = io.StringIO()
    FigureCanvasSVG(fig)
    with rc_context(STYLE):
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = METADATA.sub("", XML_HEAD.sub("", buf.getvalue()), count=1)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{_attr(title)}" class="chart" ', 1)


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def _dates_axis(ax, dates: Sequence[str]) -> None:
    step = max(1, -(-len(dates) // MAX_TICKS))
    ax.set_xticks(range(0, len(dates), step))
    ax.set_xticklabels([dates[i] for i in range(0, len(dates), step)], rotation=45, ha="right")


def lines_by_side(frame: pd.DataFrame, title: str, ylabel: str) -> str:
    """One panel per side; one line per item (columns (side, group, item))."""
    sides = list(dict.fromkeys(frame.columns.get_level_values(0)))
    with rc_context(STYLE):
        fig = Figure(figsize=(5.2 * len(sides), 3.2), layout="constrained")
        axes = fig.subplots(1, len(sides), squeeze=False)[0]
        dates = list(frame.index)
        for ax, side in zip(axes, sides):
            part = frame[side]
            for col in part.columns:
                label = col[-1] if isinstance(col, tuple) else col
                ax.plot(range(len(dates)), part[col].to_numpy(dtype=float), marker="o", markersize=3, label=str(label))
            ax.set_title(str(side))
            ax.set_ylabel(ylabel)
            _dates_axis(ax, dates)
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)
        fig.suptitle(title)
        return to_svg(fig, title)


def economy(frame: pd.DataFrame, title: str) -> str:
    """Per side and account: earned and spent as bars, saved as a line."""
    sides = list(dict.fromkeys(frame.columns.get_level_values(0)))
    accounts = list(dict.fromkeys(frame.columns.get_level_values(1)))
    dates = list(frame.index)
    with rc_context(STYLE):
        fig = Figure(figsize=(4.2 * len(sides), 2.8 * len(accounts)), layout="constrained")
        axes = fig.subplots(len(accounts), len(sides), squeeze=False)
        x = list(range(len(dates)))
        for r, account in enumerate(accounts):
            for c, side in enumerate(sides):
                ax = axes[r][c]
                cols = frame[side][account] if (side, account) in {k[:2] for k in frame.columns} else pd.DataFrame()
                for item, shift in (("earned", -0.2), ("spent", 0.2)):
                    if item in cols:
                        values = cols[item].fillna(0).to_numpy()
                        if len(dates) > MANY_DATES:  # a hundred bar pairs read (and draw) worse than lines
                            ax.plot(x, values, linewidth=1, label=item)
                        else:
                            ax.bar([i + shift for i in x], values, width=0.4, label=item)
                for item in ("saved", "lost unspent"):
                    if item in cols:
                        ax.plot(x, cols[item].to_numpy(dtype=float), color="black", marker="o", markersize=3, label=item)
                ax.set_title(f"{side}: {account}")
                _dates_axis(ax, dates)
                ax.legend(fontsize=7, loc="best")
        fig.suptitle(title)
        return to_svg(fig, title)


def bars_by_side(frame: pd.DataFrame, title: str, ylabel: str) -> str:
    """Grouped bars: dates along, one bar per column."""
    dates = list(frame.index)
    cols = list(frame.columns)
    width = 0.8 / max(len(cols), 1)
    with rc_context(STYLE):
        fig = Figure(figsize=(max(5.0, min(12.0, 0.35 * len(dates) + 3)), 3.0), layout="constrained")
        ax = fig.subplots()
        for n, col in enumerate(cols):
            label = col[0] if isinstance(col, tuple) else col
            values = frame[col].fillna(0).to_numpy()
            if len(dates) > MANY_DATES:
                ax.plot(range(len(dates)), values, linewidth=1, label=str(label))
            else:
                ax.bar([i - 0.4 + width * (n + 0.5) for i in range(len(dates))], values, width=width, label=str(label))
        ax.set_ylabel(ylabel)
        _dates_axis(ax, dates)
        ax.legend(fontsize=7)
        ax.set_title(title)
        return to_svg(fig, title)


def observed_expected(labels: Sequence[str], observed: Sequence[float], expected: Sequence[float], title: str) -> str:
    """Observed counts as bars, the exact expectation as markers."""
    with rc_context(STYLE):
        fig = Figure(figsize=(max(3.6, min(9.0, 0.5 * len(labels) + 2)), 2.6), layout="constrained")
        ax = fig.subplots()
        x = list(range(len(labels)))
        ax.bar(x, list(observed), width=0.6, label="observed")
        ax.plot(x, list(expected), linestyle="none", marker="_", markersize=18, markeredgewidth=2, color="black",
                label="expected")
        ax.set_xticks(x)
        ax.set_xticklabels([_short(s) for s in labels], rotation=30 if len(labels) > 4 else 0, ha="right"
                           if len(labels) > 4 else "center")
        ax.set_ylabel("rolls")
        ax.legend(fontsize=7)
        ax.set_title(title, fontsize=9)
        return to_svg(fig, title)


def _short(text: str, most: int = 18) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"
