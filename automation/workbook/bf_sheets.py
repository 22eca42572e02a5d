"""Sheet kinds of a Battlefront: WWII campaign workbook (seed 001).

See docs/workbook.md for how an umpire uses each one.
"""
from __future__ import annotations

from automation.workbook.columns import YES_NO, Column, Kind, ListRef, SheetKind, choice

SIDES = ListRef("sides")
DISCIPLINE = ListRef("discipline")
ME_CLASS = ListRef("me_class")
STAND_KIND = ListRef("stand_kind")
PARTS = ("Full day", "Morning", "Afternoon", "Night")
SITUATIONS = ("Normal", "Isolated", "Cut off")
LINES = ("Own lines", "Enemy lines")
TRACKS = ("Fully tracked", "Half-tracked", "Wheeled")
STATUS = ("Available", "Wreck", "Abandoned", "Used")
AMMO = ("Normal", "Roll when firing", "Short", "Out")
OUTCOMES = ("Unharmed", "Knocked out", "Panicked", "Abandoned", "Used")
KO_BY = ("Direct fire", "Indirect fire", "Close combat", "Mine", "Other")
RG_KINDS = ("ME", "OBA", "Aircraft", "FPP", "Other")
VISIBLE = ("All", "Umpire")  # plus each side's name

DATES = SheetKind(
    "bf.dates", "Dates",
    (Column("Date", unique=True, width=12, note="CG date label used in sheet names, e.g. 'Dec 23' or 'Dec 23 AM'"),
     Column("Calendar date", Kind.DATE, width=14, note="YYYY-MM-DD; the year and month decide repair and aircraft rules"),
     choice("Part", PARTS, width=11), Column("Notes", required=False, width=40)),
    tab="settings", rule="2", description="The campaign's scenarios in order, one per row.",
)
HISTORICAL_DRM = SheetKind(
    "bf.historical_drm", "Historical DRM",
    (Column("Date", width=12), choice("Side", SIDES, width=12),
     Column("DRM", Kind.INT_OR_TEXT, width=10, note="an integer, or No CPP's"), Column("Rule", required=False, width=10)),
    tab="settings", rule="2.1.1.1", description="The umpire's historical CPP DRM per date and side (No CPP's: no roll, no CPP).",
)
RG_CHART = SheetKind(
    "bf.rg_chart", "RG Chart",
    (choice("Side", SIDES, width=10), Column("ID", width=8), Column("Description", width=30),
     choice("Kind", RG_KINDS, width=9), choice("ME class", ME_CLASS, required=False, width=9),
     Column("ME type", required=False, width=18), Column("Stands", required=False, width=34, note="e.g. 'Rifle x9; HMG x2; Command x1'"),
     choice("Discipline", DISCIPLINE, required=False, width=12), Column("CPP", Kind.INT, width=6),
     Column("Scenario max", Kind.INT, required=False, width=9), Column("Campaign max", Kind.INT, required=False, width=9),
     Column("FPP", Kind.INT, required=False, width=6), Column("Notes", required=False, width=40)),
    tab="settings", rule="2.1.1.4", description="Each side's reinforcement groups: cost, contents, per-scenario and campaign limits.",
)
REINFORCEMENTS = SheetKind(
    "bf.reinforcements", "Scheduled Reinforcements",  # not "Reinforcements": A Bridge Too Far's sheet has that title
    (Column("Date", width=12, note="the date (Dates sheet) whose refit adds them to the roster"),
     choice("Side", SIDES, width=10), Column("RG", width=8, note="an ID on the side's RG chart: the group that arrives"),
     Column("ME", required=False, unique=True, width=16, note="the ME's roster ID; empty: RG ID and its number, e.g. I1-2"),
     Column("Notes", required=False, width=40)),
    tab="settings", rule="2.1.1.4.1",
    description="Scheduled reinforcements: one row per group arriving free of CPP on a date; "
    "they count against the RG chart's campaign and per-scenario limits like the base force.",
)
FP_CHART = SheetKind(
    "bf.fp_chart", "FP Chart",
    (Column("Side", width=10, note="a side, or Both"), Column("Item", width=26), Column("FPP", Kind.INT, width=6),
     Column("Notes", required=False, width=40)),
    tab="settings", rule="2.1.1.5.2", description="The umpire's fortification purchase chart.",
)
ROSTER = SheetKind(
    "bf.roster", "Roster {date}",
    (choice("Side", SIDES, width=10), Column("ME", width=16), choice("ME class", ME_CLASS, width=8),
     Column("ME type", width=18), Column("RG", required=False, width=7),
     choice("Discipline", DISCIPLINE, required=False, width=12, note="every stand but OBA modules, aircraft and fortifications"),
     Column("Stand", unique=True, width=16), Column("Stand type", width=18), choice("Kind", STAND_KIND, width=13),
     choice("Tracks", TRACKS, required=False, width=13), choice("Status", STATUS, width=10),
     choice("Situation", SITUATIONS, width=10), choice("Wreck lines", LINES, required=False, width=11),
     choice("In minefield", YES_NO, required=False, width=10),
     Column("Breakpoint base", Kind.INT, required=False, width=10),
     Column("Losses today", Kind.INT, required=False, width=9),
     Column("Full strength", Kind.INT, required=False, width=9, note="stands the ME had when formed; for combining (2.1.1.3.2)"),
     choice("Ammunition", AMMO, required=False, width=15),
     Column("Notes", required=False, width=30)),
    tab="roster", dated=True, rule="2.1.1.3",
    description="Every stand of both sides at the start of a scenario: its ME, discipline, status and situation.",
)
RESULTS = SheetKind(
    "bf.results", "Results {date}",
    (choice("Side", SIDES, width=10), Column("Stand", width=16),
     choice("Outcome", OUTCOMES, required=False, width=12,
            note="required, except on a form's offered row: left blank there, the stand took no part"),
     choice("Knocked out by", KO_BY, required=False, width=13), choice("Ends in", LINES, required=False, width=11),
     choice("Situation", SITUATIONS, required=False, width=10), choice("In minefield", YES_NO, required=False, width=10),
     choice("Near friendly lines", YES_NO, required=False, width=10),
     Column("Turns isolated", Kind.INT, required=False, width=9), Column("Turns cut off", Kind.INT, required=False, width=9),
     Column("Kills by fire", Kind.INT, required=False, width=8), Column("CC wins", Kind.INT, required=False, width=8),
     Column("CC losses", Kind.INT, required=False, width=8), Column("Notes", required=False, width=30),
     Column("Offered", required=False, width=30,
            note="written by the form: the stand and its ME; the row counts only once its Outcome is chosen")),
    tab="results", dated=True, rule="2.1.2",
    description="What happened to stands in the scenario, entered by the umpire; stands not listed were unharmed, in own lines, normal.",
)
ORDER_KINDS = ("Posture", "Escape", "Repair", "Combine", "Purchase", "Extra CPP", "Preregistered points",
               "Removal", "Fortification")
