"""The report as one self-contained HTML page: sections for the story, the
strength, the economy, the losses, every roll, the dice statistics and the
audit; charts inline as SVG; a small inline script filters the rolls."""
from __future__ import annotations

from collections.abc import Callable
import re
from html import escape

import pandas as pd

import automation.report.charts as charts
from automation.report.assets import CSS, JS
from automation.report.frames import DiceStats, display, measure_frame, rolls_frame
from automation.report.model import CampaignData, Category
from automation.report.progress import Progress

SECTIONS = (("story", "Story"), ("strength", "Strength"), ("economy", "Economy"), ("losses", "Losses"),
            ("rolls", "Rolls"), ("dice", "Dice statistics"), ("audit", "Audit"))
CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"
ECONOMY_ITEMS = ("start", "earned", "spent", "saved", "lost unspent")


def table_html(frame: pd.DataFrame, table_id: str | None = None, index: bool = True) -> str:
    html = frame.to_html(escape=True, index=index, table_id=table_id, border=0, na_rep="-")
    return f'<div class="scroll">{html}</div>'


def long_table_html(frame: pd.DataFrame, table_id: str, links: dict[str, list[str]] | None = None) -> str:
    """A plain table of many rows (every roll), written row by row: the same
    markup as :func:`table_html` without the index, many times faster.
    ``links``: for a column, the address each row's cell links to."""
    head = "".join(f"<th>{escape(str(c))}</th>" for c in frame.columns)
    hrefs = [(links or {}).get(str(c)) for c in frame.columns]

    def cell(v: object, href: list[str] | None, i: int) -> str:
        text = escape(str(v))
        return f'<td><a href="{escape(href[i])}">{text}</a></td>' if href is not None else f"<td>{text}</td>"

    body = "".join("<tr>" + "".join(cell(v, href, i) for v, href in zip(row, hrefs)) + "</tr>\n"
                   for i, row in enumerate(frame.itertuples(index=False, name=None)))
    return (f'<div class="scroll"><table class="dataframe" id="{table_id}"><thead><tr>{head}</tr></thead>'
            f'<tbody>\n{body}</tbody></table></div>')


def section(key: str, title: str, body: str) -> str:
    return f'<section id="{key}"><h2>{escape(title)}</h2>{body}</section>'


def none(text: str) -> str:
    return f'<p class="meta">{escape(text)}</p>'


# ------------------------------------------------------------------ story

def story(data: CampaignData) -> str:
    by_date: dict[str, list] = {}
    for e in data.events:
        by_date.setdefault(e.date, []).append(e)
    if not data.dates:
        return none("No refit has been run yet: the story starts with the first report.")
    parts = []
    last = data.dates[-1]
    for date in data.dates:
        events = by_date.get(date, [])
        blocks = []
        for side in [""] + list(data.sides):
            mine = [e for e in events if e.side == side]
            if not mine:
                continue
            items = []
            for category in Category:
                lines = [e for e in mine if e.category is category]
                if lines:
                    entries = "".join(f'<li>{escape(e.line)} <span class="where">{escape(e.where)}</span></li>'
                                      for e in lines)
                    items.append(f'<div><span class="cat">{escape(category.value)}</span><ul>{entries}</ul></div>')
            head = escape(side) if side else "Both sides"
            blocks.append(f'<div class="story-side"><h4>{head}</h4>{"".join(items)}</div>')
        body = "".join(blocks) or none("Nothing to tell for this date.")
        reports = sorted({r.sheet for r in data.rolls if r.date == date})
        opened = " open" if date == last else ""
        parts.append(f'<details class="date" id="{date_anchor(date)}"{opened}><summary>{escape(date)}'
                     f'{" · " + escape(", ".join(reports)) if reports else ""}'
                     f'{counts(events, sum(1 for r in data.rolls if r.date == date))}</summary>{body}</details>')
    return "".join(parts)


