"""The bundled ASL "A Bridge Too Far" sample campaign (seed 003).

The CG Dates (CPP Base Number Chart with its Campaign Exhaustion DRM) and the
Reinforcement Schedule come from the seed, through the rules file. The Blocks,
their Strategic Locations, the roster, both RG charts and the starting SAN, ELR
and CPP are ILLUSTRATIVE (invented for the sample and marked so in the
workbook): the module's map, counters and CG cards are not in the seed.
``python -m automation.samples_abtf`` rebuilds samples/a_bridge_too_far.xlsx;
its key file is public, as a sample's key is. ``play`` runs the RePh before the
Initial Scenario, enters the end of the sample's first CG Scenario (Block C as
in the example of 9.6053), both sides' orders and purchases, and refits 18AM,
as an umpire and two players would.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from automation.engine.dice import CampaignKey
from automation.workbook import abtf_sheets as K

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "a_bridge_too_far.xlsx"
SAMPLE_KEY = CampaignKey.from_text("A Bridge Too Far: public sample key")
ILLUSTRATIVE = "ILLUSTRATIVE: invented for the sample"
START = "Start"


BLOCKS = [
    # Area, Kind, Side, Strategic Locations, Controlled by, Notes
    ["A", "Block", None, "A2, A5", "British", ILLUSTRATIVE],
    ["B", "Block", None, "B4", "British", ILLUSTRATIVE],
    ["C", "Block", None, "C3, C5, C6, n", "British", "ILLUSTRATIVE; hex n as in the example of 9.6053"],
    ["D", "Block", None, "D1, D7", "British", ILLUSTRATIVE],
    ["E", "Block", None, "E2, E4", "German", ILLUSTRATIVE],
    ["F", "Block", None, "F3", "German", ILLUSTRATIVE],
    ["G", "Block", None, "G1, G6", "German", ILLUSTRATIVE],
    ["H", "Block", None, "H2, H3", "British", "ILLUSTRATIVE; Sudden Death Block (9.6212)"],
    ["R", "Block", None, None, None, "ILLUSTRATIVE: road hexes, no Strategic Location"],
    ["North Entry", "Entry Area", "British", None, None, ILLUSTRATIVE],
    ["East Entry", "Entry Area", "German", None, None, ILLUSTRATIVE],
    ["South Entry", "Entry Area", "German", None, None, ILLUSTRATIVE],
]


def _u(side: str, unit: str, cls: str, type_: str, strength: str | None, area: str, location: str | None = None, *,
       holder: str | None = None, status: str | None = None, vehicle: str | None = None, pp: int | None = None,
       repair: int | None = None, quality: str | None = None, cvp: int | None = None, half: str | None = None,
       replaced: str | None = None, morale: int | None = None, ammo: str | None = None, rg: str | None = None) -> list[Any]:
    return [side, unit, cls, type_, strength, morale, quality, area, location, holder, status, vehicle, pp, repair, ammo,
            cvp, half, replaced, rg, ILLUSTRATIVE]


UNITS: list[list[Any]] = [
    _u("British", "B-1", "Squad", "Para", "6-5-8", "C", "C4", quality="Elite", half="3-4-8", replaced="4-5-8"),
    _u("British", "B-2", "Squad", "Para", "6-5-8", "D", "D1", quality="Elite", half="3-4-8", replaced="4-5-8"),
    _u("British", "B-3", "HS", "Para", "3-3-8", "C", "n", quality="1st Line", half="6-4-8"),
    _u("British", "B-4", "HS", "Para", "3-4-8", "A", "A2", quality="Elite", half="6-5-8"),
    _u("British", "B-5", "HS", "Para", "3-4-8", "A", "A5", quality="Elite", half="6-5-8"),
    _u("British", "B-6", "Squad", "Para", "6-5-8", "B", "B4", quality="Elite", half="3-4-8", replaced="4-5-8"),
    _u("British", "B-7", "Squad", "Para", "6-5-8", "D", "D7", quality="Elite", half="3-4-8", replaced="4-5-8"),
    _u("British", "B-L1", "Leader", "Lt.", "7-0", "C", "n", cvp=1),
    _u("British", "B-L2", "Leader", "Maj.", "9-2", "A", "A2", holder="B-4", cvp=2),
    _u("British", "B-Hero", "Hero", "Hero", "1-4-9", "D", "D1", cvp=1),
    _u("British", "B-LMG1", "SW", "LMG", None, "C", "C4", holder="B-1", pp=2, repair=1),
    _u("British", "B-PIAT1", "SW", "PIAT", None, "D", "D1", holder="B-2", pp=1, repair=1),
    _u("British", "B-LMG2", "SW", "LMG", None, "D", "D7", holder="B-7", pp=2, repair=1),
    _u("German", "G-1", "Squad", "SS", "6-5-8", "E", "E2", quality="Elite", half="3-4-8", replaced="4-4-7"),
    _u("German", "G-2", "Squad", "SS", "4-6-7", "E", "E4", quality="1st Line", half="2-4-7", replaced="4-4-7"),
    _u("German", "G-3", "Squad", "VG", "4-4-7", "F", "F3", quality="2nd Line", half="2-3-7", replaced="4-3-6"),
    _u("German", "G-4", "Squad", "SS", "4-6-7", "G", "G1", quality="1st Line", half="2-4-7", replaced="4-4-7"),
    _u("German", "G-L1", "Leader", "Ostuf.", "8-1", "E", "E2", holder="G-1", cvp=1),
    _u("German", "G-L2", "Leader", "Hstuf.", "9-1", "F", "F3", cvp=2),
    _u("German", "G-MMG1", "SW", "MMG", None, "F", "F3", holder="G-3", pp=4, repair=1),
    _u("German", "G-V1", "Vehicle", "PzKpfw IIIL", None, "E", "E4", vehicle="CT AFV", cvp=4, morale=8),
    _u("German", "G-V1-MA", "Vehicular weapon", "MA 50LL", None, "E", "E4", holder="G-V1", repair=1, ammo="APCR"),
    _u("German", "G-V1-CMG", "Vehicular weapon", "CMG", None, "E", "E4", holder="G-V1", repair=1),
    _u("German", "G-V2", "Vehicle", "SPW 250/1", None, "G", "G6", vehicle="OT AFV", cvp=2, morale=8),
    _u("German", "G-F1", "Fortification", "Foxhole (2-squad)", None, "G", "G1"),
]

CG_ROSTER = [
    # CG Date, Side, Scenario, Chit, Final CVP, RePh CVP, CPP replenished, CPP spent, CPP left, FPP, SAN, ELR,
    # Ammunition shortage, Attack chits, Idle chits, A-T mines, Weather, EC, Wind, RG purchased, Notes
    ["17N", "British", "Initial", None, None, None, None, None, 24, 0, 3, 5, 0, 0, 0, 0, None, None, None, None,
     ILLUSTRATIVE],
    ["17N", "German", "Initial", None, None, None, None, None, 20, 10, 2, 4, 0, 0, 0, 0, None, None, None, None,
     ILLUSTRATIVE],
]

RG_BRITISH = [
    # ID, Group Type, CPP Cost, Full, Depleted, Unit Type, CG Date Max, CG Max, Depletion, Leader, Vehicle, Leader DRM, Notes
    ["I1", "Para Pltn", 10, 3, 2, "6-5-8", 1, 4, "Yes", "Infantry", None, None, ILLUSTRATIVE],
    ["I2", "Para Pltn (mortar)", 9, 3, 2, "6-5-8", 1, 3, "Yes", "Infantry", None, None, ILLUSTRATIVE],
    ["I3", "Engineer Pltn", 12, 3, 2, "6-4-8 engineer", 1, 2, "Yes", "Infantry", None, "engineer", ILLUSTRATIVE],
    ["I4", "Commando Pltn", 14, 3, 2, "6-5-8 commando", 1, 1, "Yes", "Infantry", None, "commando", ILLUSTRATIVE],
    ["G1", "Glider Pltn", 9, 3, 2, "6-4-8", 1, 2, "Yes", "Infantry", None, "glider", ILLUSTRATIVE],
    ["A1", "Recon Jeeps", 8, 2, None, "Jeep", 1, 1, "No", "None", "Unarmored", None, ILLUSTRATIVE],
]
RG_GERMAN = [
    # ID, KG, Group Type, CPP Cost, Full, Depleted, Unit Type, CG Date Max, CG Max, Depletion, Leader, Vehicle, Leader DRM,
    # Notes
    ["I1", "K", "SS Rifle Pltn", 8, 3, 2, "6-5-8", 2, 6, "Yes", "Infantry", None, "ss_pg", "ILLUSTRATIVE; I1(K) as in 9.6178"],
    ["I1", "S", "SS Rifle Pltn", 8, 3, 2, "4-6-7", 2, 4, "Yes", "Infantry", None, "ss_pg", ILLUSTRATIVE],
    ["I2", "K", "Pioneer Pltn", 10, 3, 2, "4-6-7 engineer", 1, 3, "Yes", "Infantry", None, "engineer", ILLUSTRATIVE],
    ["I3", "S", "Volksgrenadier Pltn", 6, 3, 2, "4-4-7", 2, 5, "Yes", "Infantry", None, "vg", ILLUSTRATIVE],
    ["A2", "B", "Panzer Pltn", 16, 2, None, "see 9.6184", 1, 2, "No", "Armor", "CT AFV", "med_tank", ILLUSTRATIVE],
    ["A3", "B", "Heavy Panzer Pltn", 20, 2, None, "see 9.6184", 1, 1, "No", "Armor", "CT AFV", "hvy_tank", ILLUSTRATIVE],
    ["A4", "G", "StuG Pltn (KG Graebner)", 14, 2, None, "StuG IIIG(L)", 1, 2, "No", "Armor", "CT AFV", "spg", ILLUSTRATIVE],
]

CHIT_LIMITS = [["British", 6, 4, ILLUSTRATIVE], ["German", 7, 3, ILLUSTRATIVE]]

# ---------------------------------------------------------------- the first scenario, played
# The end of the 17N CG Scenario: the Germans took Block C but for hex n (the example of 9.6053).
END_17N: list[list[Any]] = [
    _u("British", "B-1", "Squad", "Para", "6-5-8", "C", "C4", quality="Elite", half="3-4-8", replaced="4-5-8",
       status="Eliminated"),
    _u("British", "B-2", "Squad", "Para", "6-5-8", "D", "D1", quality="Elite", half="3-4-8", replaced="4-5-8"),
    _u("British", "B-3", "HS", "Para", "3-3-8", "C", "n", quality="1st Line", half="6-4-8"),
    _u("British", "B-4", "HS", "Para", "3-4-8", "A", "A2", quality="Elite", half="6-5-8"),
    _u("British", "B-5", "HS", "Para", "3-4-8", "A", "A5", quality="Elite", half="6-5-8"),
    _u("British", "B-6", "Squad", "Para", "6-5-8", "B", "B4", quality="Elite", half="3-4-8", replaced="4-5-8",
       status="Encircled"),
    _u("British", "B-7", "Squad", "Para", "6-5-8", "E", "E3", quality="Elite", half="3-4-8", replaced="4-5-8"),
    _u("British", "B-L1", "Leader", "Lt.", "7-0", "C", "n", cvp=1, status="Wounded"),
    _u("British", "B-L2", "Leader", "Maj.", "9-2", "A", "A2", holder="B-4", cvp=2),
    _u("British", "B-Hero", "Hero", "Hero", "1-4-9", "D", "D1", cvp=1),
    _u("British", "B-PIAT1", "SW", "PIAT", None, "D", "D1", holder="B-2", pp=1, repair=1),
    _u("British", "B-LMG2", "SW", "LMG", None, "E", "E3", holder="B-7", pp=2, repair=1, status="Malfunctioned"),
    _u("British", "B-LMG1", "SW", "LMG", None, "C", "C4"),
    _u("German", "G-1", "Squad", "SS", "6-5-8", "C", "C3", quality="Elite", half="3-4-8", replaced="4-4-7"),
    _u("German", "G-2", "Squad", "SS", "4-6-7", "C", "C6", quality="1st Line", half="2-4-7", replaced="4-4-7"),
    _u("German", "G-3", "Squad", "VG", "4-4-7", "F", "F3", quality="2nd Line", half="2-3-7", replaced="4-3-6"),
    _u("German", "G-4", "Squad", "SS", "4-6-7", "G", "G1", quality="1st Line", half="2-4-7", replaced="4-4-7"),
    _u("German", "G-L1", "Leader", "Ostuf.", "8-1", "C", "C3", holder="G-1", cvp=1),
    _u("German", "G-L2", "Leader", "Hstuf.", "9-1", "F", "F3", cvp=2, status="Wounded"),
    _u("German", "G-MMG1", "SW", "MMG", None, "F", "F3", holder="G-3", pp=4, repair=1, status="Malfunctioned"),
    _u("German", "G-V1", "Vehicle", "PzKpfw IIIL", None, "C", "C5", vehicle="CT AFV", cvp=4, morale=8, status="Immobile"),
    _u("German", "G-V1-MA", "Vehicular weapon", "MA 50LL", None, "C", "C5", holder="G-V1", repair=1, ammo="APCR"),
    _u("German", "G-V1-CMG", "Vehicular weapon", "CMG", None, "C", "C5", holder="G-V1", repair=1),
    _u("German", "G-V2", "Vehicle", "SPW 250/1", None, "G", "G6", vehicle="OT AFV", cvp=2, morale=8, status="Stunned"),
    _u("German", "G-F1", "Fortification", "Foxhole (2-squad)", None, "G", "G1"),
]
UMPIRE_18AM: list[list[Any]] = [
    # Entry, Subject, Value, Area, Hexes, Notes
    ["Final CVP", "British", 0, None, None, "no German unit was eliminated in play"],
    ["Final CVP", "German", 2, None, None, "B-1 (a squad: 2 CVP) fell in Block C; End 17N lists it Eliminated"],
    ["Melee", "C4", "none left", None, None, "checklist only"],
    ["Location control", "C3", "German", "C", None, None],
    ["Location control", "C5", "German", "C", None, None],
    ["Location control", "C6", "German", "C", None, None],
    ["Retain", "C3", None, "F", None, "along the road (9.6053 example)"],
    ["Retain", "C6", None, "F", None, None],
    ["Retain", "G-V1", None, "F", None, "the PzKpfw IIIL crew"],
    ["Escape", "E3", None, "D", 3, "no path for B-7 (E3 is not a Strategic Location: no forfeiture)"],
]
ORDERS_18AM: dict[str, list[list[Any]]] = {
    # Order, Subject, Value, Units, Path, Notes
    "British": [["Battle Harden", "B-2", None, "B-Hero", None, "Elite: becomes Fanatic"]],
    "German": [["Shift", "Kampfgruppe move", "F", "G-4", "U2", "from G to F"]],
}

ORDERS_18AM_FORM: dict[str, list[list[Any]]] = {  # as picked on the forms: the offered Battle Harden row takes Yes
    "British": [["Battle Harden", "B-2", "Yes", "B-Hero", None, "Elite: becomes Fanatic"]],
    "German": ORDERS_18AM["German"],
}


PURCHASES_17N: dict[str, list[list[Any]]] = {
    # Purchase, Item, KG, Count, Area, Front Line, Notes
    "British": [["OB RG", "I1", None, 1, "D", None, "ILLUSTRATIVE: the Initial Scenario's OB"]],
    "German": [["OB RG", "I1", "K", 1, "E", None, "ILLUSTRATIVE: the Initial Scenario's OB"],
               ["RG", "I3", "S", 1, "F", None, None],
               ["Fortification", "foxhole_3", None, 1, "G", None, None]],
}
PURCHASES_18AM: dict[str, list[list[Any]]] = {
    "British": [["RG", "I3", None, 1, "A", None, None], ["Chit", "Idle", None, None, None, None, None]],
    "German": [["RG", "I1", "K", 1, "F", None, None], ["Fortification", "wire", None, 1, "F", None, None],
               ["Fortification", "ap_mine_factor_german", None, 3, "G", None, None],
               ["Chit", "Attack", None, None, None, None, None]],
}


def build_sample(path: Path = SAMPLE) -> Path:
    from automation.rulebook import load_rulebook
    from automation.workbook.campaign_sheets import default_lists
    from automation.workbook.template import SheetContent, system_sheets, write_workbook

    from automation.workbook.abtf_output import reinforcement_rows

    system = load_rulebook().system("asl-abtf")
    schedule = reinforcement_rows(system)
    for row in schedule:  # the seed gives no KG for the German 19AM RGs
        if row[1] == "German" and row[2] == "RG":
            row[5] = "K"
            row[10] = f"{row[10]}; KG: {ILLUSTRATIVE}"
    data = {K.REINFORCEMENTS.id: schedule, K.RG_BRITISH.id: RG_BRITISH, K.RG_GERMAN.id: RG_GERMAN, K.BLOCKS.id: BLOCKS, K.UNITS.id: UNITS,
            K.CG_ROSTER.id: CG_ROSTER, K.CHIT_LIMITS.id: CHIT_LIMITS}
    sheets = [SheetContent(s.kind, s.name, data.get(s.kind.id, s.rows))
              for s in system_sheets(system, "A Bridge Too Far (sample)", SAMPLE_KEY.commitment)]
    path.parent.mkdir(parents=True, exist_ok=True)
    write_workbook(path, sheets, default_lists(system))
    path.with_suffix(".key").write_text(SAMPLE_KEY.to_hex() + "\n")
    return path


def enter_purchases(book: Path, date: str, purchases: dict[str, list[list[Any]]]) -> None:
    """Each side's secret purchases and chit for the RePh of ``date``."""
    from automation.samples import whole_sheet as _sheet
    from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms

    append_sheets(book, [_sheet(K.PURCHASES.name_for(date=date, side=s), K.PURCHASES, rows, "orders")
                         for s, rows in purchases.items()], batch=f"Purchases {date}")


