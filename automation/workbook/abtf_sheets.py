"""Sheet kinds of an ASL "A Bridge Too Far" campaign workbook (seed 003).

The CG Roster of the module is kept as three dated sheets: ``Units {date}``
(every unit, weapon, vehicle and fortification with its Setup Area),
``Blocks {date}`` (each Block's Strategic Locations and who Controls it, and
the Entry Areas) and ``CG Roster {date}`` (one line per CG Date and side: SAN,
ELR, CPP, FPP, chits used, CVP). ``End {date}`` is the umpire's account of the
units at CG Scenario End, ``Umpire {date}`` the outcomes only the map can give,
``Orders {date} {side}`` a side's decisions in RePh part 1. See
docs/workbook_abtf.md for how an umpire uses each one.
"""
from __future__ import annotations

from automation.workbook.columns import YES_NO, Column, Kind, ListRef, SheetKind, choice

SIDES = ("British", "German")
QUALITY = ListRef("quality")
CLASSES = ("Squad", "HS", "Crew", "Leader", "Armor Leader", "Hero", "SW", "Gun", "Vehicle", "Vehicular weapon",
           "Fortification")
VEHICLE_KINDS = ("CT AFV", "OT AFV", "Unarmored")
AREA_KINDS = ("Block", "Entry Area")
SCENARIO = ("Initial", "Played", "Idle", "Dual Assault", "German Assault", "British Assault")
CHITS = ("Attack", "Idle")
RG_KINDS = ("RG", "SAN", "FPP")
LEADER_COLUMNS = ("None", "Infantry", "Armor")
UNCONTROLLED = "Uncontrolled"
WW_BOX = "Walking Wounded Box"

# The Status column of a unit holds any of these, separated by commas.
STATUS_FLAGS = (
    "Encircled", "Wounded", "Heroic", "Walking Wounded", "Unarmed", "Prisoner", "Fanatic", "Minefield",
    "Immobile", "Abandoned", "Bogged", "Shocked", "Stunned", "Recall", "Captured", "Exited", "Burnt-out",
    "Malfunctioned", "Disabled", "Non-qualified", "Emplaced", "Non-dm", "Front Line", "Hidden", "Not entered",
    "No crew", "Eliminated",
)

