"""Every decision a stopped refit waits for, one per person and sheet.

The refit itself stops at the first sheet it misses (``Spend Dec 23 German``).
Whether the other side must decide too is the refit's own answer, asked again
in memory with a neutral stand-in laid over the first sheet (the views'
:func:`automation.pbem.views.stand_in`); while the refit waits for the umpire,
each side's orders that may already be filled are listed as well. A sheet
whose name is close to one waited for ("Results 11 Jul" for "Results Jul 11")
is pointed out.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from automation.campaign.model import UMPIRE, Waiting
from automation.engine.dice import CampaignKey
from automation.errors import MusterrollError
from automation.workbook.forms.status import STATUS_CELL, Status

MAX_SIDES = 4  # a refit never waits on more sheets of one kind than the campaign has sides


@dataclass(frozen=True)
class Pending:
    """One person's decision: ``who`` fills ``sheet`` with ``what``."""

    who: str
    sheet: str
    what: str
    near: str = ""  # a sheet of the workbook whose name is close to ``sheet``
    form: bool = False  # ``sheet`` is a form (written by the refit): it counts once set to Ready
    more: bool = False  # ``sheet`` is there and answered, and the refit asks for one more entry on it

    @classmethod
    def of(cls, waiting: Waiting, names: Sequence[str], what: str = "") -> Pending:
        return cls(waiting.who, waiting.sheet, what or waiting.what, near_name(waiting.sheet, names))

    def line(self) -> str:
        who = "the umpire" if self.who == UMPIRE else self.who
        hint = (f" (did you mean {self.near!r}? rename it {self.sheet!r})" if self.near else "")
        ready = f"; when it is complete, set {self.sheet}!{STATUS_CELL} to {Status.READY.value}" if self.form else \
            f"; {self.sheet} is already answered: enter it there, on its row if the sheet offers one, else on an " \
            "empty row (the next refit reads the sheet again)" \
            if self.more else ""
        return f"waiting for {self.sheet} ({who} fills it): {self.what}{hint}{ready}"


def _words(name: str) -> list[str]:
    return sorted(re.split(r"\s+", name.strip().lower()))


def near_name(wanted: str, names: Sequence[str]) -> str:
    """A sheet named like ``wanted`` but not exactly: other case or spacing,
    words in another order, or a slip of a letter or two."""
    if wanted in names:
        return ""
    for n in names:
        if _words(n) == _words(wanted):
            return n
    close = difflib.get_close_matches(wanted, list(names), n=1, cutoff=0.85)
    return close[0] if close else ""


def candidates(book: Any) -> list[str]:
    """The sheets that may be a misnamed decision sheet: not a dated sheet of
    the campaign's own dates (``Purchases 17N British`` is no slip for
    ``Purchases 18AM British``)."""
    from automation.pbem.sidesheets import campaign_dates
    from automation.pbem.reports import kind_of, name_parts

    dates = campaign_dates(book)
    out = []
    for name in book.sheet_names:
        kind = kind_of(name)
        if kind is not None and kind.dated and name_parts(kind, name).get("date") in dates:
            continue
        out.append(name)
    return out


def pending(book: Any, key: CampaignKey, waiting: Waiting | None) -> list[Pending]:
    """Every decision the refit of ``book`` waits for (the first is ``waiting``)."""
    return waiting_forms(book, key, waiting)[0]


def waiting_forms(book: Any, key: CampaignKey, waiting: Waiting | None) -> tuple[list[Pending], list[Any]]:
    """Every decision the refit of ``book`` waits for, each marked when its
    sheet is a form, and the forms to add to the workbook for them: one per
    sheet waited for that the workbook does not hold yet and for which the
    campaign's view has a form (``view.form``; None: no form, as for a sheet
    the umpire makes by hand)."""
    from automation.pbem import planning, views

    if waiting is None:
        return [], []
    real = book
    book = planning.answers(book)
    names = candidates(real)  # the workbook's own names: no form parsed for its status to list them
    try:
        planned = planning.plan(book, key)
        view = views.view_for(str(planned.settings.get("Rule system") or ""), book)
    except MusterrollError:
        return [Pending.of(waiting, names)], []
    found = _pending(book, key, waiting, names, planned, view)
    sheets, out = [], []
    for p in found:
        if real.has(p.sheet):  # written before: a form only if it still says so
            unanswered = book.is_unanswered(p.sheet)
            more = not unanswered and p.sheet == waiting.sheet  # the refit's own stop: it needs more on that sheet
            out.append(dataclasses.replace(p, form=unanswered, more=more))
            continue
        taken = any(n.lower() == p.sheet.lower() for n in real.sheet_names)  # "results dec 23": no room for it
        form = None if taken else view.form(book, planned, p.who, p.sheet)
        if form is None:
            out.append(p)
            continue
        sheets.append(form_sheet(form))
        out.append(dataclasses.replace(p, form=True))
    return out, sheets


def form_sheet(form: Any) -> Any:
    """The new sheet that is ``form`` (its rows: the header and the rows offered, for the record)."""
    from automation.workbook.package import NewSheet

    rows = [form.columns] + [[r.values.get(c) for c in form.columns] for r in form.rows]
    return NewSheet(form.name, rows, kind=form.kind.tab, form=form)


def _pending(book: Any, key: CampaignKey, waiting: Waiting, names: list[str], planned: Any,
             view: Any) -> list[Pending]:
    from automation.pbem import planning, views
    from automation.pbem.reports import kind_of

    def what(w: Waiting) -> str:
        return view.sheet_what(planned, w) if w.who != UMPIRE and hasattr(view, "sheet_what") else w.what

    out = [Pending.of(waiting, names, what(waiting))]
    if waiting.who != UMPIRE:
        kind = kind_of(waiting.sheet)
        extra: dict[str, Any] = {}
        current = waiting
        for _ in range(MAX_SIDES):
            extra[current.sheet] = views.stand_in(view, current.sheet, planned)
            try:
                following = planning.plan(planning.Overlay(book, extra), key).waiting
            except MusterrollError:
                break
            if following is None or following.sheet in extra or kind_of(following.sheet) != kind:
                break
            out.append(Pending.of(following, names, what(following)))
            current = following
        return out
    for side in planned.sides:
        decision = view.decision(book, planned, waiting, side)
        if decision.sheet and all(p.sheet != decision.sheet for p in out):
            taken_now = getattr(view, "accepts", lambda *_: False)(decision.sheet, waiting)  # Battlefront Forces
            what = f"{decision.what} (" + (f"to fill before {waiting.sheet}: checked on import)" if taken_now else
                                            f"may be filled now; checked once {waiting.sheet} is in)")
            out.append(Pending(side, decision.sheet, what, near_name(decision.sheet, names)))
    return out