def end_17n(book: Path) -> list[list[Any]]:
    """The End 17N sheet: END_17N for the units the scenario changed, and every
    other unit of Units 17N (the RGs and fortifications received at 17N) as the
    refit wrote it: the End sheet accounts for every unit (9.603)."""
    from automation.workbook.reader import Workbook

    changed = {row[1] for row in END_17N}
    rows = Workbook(book).raw(K.UNITS.name_for(date="17N"))[1:]
    kept = [list(r) + [None] * (len(K.END.columns) - len(r)) for r in rows if r and r[1] not in changed]
    return [list(r) for r in END_17N] + kept


def enter_first_scenario(book: Path, end: list[list[Any]] | None = None, umpire: list[list[Any]] | None = None,
                         orders: dict[str, list[list[Any]]] | None = None) -> None:
    """What the umpire and the players enter after the 17N CG Scenario, as
    whole sheets (the tests' shortcut; ``musterroll demo abtf`` fills the forms)."""
    from automation.samples import whole_sheet as _sheet
    from automation.workbook.forms.enter import enter as append_sheets  # in place of the refit's forms

    append_sheets(book, [_sheet(K.END.name_for(date="17N"), K.END, end_17n(book) if end is None else end, "results"),
                         _sheet(K.UMPIRE.name_for(date="18AM"), K.UMPIRE, UMPIRE_18AM if umpire is None else umpire,
                                "results")], batch="End of 17N")
    append_sheets(book, [_sheet(K.ORDERS.name_for(date="18AM", side=s), K.ORDERS, rows, "orders")
                         for s, rows in (ORDERS_18AM if orders is None else orders).items()], batch="Orders 18AM")