CG_DATES = SheetKind(
    "abtf.dates", "CG Dates",
    (Column("Order", Kind.INT, unique=True, width=7), Column("CG Date", unique=True, width=9,
                                                             note="as in sheet names: 17N, 18AM, 18PM, 18EVE, 18N ..."),
     choice("Night", YES_NO, width=7), Column("British CPP", Kind.INT, width=9), Column("German CPP", Kind.INT, width=9),
     Column("Campaign Exhaustion", Kind.INT, width=11, note="the DRM of 9.6161's chart (9.6181, 9.6201, 9.6202)"),
     Column("Notes", required=False, width=40)),
    tab="settings", rule="9.6161",
    description="The CG Dates in order with the CPP Base Number of each side and the Campaign Exhaustion DRM.",
)
REINFORCEMENTS = SheetKind(
    "abtf.reinforcements", "Reinforcements",
    (Column("CG Date", width=9), choice("Side", SIDES, width=9), choice("Kind", RG_KINDS, width=6),
     Column("Item", width=10, note="the RG ID for an RG; e.g. 'SAN +2', '20 FPP'"),
     Column("Amount", Kind.INT, width=8, note="RG: how many; SAN: the change; FPP: the FPP"),
     Column("KG", required=False, width=6, note="German RG: the Kampfgruppe letter"),
     Column("Entry", required=False, width=26), Column("From turn", Kind.INT, required=False, width=8),
     Column("SAN maximum", Kind.INT, required=False, width=8), Column("SAN minimum", Kind.INT, required=False, width=8),
     Column("Notes", required=False, width=40)),
    tab="settings", rule="9.6152",
    description="The Reinforcement Schedule: OB-given RGs, SAN changes and FPP by CG Date and side.",
)
_RG_COMMON = (
    Column("Group Type", width=22), Column("CPP Cost", Kind.INT, width=7),
    Column("Full", Kind.INT, required=False, width=6, note="units received at Full strength (left of the '/')"),
    Column("Depleted", Kind.INT, required=False, width=8, note="units received Depleted (right of the '/')"),
    Column("Unit Type", required=False, width=16, note="squad factors and type (6-5-8 engineer), a vehicle, or FPP / "
           "'<n> FPP' for a line that sells FPP (9.619)"), Column("CG Date Max", Kind.INT, required=False, width=8),
    Column("CG Max", Kind.INT, required=False, width=7), choice("Depletion", YES_NO, width=9,
                                                                note="Yes: rolls on the RG Strength Table (9.6181)"),
    choice("Leader", LEADER_COLUMNS, width=9, note="Infantry/Armor: rolls on that Leader Table column (9.6183)"),
    choice("Vehicle", VEHICLE_KINDS, required=False, width=10, note="the kind of the RG's vehicles"),
    Column("Leader DRM", required=False, width=12, note="the RG type the Leader Table DRMs name, e.g. commando, ss_pg"),
    Column("Notes", required=False, width=40),
)
RG_BRITISH = SheetKind(
    "abtf.rg_british", "RG Chart British", (Column("ID", unique=True, width=6),) + _RG_COMMON,
    tab="settings", rule="9.617", description="The British RG Chart (ID, group type, CPP cost, units full/depleted, maxima).",
)
RG_GERMAN = SheetKind(
    "abtf.rg_german", "RG Chart German", (Column("ID", width=6), Column("KG", width=5),) + _RG_COMMON,
    tab="settings", rule="9.617", description="The German RG Chart, one row per RG and Kampfgruppe.",
)
UNIT_CLASSES = SheetKind(
    "abtf.unit_classes", "Unit Classes",
    (choice("Class", CLASSES, unique=True, width=16), Column("HS-equivalents", Kind.INT, width=10),
     Column("IPC", Kind.INT, width=6), Column("CVP", Kind.INT, width=6),
     Column("Leadership DRM", Kind.INT, required=False, width=10), Column("Notes", required=False, width=50)),
    tab="settings", rule="9.6054",
    description="Main-rule values per unit class the refit needs (HS-equivalents and IPC for Escape, default CVP): "
    "editable; a unit's own CVP cell wins.",
)
UNITS = SheetKind(
    "abtf.units", "Units {date}",
    (choice("Side", SIDES, width=9), Column("Unit", unique=True, width=14), choice("Class", CLASSES, width=12),
     Column("Type", width=18), Column("Strength", required=False, width=9,
                                      note="MMC/hero factors (4-6-7); leader rating (8-1, 6+1)"),
     Column("Morale", Kind.INT, required=False, width=7, note="only to override the morale the Strength gives; "
            "for a vehicle: its crew's morale"),
     choice("Quality", QUALITY, required=False, width=9),
     Column("Area", width=16, note="a Block or Entry Area of the Blocks sheet, Uncontrolled, or Walking Wounded Box"),
     Column("Location", required=False, width=9, note="the hex (and level) on the map"),
     Column("With", required=False, width=12, note="SW/Gun: its possessor; leader: the unit or vehicle he is with; "
            "vehicular weapon: its vehicle; prisoner: its guard"),
     Column("Status", required=False, width=22, note="any of: " + ", ".join(STATUS_FLAGS)),
     choice("Vehicle", VEHICLE_KINDS, required=False, width=10),
     Column("PP", Kind.INT, required=False, width=5), Column("Repair", Kind.INT, required=False, width=7,
                                                              note="the weapon's repair number"),
     Column("Ammo depleted", required=False, width=12, note="special ammunition types depleted, e.g. APCR, WP"),
     Column("CVP", Kind.INT, required=False, width=5, note="empty: the Unit Classes default"),
     Column("Squad/HS", required=False, width=9, note="squad: its HS factors; HS: the squad it recombines into"),
     Column("Replaced by", required=False, width=10, note="MMC: factors of the unit it is Replaced by, e.g. 4-5-8 or 4-5-8/2-4-8 (with its HS); Disrupted if none"),
     Column("RG", required=False, width=7), Column("Notes", required=False, width=30)),
    tab="roster", dated=True, rule="9.6055",
    description="Every unit, weapon, vehicle and fortification of both sides, with its Setup Area.",
)
END = SheetKind(
    "abtf.end", "End {date}", UNITS.columns, tab="results", dated=True, rule="9.603",
    description="The units as they stand at CG Scenario End (the refit writes it as a form: every unit of the Units sheet as it stood): Locations, Areas, "
    "Status (Encircled, Wounded, Immobile ...). Every unit of the Units sheet stays listed: one eliminated in play has "
    "Status Eliminated (its CVP are in the Final CVP).",
)
BLOCKS = SheetKind(
    "abtf.blocks", "Blocks {date}",
    (Column("Area", unique=True, width=14), choice("Kind", AREA_KINDS, width=10),
     choice("Side", SIDES, required=False, width=9, note="an Entry Area's side"),
     Column("Strategic Locations", required=False, width=30, note="the Block's Strategic Locations, comma separated"),
     choice("Controlled by", SIDES, required=False, width=11), Column("Notes", required=False, width=30)),
    tab="roster", dated=True, rule="9.605",
    description="Each Block with its Strategic Locations and who Controls it; each side's Entry Areas.",
)
CG_ROSTER = SheetKind(
    "abtf.cg_roster", "CG Roster {date}",
    (Column("CG Date", width=9), choice("Side", SIDES, width=9), choice("Scenario", SCENARIO, width=9),
     choice("Chit", CHITS, required=False, width=7), Column("Final CVP", Kind.INT, required=False, width=8),
     Column("RePh CVP", Kind.INT, required=False, width=8),
     Column("CPP replenished", Kind.INT, required=False, width=11), Column("CPP spent", Kind.INT, required=False, width=8),
     Column("CPP left", Kind.INT, width=8), Column("FPP", Kind.INT, width=6), Column("SAN", Kind.INT, width=6),
     Column("ELR", Kind.INT, width=6), Column("Ammunition shortage", Kind.INT, required=False, width=11),
     Column("Attack chits", Kind.INT, required=False, width=8), Column("Idle chits", Kind.INT, required=False, width=8),
     Column("A-T mines", Kind.INT, required=False, width=8, note="British A-T Mines bought so far in the CG (9.619)"),
     Column("Weather", required=False, width=12), Column("EC", required=False, width=9),
     Column("Wind", required=False, width=11),
     Column("RG purchased", required=False, width=24, note="each RG bought on this CG Date with its CPP (9.617)"),
     Column("Notes", required=False, width=40)),
    tab="ledger", dated=True, rule="9.612",
    description="One line per CG Date and side, oldest first: the scenario type (or Idle date), chit, CVP, CPP, FPP, "
    "SAN, ELR, ammunition shortage, chits and A-T Mines used so far, the scenario's weather, EC and wind. The last line "
    "of a side is its current state.",
)
UMPIRE_ENTRIES = ("Final CVP", "Melee", "Minefield", "Bog", "Shock", "Location control", "Strategic Location", "Retain",
                  "Escape", "Heat of Battle", "Crew survival", "Blaze", "Walking Wounded")