ORDERS = SheetKind(
    "bf.orders", "Orders {date} {side}",
    (choice("Order", ORDER_KINDS, width=20), Column("Subject", required=False, width=22),
     Column("Value", Kind.INT_OR_TEXT, required=False, width=14), Column("Detail", required=False, width=36),
     Column("Offered", required=False, width=56,
            note="written by the form: what the row offers; the row counts only once its Value is chosen")),
    tab="orders", dated=True, per_side=True, rule="2.1",
    description="A side's decisions before the CPP roll: posture (Attack/Defend) and escape attempts.",
)
SPEND = SheetKind(
    "bf.spend", "Spend {date} {side}",
    ORDERS.columns, tab="orders", dated=True, per_side=True, rule="2.1.1",
    description="A side's decisions after its CPP roll: repairs, combining, purchases, FPP removal and fortifications.",
)
FORCES = SheetKind(
    "bf.forces", "Forces {date} {side}",
    (Column("ME", width=18, note="an ME, OBA module or aircraft flight of this side on the date's roster (dropdown)"),
     Column("Notes", required=False, width=40),
     choice("Deploy", YES_NO, required=False, width=8,
            note="on a form's offered row: Yes deploys the ME, blank or No does not; a row typed by hand deploys it"),
     Column("Offered", required=False, width=44,
            note="written by the form: the ME, its RG and the RG's scenario maximum")),
    tab="orders", dated=True, per_side=True, rule="2.1.1.7",
    description="A side's forces chosen for the date's scenario: one row per ME, OBA module or aircraft flight it "
    "deploys; the RG chart's scenario maximum counts them with its groups still isolated on the map.",
)
REPORT = SheetKind(
    "bf.report", "Refit {date} {side}",  # {side} holds the stage: 1 or 2
    (Column("Step", width=22), Column("Rule", width=10), Column("Side", required=False, width=10),
     Column("Subject", required=False, width=22), Column("Table", required=False, width=24),
     Column("Dice", required=False, width=8), Column("Natural", Kind.INT, required=False, width=7),
     Column("Modifiers", required=False, width=44), Column("DRM", Kind.INT, required=False, width=5),
     Column("Final", Kind.INT, required=False, width=6), Column("Result", width=40),
     Column("Odds", required=False, width=8), Column("Visible to", width=10), Column("Label", required=False, width=36)),
    tab="report", dated=True, rule="2.1.1",
    description="Every step and roll of one refit stage: dice, each modifier, final number, result and its odds.",
)
LEDGER = SheetKind(
    "bf.ledger", "Ledger {date}",
    (choice("Side", SIDES, required=False, width=10), choice("Account", ("CPP", "FPP", "RG", "Scenario"), width=9),
     Column("Entry", width=30), Column("Amount", Kind.INT, required=False, width=8),
     Column("Balance", Kind.INT, required=False, width=8), Column("Rule", required=False, width=10),
     Column("Visible to", width=10)),
    tab="ledger", dated=True, rule="2.1.1.1",
    description="Each side's CPP and FPP: start, replenished, each spending, left; RG counts to date.",
)
SUMMARY = SheetKind(
    "bf.summary", "Summary {date}",
    (Column("Date", width=12),),
    tab="ledger", dated=True, rule="2.1.1.3",
    description="CPP, FPP and stands of each side by date (columns '<side> CPP', '<side> FPP', '<side> stands'), "
    "with a line chart.",
)


def summary_kind(sides: tuple[str, ...]) -> SheetKind:
    """The Summary sheet's columns for these two sides."""
    cols = [Column("Date", width=12)]
    for measure in ("CPP", "FPP", "stands"):
        cols += [Column(f"{side} {measure}", Kind.INT, width=12) for side in sides]
    return SheetKind(SUMMARY.id, SUMMARY.title, tuple(cols), SUMMARY.tab, SUMMARY.description, True, False, SUMMARY.rule)

KINDS = (DATES, HISTORICAL_DRM, RG_CHART, REINFORCEMENTS, FP_CHART, ROSTER, RESULTS, ORDERS, SPEND, FORCES, REPORT, LEDGER, SUMMARY)

DEFAULT_LISTS: dict[str, tuple[str, ...]] = {
    "me_class": ("I", "A", "R", "E", "G", "O", "F", "S"),
    "stand_kind": ("Troops", "Engineers", "Command", "Gun", "AFV", "Soft vehicle", "OBA module", "Aircraft", "Fortification"),
}