def play(book: Path) -> list[Any]:
    """The RePh before the Initial Scenario (purchases entered when it asks), the
    end of 17N and the orders, then the RePh of 18AM with its purchases."""
    from automation.service import refit

    outcomes = [refit(book)]
    enter_purchases(book, "17N", PURCHASES_17N)
    outcomes.append(refit(book))
    enter_first_scenario(book)
    outcomes.append(refit(book))
    enter_purchases(book, "18AM", PURCHASES_18AM)
    outcomes.append(refit(book))
    return outcomes


def run_demo(folder: Path) -> Path:
    """``musterroll demo abtf``: copy the sample (with its key) into ``folder``
    and play it as :func:`play` does, printing each refit's summary: every
    decision it waits for, one line each, and what was entered for it."""
    from automation.samples import demo_copy
    from automation.service import refit

    book = demo_copy(SAMPLE, folder)

    from automation.samples_demo import as_lines, by_umpire, through_forms

    def purchases(date: str, rows: dict[str, list[list[Any]]]) -> Any:
        return lambda: through_forms(book, {K.PURCHASES.name_for(date=date, side=s): as_lines(K.PURCHASES, r)
                                            for s, r in rows.items()})

    steps = [("== 17N: the RePh before the CG Initial Scenario", None),
             ("== each side fills its Purchases form for 17N (OB RGs, fortifications)", purchases("17N", PURCHASES_17N)),
             ("== 17N is played: the refit writes the umpire's End 17N form and each side's 18AM Orders form", None),
             ("== the umpire fills End 17N (the units the scenario changed) in the campaign workbook",
              lambda: by_umpire(book, K.END.name_for(date="17N"), as_lines(K.END, END_17N), keys=("Side", "Unit"))),
             ("== the umpire fills Umpire 18AM; the players fill their 18AM orders",
              lambda: (by_umpire(book, K.UMPIRE.name_for(date="18AM"), as_lines(K.UMPIRE, UMPIRE_18AM)),
                       through_forms(book, {K.ORDERS.name_for(date="18AM", side=s): as_lines(K.ORDERS, r)
                                            for s, r in ORDERS_18AM_FORM.items()}))),
             ("== each side fills its Purchases form for 18AM (RGs, fortifications, Initiative Chit)",
              purchases("18AM", PURCHASES_18AM))]
    for title, enter in steps:
        print(title)
        if enter is not None:
            enter()
        print(refit(book).summary())
    print(f"\nThe campaign workbook is {book.resolve()}")
    return book


if __name__ == "__main__":  # pragma: no cover
    print(build_sample())