UMPIRE = SheetKind(
    "abtf.umpire", "Umpire {date}",
    (choice("Entry", UMPIRE_ENTRIES, required=False, width=16,
            note="required, except on a form's offered row: left blank there, the row is no entry"),
     Column("Subject", required=False, width=14),
     Column("Value", Kind.INT_OR_TEXT, required=False, width=16), Column("Area", required=False, width=14),
     Column("Hexes", Kind.INT, required=False, width=6), Column("Notes", required=False, width=36),
     Column("Offered", required=False, width=40,
            note="written by the form: what the row asks; it counts only once its Entry and a Value, Area or Hexes "
                 "are given")),
    tab="results", dated=True, rule="9.601",
    description="The umpire's entries for the RePh of a CG Date: final CVP, outcomes only the map gives (melee, "
    "minefields, bog, shock, Location Control, paths of Isolated units, flames) and main-rule results.",
)
ORDER_KINDS = ("Escape stack", "Transfer", "Battle Harden", "Shift", "Armor leader", "MG exchange", "Reman")
ORDERS = SheetKind(
    "abtf.orders", "Orders {date} {side}",
    (choice("Order", ORDER_KINDS, width=14), Column("Subject", required=False, width=14),
     Column("Value", Kind.INT_OR_TEXT, required=False, width=14),
     Column("Units", required=False, width=30, note="units, comma separated (Escape stack, Shift)"),
     Column("Path", required=False, width=24, note="Shift: what the path crosses, e.g. 'U2 > D > U1' (U2 = two "
            "Uncontrolled Territory hexes)"),
     Column("Notes", required=False, width=30),
     Column("Offered", required=False, width=44,
            note="written by the form: what the row offers; the row counts only once its Value is chosen")),
    tab="orders", dated=True, per_side=True, rule="9.613",
    description="A side's decisions in RePh part 1: Escape stacks, transfers, battle hardening, Shifts, Armor Leader "
    "assignments, vehicular-MG exchanges, remanning. An empty sheet means none.",
)
PURCHASE_KINDS = ("RG", "OB RG", "Fortification", "Chit")
PURCHASES = SheetKind(
    "abtf.purchases", "Purchases {date} {side}",
    (choice("Purchase", PURCHASE_KINDS, width=13), Column("Item", width=14,
                                                           note="RG: its ID; Fortification: its Id on the Fortification "
                                                                "Purchase chart; Chit: Attack or Idle"),
     Column("KG", required=False, width=5, note="a German RG's Kampfgruppe"),
     Column("Count", Kind.INT, required=False, width=6, note="RGs, or fortifications (mine factors, HIP units); default 1"),
     Column("Area", required=False, width=14, note="the Setup or Entry Area the RG or fortification goes to"),
     choice("Front Line", YES_NO, required=False, width=7), Column("Notes", required=False, width=30),
     Column("Offered", required=False, width=50,
            note="written by the form: what the row offers; the row counts only once its Count is given")),
    tab="orders", dated=True, per_side=True, rule="9.617",
    description="A side's secret decisions in RePh part 2: RG purchases (OB RG: an RG of the CG Initial Scenario's OB), "
    "fortifications and the Initiative Chit. An empty sheet means none (a Chit line is needed for every CG Scenario).",
)
RG_RECORD = SheetKind(
    "abtf.rg_record", "RG Record {date}",
    (choice("Side", SIDES, width=9), Column("CG Date", width=9), Column("RG ID", width=8), Column("Group Type", width=22),
     Column("#P", Kind.INT, required=False, width=5), Column("#R", Kind.INT, required=False, width=5),
     Column("Str", required=False, width=5), Column("# Units", required=False, width=14),
     Column("SW Received", required=False, width=22), Column("Leader", required=False, width=10),
     choice("Counts", YES_NO, width=7, note="No: an OB-given or Initial Scenario RG, outside the purchase limits"),
     Column("Notes", required=False, width=30)),
    tab="ledger", dated=True, rule="9.6178",
    description="The RG Purchase Record (9.6178), one line per RG bought or received, oldest first.",
)
CHIT_LIMITS = SheetKind(
    "abtf.chit_limits", "Chit Limits",
    (choice("Side", SIDES, unique=True, width=9), Column("Attack", Kind.INT, required=False, width=8),
     Column("Idle", Kind.INT, required=False, width=8), Column("Notes", required=False, width=40)),
    tab="settings", rule="9.62131",
    description="Most Attack and Idle Chits each side may select in the CG (its CG card, 9.51-9.53).",
)
SETUP = SheetKind(
    "abtf.setup", "Setup {date}",
    (choice("Side", SIDES, unique=True, width=9),
     choice("Set up", YES_NO, width=8, note="Yes once the side has set up all its units, Equipment and Fortifications"),
     Column("Notes", required=False, width=40)),
    tab="results", dated=True, rule="9.6214",
    description="Dual Assault only: the umpire says when both sides have set up (9.6214); the refit then rolls who moves "
    "first (9.6215).",
)
REPORT = SheetKind(
    "abtf.report", "RePh {date} {side}",  # {side} holds the stage: 1 (9.601-9.616), 2 (9.617-9.621), 3 (9.6215)
    (Column("Step", width=22), Column("Rule", width=10), Column("Side", required=False, width=10),
     Column("Subject", required=False, width=22), Column("Table", required=False, width=24),
     Column("Dice", required=False, width=8), Column("Natural", Kind.INT, required=False, width=7),
     Column("Modifiers", required=False, width=44), Column("DRM", Kind.INT, required=False, width=5),
     Column("Final", Kind.INT, required=False, width=6), Column("Result", width=40),
     Column("Odds", required=False, width=8), Column("Visible to", width=10), Column("Label", required=False, width=36),
     Column("Table column", required=False, width=16, note="the table column the roll used"),
     Column("Table result", required=False, width=24, note="the table's own result, for musterroll verify")),
    tab="report", dated=True, rule="9.6",
    description="Every RePh step and roll: dice, each modifier, final number, result and its odds; checklist items.",
)

