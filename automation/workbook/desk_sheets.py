"""Sheet kinds of the dice desk (docs/desk.md): the umpire's roll requests, the
log sheets the desk appends, the desk's own settings and tables, and the log
kind every tracker (docs/trackers.md) appends. Each tracker's input sheet kind
lives in its module under automation/desk/trackers/."""
from __future__ import annotations

from automation.workbook.schema import MODIFIERS, SETTINGS, TABLES, Column, Kind, SheetKind

VISIBLE_NOTE = "All (default: Umpire), Umpire, or a side's name"

ROLL_REQUESTS = SheetKind(
    "desk.requests", "Roll requests",
    (Column("ID", Kind.INT_OR_TEXT, unique=True, width=10,
            note="a name for this roll, never used again: the dice derive from it, so resolving again never rerolls"),
     Column("Table", width=28, note="a table id, as `musterroll tables` lists it (e.g. bfta.greif_clearance)"),
     Column("Column", required=False, width=16, note="the result column (default: the table's first)"),
     Column("Modifiers", required=False, width=40,
            note="separated by ';': a condition of the table (engineer_present), a quantity NAME=N (combat_strength=3), "
                 "or a DRM such as +2 or -1 smoke"),
     Column("For", required=False, width=36, note="what the roll is for (shown in the log)"),
     Column("Date", required=False, width=12, note="the game date or turn it belongs to; it names the log sheet "
                                                     "(default: today's date)"),
     Column("Visible to", required=False, width=12, note=VISIBLE_NOTE),
     Column("Physical dice", required=False, width=12,
            note="only for dice rolled at the table: the faces, e.g. 7, 3+4 or 94 (d100). Logged and counted as "
                 "physical, never derived from the key")),
    tab="orders", rule="desk",
    description="The umpire's roll requests, one per row: `musterroll roll-requests BOOK.xlsx` (or the ribbon button "
    "on this sheet) resolves every request not yet in a Desk log sheet.",
)

DESK_LOG = SheetKind(
    "desk.log", "Desk {date} {side}",  # {side} holds the sheet's number for that date: 1, 2, ...
    (Column("ID", Kind.INT_OR_TEXT, width=10), Column("Date", required=False, width=12),
     Column("For", required=False, width=30), Column("Table", width=26), Column("Rule", required=False, width=14),
     Column("Column", required=False, width=12), Column("Dice", required=False, width=10),
     Column("Natural", Kind.INT, required=False, width=7), Column("Modifiers", required=False, width=44),
     Column("DRM", Kind.INT, required=False, width=5), Column("Final", Kind.INT, required=False, width=6),
     Column("Result", width=40), Column("Odds", required=False, width=8), Column("Visible to", width=10),
     Column("Label", width=24)),
    tab="log", dated=True, rule="desk",
    description="Roll requests resolved in one run: the dice, each modifier, the final number, the result and its odds.",
)

DESK_SETTINGS = SheetKind(
    "desk.settings", "Desk settings", SETTINGS.columns, tab="settings", rule="desk",
    description="The optional rules' settings the trackers use (BFTA 16.4-16.8, house rules 16): change a Value here; "
    "a setting missing here is read from the Campaign sheet, else the rules file's default.",
)

DESK_TABLES = SheetKind(
    "desk.tables", "Desk tables", TABLES.columns, tab="tables", rule="desk",
    description="Tables of rule systems other than the campaign's own (house rules, BFTA optional rules), in the "
    "Tables sheet's format: edit bands here, and enter the tables the rules do not print (e.g. 16.79).",
)

DESK_MODIFIERS = SheetKind(
    "desk.modifiers", "Desk modifiers", MODIFIERS.columns, tab="tables", rule="desk",
    description="Modifiers of the tables in Desk tables, in the Modifiers sheet's format.",
)

TRACKER_LOG = SheetKind(
    "desk.tracker_log", "{date} log {side}",  # {date}: the tracker's input sheet, {side}: the log's number
    (Column("Turn", Kind.INT, required=False, width=6), Column("Subject", required=False, width=16),
     Column("Entry", width=18), Column("Rule", required=False, width=12), Column("Table", required=False, width=26),
     Column("Column", required=False, width=12), Column("Dice", required=False, width=10), Column("Natural", Kind.INT, required=False, width=7),
     Column("Modifiers", required=False, width=44), Column("DRM", Kind.INT, required=False, width=5),
     Column("Final", Kind.INT, required=False, width=6), Column("Result", width=48),
     Column("Odds", required=False, width=8), Column("Visible to", width=10), Column("Label", required=False, width=30),
     Column("From", required=False, width=14)),
    tab="log", dated=True, rule="desk",
    description="One tracker brought up to date: every entry and roll in order (with the input cell it comes from), "
    "then the state of each subject (Entry 'Status').",
)

KINDS = (ROLL_REQUESTS, DESK_LOG, DESK_SETTINGS, DESK_TABLES, DESK_MODIFIERS, TRACKER_LOG)


def desk_log_name(date: str, number: int) -> str:
    return DESK_LOG.name_for(date=date, side=str(number))


def tracker_log_name(sheet: str, number: int) -> str:
    return TRACKER_LOG.name_for(date=sheet, side=str(number))