COUNTED = {Category.BOUGHT: "bought or received", Category.LOST: "lost", Category.REPAIRED: "repair roll(s)",
           Category.WITHDREW: "withdrew, escaped or shifted"}


def counts(events: list, rolls: int) -> str:
    """What a closed date holds, in a few words ("2 bought or received, 3 lost; 14 roll(s)")."""
    found = [f"{n} {words}" for c, words in COUNTED.items() if (n := sum(1 for e in events if e.category is c))]
    words = ", ".join(found) + ("; " if found and rolls else "") + (f"{rolls} roll(s)" if rolls else "")
    return f' <span class="counts">({escape(words)})</span>' if words else ""


def date_anchor(date: str) -> str:
    """The id of a date's fold in the story (``report.html#date-dec-24`` opens it)."""
    return slug("date", date)


# ------------------------------------------------------------------ numbers over time

def slug(*parts: str) -> str:
    """An HTML id from free text (tests find a table by it)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", " ".join(parts)).strip("-").lower()


def over_time(data: CampaignData, groups: tuple[str, ...], title: str, ylabel: str,
              draw: Callable[[pd.DataFrame, str, str], str] | None = None) -> str:
    frame = measure_frame(data, groups)
    if frame.empty:
        return ""
    chart = (draw or charts.lines_by_side)(frame, title, ylabel)
    shown = frame.copy()
    shown.columns = [" · ".join(str(p) for p in (c[0], c[2])) for c in frame.columns]
    return f"<h3>{escape(title)}</h3>{chart}{table_html(display(shown), slug(groups[0], 'table'))}"


def economy(data: CampaignData) -> str:
    frame = measure_frame(data, ("CPP", "FPP"))
    if frame.empty:
        return none("No CPP or FPP account yet.")
    chart = charts.economy(frame, "CPP and FPP per date: earned, spent, saved")
    shown = frame.copy()
    shown.columns = [f"{s} · {g} {i}" for s, g, i in frame.columns]
    keys = {c: n for n, c in enumerate(shown.columns)}
    order = sorted(shown.columns, key=lambda c: (c.split(" · ")[0], c.split(" · ")[1].split(" ")[0],
                                                 _rank(c.split(" ", 3)[-1]), keys[c]))
    return chart + table_html(display(shown[order]), "economy-table")


def _rank(item: str) -> int:
    for n, name in enumerate(ECONOMY_ITEMS):
        if item == name:
            return n
    return len(ECONOMY_ITEMS)


def losses(data: CampaignData) -> str:
    out = []
    frame = measure_frame(data, ("losses",))
    if not frame.empty:
        item = frame.columns[0][2]
        flat = frame.copy()
        flat.columns = [c[0] for c in frame.columns]
        out.append(f"<h3>Losses per date: {escape(item)}</h3>")
        out.append(charts.bars_by_side(flat, f"Losses per date ({item})", item))
        out.append(table_html(display(flat), "losses-table"))
    cvp = over_time(data, ("CVP",), "CVP per CG Date", "CVP")
    if cvp:
        out.append(cvp)
    return "".join(out) or none("No losses recorded yet.")


# ------------------------------------------------------------------ rolls

def rolls(data: CampaignData) -> str:
    frame = rolls_frame(data)
    if frame.empty:
        return none("No roll yet.")
    frame["Dice source"] = frame.pop("Physical").map({True: "physical", False: "keyed"})
    titles = {t.id: t.title for t in data.system.tables.values()} if data.system is not None else {}
    frame["Table"] = frame["Table"].map(lambda t: titles.get(t, t))
    links = {"Report sheet": [f"#{date_anchor(d)}" for d in frame["Date"]]}
    filters = ('<form class="filters" onsubmit="return false">'
               '<label>Date<select id="f-date"><option value="">all</option></select></label>'
               '<label>Table<select id="f-table"><option value="">all</option></select></label>'
               '<label>Side<select id="f-side"><option value="">all</option></select></label>'
               '<label>Unit<input id="f-unit" type="search" placeholder="a stand or unit"></label>'
               '<label>Any text<input id="f-text" type="search" placeholder="result, label..."></label>'
               '</form><p id="roll-count" class="meta"></p>')
    note = ("<p>Each roll with its dice, its modifiers, the final number, the result and the odds of that result; "
            "<em>Report sheet</em> is the workbook sheet the roll is written on (it opens that date's story). "
            f"A filter can be kept as a link: <code>{escape(filter_link(data.rolls[0].date, data.rolls[0].subject))}</code> "
            "(date, table, side, unit, text).</p>")
    return note + filters + long_table_html(frame, "roll-table", links)


def filter_link(date: str, unit: str) -> str:
    """The address that opens the roll table filtered to one date and unit."""
    from urllib.parse import quote

    return f"#rolls?date={quote(date)}" + (f"&unit={quote(unit)}" if unit else "")


# ------------------------------------------------------------------ dice statistics

def dice(data: CampaignData, keyed: DiceStats, physical: DiceStats, progress: Progress) -> str:
    out = [f"<p>Every table's results against its exact odds (the expectation adds up, roll by roll, each result's "
           f"chance at that roll's modifiers). Each test asks how often fair dice would land this far from the odds. "
           f"This report makes {keyed.tests} such test(s): by chance alone about 1 in 20 tests shows a p-value "
           f"below 0.05, so one odd-looking table is expected in a long campaign and is not proof of anything.</p>"]
    progress.stage("dice statistics", len(keyed.tables) + len(keyed.faces) + len(physical.tables) + len(physical.faces))
    out.append(_dice_block(data, keyed, progress))
    out.append("<h3>Physical dice</h3>")
    if physical.tables or physical.faces:
        out.append("<p>Rolls entered by hand from physical dice, kept apart from the keyed rolls.</p>")
        out.append(_dice_block(data, physical, progress, "physical "))
    else:
        out.append(none("No roll of the refit reports was made with physical dice: every one derives from the campaign "
                        "key."))
    if data.desk_physical:
        items = "".join(f"<li>{escape(p)}</li>" for p in data.desk_physical)
        out.append(f"<p>Physical dice entered on the dice desk (in-game rolls, not derived from the key, not counted "
                   f"above): {len(data.desk_physical)}</p><ul id=\"desk-physical\">{items}</ul>")
    if keyed.left_out:
        out.append(none(f"Left out of the statistics (unreadable table, column or DRM): {', '.join(keyed.left_out)}"))
    return "".join(out)


def _dice_block(data: CampaignData, stats: DiceStats, progress: Progress, prefix: str = "") -> str:
    out = []
    sides = list(dict.fromkeys([t.side for t in stats.tables] + [f.side for f in stats.faces]))
    for side in sides:
        out.append(f"<h3>{escape(side)}</h3>")
        for t in (t for t in stats.tables if t.side == side):
            title = f"{t.title} ({t.table_id}, {t.rule}), column {t.column}"
            shown = t.frame.copy()
            shown["Expected"] = shown["Expected"].map(lambda v: f"{v:.2f}")
            for c in ("Observed %", "Expected %"):
                shown[c] = shown[c].map(lambda v: f"{v:.1f}%")
            chart = charts.observed_expected(list(t.frame["Result"]), list(t.frame["Observed"]),
                                             list(t.frame["Expected"]), f"{side}: {t.table_id} ({t.column})")
            out.append(f'<div class="fit"><h4>{escape(title)}</h4><p class="reading">{escape(t.fit.reading)}</p>'
                       f'<div class="pair">{chart}'
                       f'{table_html(shown, slug(prefix + "fit", side, t.table_id, t.column), index=False)}</div></div>')
            progress.step()
        for f in (f for f in stats.faces if f.side == side):
            shown = f.frame.copy()
            shown["Expected"] = shown["Expected"].map(lambda v: f"{v:.2f}")
            chart = charts.observed_expected(list(f.frame["Face"]), list(f.frame["Observed"]), list(f.frame["Expected"]),
                                             f"{side}: faces of the d{f.die}")
            out.append(f'<div class="fit"><h4>Faces of the d{f.die} ({int(f.frame["Observed"].sum())} dice)</h4>'
                       f'<p class="reading">{escape(f.fit.reading)}</p><div class="pair">{chart}'
                       f'{table_html(shown, slug(prefix + "faces", side, f"d{f.die}"), index=False)}</div></div>')
            progress.step()
    return "".join(out) or none("No roll yet.")


# ------------------------------------------------------------------ audit

def audit(data: CampaignData) -> str:
    a = data.audit
    if a is None:
        return none("Not checked.")
    status = {True: "intact", False: "NOT intact", None: "nothing sealed yet"}[a.chain_ok]
    key = (f"<p>Key revealed: <strong>yes</strong>. The campaign key is <code>{escape(a.key_revealed)}</code> "
           f"(it matches the commitment). Save it in a file, e.g. <code>campaign.key</code>, and check every roll of "
           f"your own export:</p>" if a.key_revealed else
           "<p>Key revealed: <strong>not yet</strong>. The umpire reveals the campaign key once the campaign is over; "
           "then each player can re-derive every roll of their own export:</p>")
    now = ("<p>At any time, <code>musterroll verify EXPORT.xlsx</code> checks on its own that your export's "
           "<em>Dice audit</em> sheet agrees with every roll the export shows.</p>" if data.viewer else
           "<p>At any time, <code>musterroll verify BOOK.xlsx</code> checks the chain of the master and, with its "
           "key file beside it (or <code>--key FILE</code>), runs every refit again.</p>")
    return (f"<p>Tamper-evident chain: <strong>{status}</strong>: {escape(a.chain_text)}.</p>"
            f"<p>Key commitment (SHA-256 of the key): <code>{escape(a.commitment or 'none')}</code></p>"
            f"{now}{key}<p><code>{escape(a.command)}</code></p>")


# ------------------------------------------------------------------ the page

def render(data: CampaignData, keyed: DiceStats, physical: DiceStats, progress: Progress) -> str:
    progress.stage("charts and tables", 4)
    strength = (over_time(data, ("strength",), "Strength per date", "count")
                + over_time(data, ("ready by kind",), "Stands ready by kind", "stands")
                + over_time(data, ("RGs",), "Reinforcement Groups received", "RGs")) or none("No strength recorded yet.")
    progress.step()
    body = {"story": story(data), "strength": strength}
    progress.step()
    body["economy"] = economy(data)
    body["losses"] = losses(data)
    progress.step()
    body["rolls"] = rolls(data)
    progress.step()
    body["dice"] = dice(data, keyed, physical, progress)
    body["audit"] = audit(data)
    nav = "".join(f'<a href="#{k}">{escape(t)}</a>' for k, t in SECTIONS)
    system = {"bf-campaign": "Battlefront: WWII campaign", "asl-abtf": "ASL A Bridge Too Far"}.get(data.system_id,
                                                                                                 data.system_id)
    title = f"{data.campaign}: campaign report"
    head = (f'<header><h1>{escape(title)}</h1><p class="meta">{escape(system)} · for {escape(data.for_whom)} · '
            f'{len(data.dates)} date(s) reported{": " + escape(data.dates[0] + " to " + data.dates[-1]) if data.dates else ""}'
            f' · {len(data.rolls)} roll(s) · from {escape(data.source_name)}</p></header>')
    sections = "".join(section(k, t, body[k]) for k, t in SECTIONS)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<title>{escape(title)}</title><style>{CSS}</style></head>'
            f'<body>{head}<nav>{nav}</nav><main>{sections}</main><script>{JS}</script></body></html>')