KINDS = (CG_DATES, REINFORCEMENTS, RG_BRITISH, RG_GERMAN, UNIT_CLASSES, CHIT_LIMITS, UNITS, END, BLOCKS, CG_ROSTER,
         UMPIRE, ORDERS, PURCHASES, RG_RECORD, SETUP, REPORT)

QUALITY_LADDER = ("Conscript", "Green", "2nd Line", "1st Line", "Elite")

# Main-rule values (ASL A1.31, A4.42, A26.2, A15.24) the refit needs; editable on the Unit Classes sheet.
UNIT_CLASS_DEFAULTS = (
    ("Squad", 2, 3, 2, None, "A squad is two HS-equivalents; IPC 3 (A4.42)"),
    ("HS", 1, 2, 1, None, ""),
    ("Crew", 1, 2, 1, None, "The crew of a vehicle or Gun"),
    ("Leader", 0, 1, 1, None, "Leadership DRM from the rating (8-1: -1)"),
    ("Armor Leader", 0, 1, 1, None, "Leadership DRM from the rating"),
    ("Hero", 0, 1, 1, -1, "Hero DRM for the Escape Table"),
    ("SW", 0, 0, 0, None, ""),
    ("Gun", 0, 0, 0, None, "Enter each Gun's CVP on the unit"),
    ("Vehicle", 0, 0, 0, None, "Enter each vehicle's CVP on the unit"),
    ("Vehicular weapon", 0, 0, 0, None, ""),
    ("Fortification", 0, 0, 0, None, ""),
)
