"""The demo's played scenario and orders for the Advance to Rostov sample
(illustrative, as a umpire and two players would enter them), and the demo
that plays them on a copy of the sample (:func:`run_demo`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from automation.samples import SAMPLE, SAMPLE_KEY, demo_copy
from automation.workbook import bf_sheets as K

SPEND_DEC23 = {
    "German": [["Purchase", "O3", 2, "the 2.1.1.4.3 example: two medium artillery battalions"],
               ["Preregistered points", "O3", 1, None],
               ["Fortification", "Minefield section", 1, None]],
    "Russian": [["Purchase", "I1", 1, None], ["Purchase", "F1", 1, None], ["Extra CPP", "F1", 1, None]],
}
RESULTS_DEC23: list[list[Any]] = [
    # Side, Stand, Outcome, KO by, Ends in, Situation, In minefield, Near friendly lines, Turns isolated, Turns cut off,
    # Kills by fire, CC wins, CC losses, Notes
    ["German", "G-Pz-2", "Knocked out", "Direct fire", "Own lines", None, None, None, None, None, 2, None, None, None],
    ["German", "G-Pz-4", "Abandoned", None, "Enemy lines", None, None, None, None, None, 1, None, None, None],
    ["German", "G-Pz-3", "Unharmed", None, None, None, None, None, None, None, 1, None, None, None],
    ["German", "G-PzG-3", "Knocked out", "Indirect fire", None, None, None, None, None, None, None, None, None, None],
    ["German", "G-PzG-4", "Unharmed", None, None, None, None, None, None, None, 2, 1, None, None],
    ["German", "O3-1 OBA", "Used", None, None, None, None, None, None, None, None, None, None, None],
    ["Russian", "R-T34-2", "Knocked out", "Direct fire", "Enemy lines", None, None, None, None, None, None, None, None, None],
    ["Russian", "R-T34-3", "Knocked out", "Direct fire", "Own lines", None, "Yes", None, None, None, 1, None, None, None],
    ["Russian", "R-T34-4", "Unharmed", None, None, None, None, None, None, None, 1, None, None, None],
    ["Russian", "R-1RR-2", "Knocked out", "Direct fire", None, None, None, None, None, None, None, None, 1, None],
    ["Russian", "R-1RR-3", "Knocked out", "Close combat", None, None, None, None, None, None, None, None, 1, None],
    ["Russian", "R-1RR-4", "Knocked out", "Indirect fire", None, None, None, None, None, None, None, None, None, None],
    ["Russian", "R-1RR-5", "Panicked", None, None, None, None, None, None, None, None, None, None, None],
    ["Russian", "R-1RR-6", "Panicked", None, None, None, None, None, None, None, None, None, None, None],
    ["Russian", "R-1RR-7", "Unharmed", None, "Enemy lines", "Cut off", None, None, None, 2, 1, None, None, None],
    ["Russian", "R-1RR-11", "Unharmed", None, "Enemy lines", "Isolated", None, "Yes", 3, None, 1, None, None, None],
]
ORDERS_DEC24 = {
    "German": [["Posture", None, "Attack", None]],
    "Russian": [["Posture", None, "Attack", None], ["Escape", "R-1RR-7", "Yes", None]],
}
SPEND_DEC24 = {
    "German": [["Repair", "G-Pz-2", 1, "spend the one CPP allowed"],
               ["Removal", "R-T34-2", None, "destroy the T-34 wreck behind our lines"],
               ["Removal", "Wire north of the kolkhoz", None, "near MLR"]],
    "Russian": [["Purchase", "A2", 1, None]],
}


def spend_dec24_form() -> dict[str, list[list[Any]]]:
    """SPEND_DEC24 as a player picks it on the form: the enemy wreck by the
    alias the export shows, its removal chosen with Yes (2.1.1.5.1)."""
    from automation.pbem.sidesheets import alias

    german = [["Repair", "G-Pz-2", 1, "spend the one CPP allowed"],
              ["Removal", alias(SAMPLE_KEY, "R-T34-2"), "Yes", "destroy the T-34 wreck behind our lines"],
              ["Removal", "Wire north of the kolkhoz", None, "near MLR"]]
    return {"German": german, "Russian": SPEND_DEC24["Russian"]}


def by_umpire(book: Path, sheet: str, lines: list[dict[str, Any]], keys: tuple[str, ...] = ()) -> None:
    """The umpire answers the master's form ``sheet`` as in Excel: types the
    lines into the rows it offers (found by ``keys`` if given) or its free
    rows, and sets it to Ready."""
    from automation.workbook.forms.fill import fill_in_place

    fill_in_place(book, sheet, lines, keys=keys)
    print(f"  the umpire fills {sheet} in the campaign workbook ({len(lines)} line(s)) and sets it to Ready")


def as_lines(kind, rows) -> list[dict[str, Any]]:
    """Sheet rows as the lines a form is filled with (column name -> value)."""
    return [dict(zip(kind.header, r)) for r in rows]


def through_forms(book: Path, answers: dict[str, list[dict[str, Any]]]) -> None:
    """Each side answers its form as a player does: the umpire exports it, the
    player fills the exported form (only values its dropdowns and validations
    offer) and sends it back, and the umpire imports it in place of the
    master's unanswered form. ``answers``: sheet -> its lines."""
    from automation.pbem.export import export
    from automation.pbem.importer import import_orders
    from automation.workbook.forms.fill import fill

    for sheet, lines in answers.items():
        side = sheet.split()[-1]
        sent = book.parent / f"{sheet}.xlsx"
        export(book, side, sent)
        fill(sent, sheet, lines)
        done = import_orders(book, sent).rpartition(": ")[2]
        print(f"  {side} fills {sheet} in the export and sends it back: {done} imported")
        sent.unlink()


def _refit(book: Path) -> None:
    from automation.service import refit

    outcome = refit(book)
    print(outcome.summary())  # every roll, as `musterroll refit` prints them


def play(book: Path) -> None:
    print("== Dec 23: the first scenario's refit (postures set on the Sides sheet)")
    _refit(book)
    through_forms(book, {K.SPEND.name_for(date="Dec 23", side=s): as_lines(K.SPEND, rows)
                         for s, rows in SPEND_DEC23.items()})
    _refit(book)
    print("== Dec 23 is played: the refit writes the umpire's Results form and each side's Dec 24 Orders form")
    _refit(book)
    print("== the umpire fills the results in the campaign workbook; the players fill their orders")
    by_umpire(book, K.RESULTS.name_for(date="Dec 23"), as_lines(K.RESULTS, RESULTS_DEC23))
    through_forms(book, {K.ORDERS.name_for(date="Dec 24", side=s): as_lines(K.ORDERS, rows)
                         for s, rows in ORDERS_DEC24.items()})
    _refit(book)
    through_forms(book, {K.SPEND.name_for(date="Dec 24", side=s): as_lines(K.SPEND, rows)
                         for s, rows in spend_dec24_form().items()})
    _refit(book)


def run_demo(folder: Path) -> Path:
    """Copy the sample (with its key) into ``folder``, enter a played
    scenario's results and both sides' orders, and refit, printing a summary."""
    book = demo_copy(SAMPLE, folder)
    play(book)
    print(f"\nThe campaign workbook is {book.resolve()}")
    return book
