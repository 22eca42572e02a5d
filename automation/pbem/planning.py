"""Planning a refit in memory.

:func:`prepare` reads a workbook and runs its refit in memory (what
`musterroll refit` runs: same campaign system, same workbook tables, same key
check), keeping the run, whose state is where the refit stops (e.g. each
side's CPP after the CPP roll), which an export shows its player;
:func:`plan_refit` adds the sheets the refit would append (what `musterroll
refit` seals and writes, :mod:`automation.service`), and :func:`plan` says
the campaign's end as such. :class:`Overlay` is a workbook with extra
sheets laid over it in memory: an import plans the refit on the master plus the
returned orders, so the refit's own validation checks them.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from automation.campaign.model import Dice, Entry, RefitRun, Waiting
from automation.engine.dice import CampaignKey
from automation.errors import CellProblem, UsageError, WorkbookError
from automation.systems import BookSource, CampaignSystem


@dataclass
class Planned:
    system: CampaignSystem
    inputs: Any
    run: RefitRun[Any]
    settings: dict[str, Any]

    @property
    def waiting(self) -> Waiting | None:
        return self.run.waiting

    @property
    def date(self) -> str:
        return self.system.date_of(self.inputs)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(self.system.side_names(self.inputs))


NOT_FORMS = ("report", "ledger", "roster", "log")  # tabs of the sheets a refit writes as results


def may_be_form(name: str) -> bool:
    """Whether sheet ``name`` can be a form (a dated decision sheet: orders,
    results, setup); the others are never parsed for a status cell."""
    return bool(forms_among([name]))


def forms_among(names: Sequence[str]) -> list[str]:
    """The sheets of ``names`` that can be forms (:func:`may_be_form`), in
    order, their kinds told by one matcher (a long campaign lists a thousand
    sheets on every command)."""
    from automation.pbem.reports import kinds_ready

    kind = kinds_ready().kind
    return [name for name in names if (k := kind(name)) is not None and k.dated and k.tab not in NOT_FORMS]


TOLD_AGAIN = 48  # sheets added since a file's forms were kept whole: past this many, they are kept whole again


def answers(book: Any) -> Any:
    """``book`` with its unanswered forms left out (automation.workbook.forms.status),
    unless it is such a view already. Whether a dated decision sheet is a form
    not yet answered is carried from run to run (automation.pbem.carry, by the
    sheet's part stamp: setting B2 changes the part, and it is read again), so
    the forms of past dates are not parsed on every command. Which sheets are
    forms not yet answered is kept with what the gate found in the file
    (:class:`automation.workbook.gatememo.Forms`), and an append carries it to
    the file it writes: a command on a long campaign tells only the sheets
    added since, not each of its thousand sheets."""
    from automation.cachesetting import code_stamp
    from automation.workbook.forms.status import answered, unanswered
    from automation.workbook.gatememo import Forms

    if getattr(book, "answers_only", False):
        return book
    carried = _status_store(book)
    if carried is None:
        return answered(book, may_be_form)

    def waiting(name: str) -> bool:
        return carried.get("unanswered", name, lambda: unanswered(book.raw(name)))

    gate, stamp = getattr(book, "gate", None), code_stamp()
    kept = getattr(gate, "forms", None)
    if kept is not None and kept.stamp == stamp:  # told for a file with this zip directory: only what was added since
        pending = set(kept.pending) | {name for name in kept.unknown if book.has(name) and may_be_form(name)
                                       and waiting(name)}
    else:
        pending = {name for name in forms_among(book.sheet_names) if waiting(name)}
    carried.save()
    if gate is not None and (kept is None or kept.stamp != stamp or len(kept.unknown) > TOLD_AGAIN):
        gate.keep_forms(Forms(stamp, tuple(sorted(pending))))
    return answered(book, pending.__contains__)


def _status_store(book: Any) -> Any:
    """The carried store of a workbook file (None for a book in memory)."""
    from automation.pbem.carry import Carried

    if getattr(book, "part_stamp", None) is None or getattr(book, "decrypted", False) or not hasattr(book, "path"):
        return None
    store = Carried.of(book, "form status")
    return store if store.folder is not None else None


class CampaignOver(UsageError):
    """Every date of the campaign has been refitted: no decision is pending."""


def plan(book: Any, key: CampaignKey) -> Planned:
    """The refit planned in memory (:func:`prepare`), the campaign's end said as such."""
    try:
        return prepare(book, key)
    except WorkbookError as exc:
        if len(exc.problems) == 1 and "every date's refit is done" in exc.problems[0].message:
            raise CampaignOver(f"{book.path}: {exc.problems[0]}") from None
        raise


class Overlay:
    """``book`` with ``extra`` sheets (name -> raw rows, header first) added in memory."""

    def __init__(self, book: Any, extra: Mapping[str, Sequence[Sequence[Any]]]) -> None:
        self.book = book
        self.extra = {name: [list(r) for r in rows] for name, rows in extra.items()}
        self.path = book.path
        self.answers_only = getattr(book, "answers_only", False)
        self.sheet_names = list(book.sheet_names) + [n for n in self.extra if n not in book.sheet_names]

    @property
    def gate(self) -> Any:
        return self.book.gate

    def has(self, name: str) -> bool:
        return name in self.extra or self.book.has(name)

    def raw(self, name: str) -> list[list[Any]]:
        if name in self.extra:
            return [list(r) for r in self.extra[name]]
        return self.book.raw(name)

    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[Any]:
        from automation.workbook.reader import validate_rows

        name = name or kind.title
        if name in self.extra:
            return validate_rows(name, kind, self.raw(name), lists or {}, str(self.path))
        return self.book.read(kind, name, lists)

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        return self.book.read_lists(name)


def master_key(book_path: Path, key_file: Path | None, commitment: str) -> CampaignKey:
    from automation.keys import key_path_for, read_key

    return read_key(key_path_for(Path(book_path), key_file), commitment)


def settings_of(book: Any) -> dict[str, Any]:
    from automation.workbook.tables_io import campaign_settings

    return dict(campaign_settings(book))


def problem_list(exc: WorkbookError) -> list[CellProblem]:
    return list(exc.problems)


@dataclass
class RefitOutcome:
    path: Path
    system: str
    date: str | None
    written: list[str] = field(default_factory=list)
    waiting: Waiting | None = None
    entries: list[Entry] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    pending: list[Any] = field(default_factory=list)  # automation.pbem.pending.Pending: every decision waited for
    forms: list[str] = field(default_factory=list)  # the forms written for the decisions waited for

    def summary(self, quiet: bool = False) -> str:
        """What the refit did: the sheets written, every roll (what it was for,
        the dice, each modifier, the final number and the result) and what the
        refit waits for. ``quiet``: the sheets and the wait only."""
        lines = [f"{self.path}: refit of {self.date}"]
        lines += [f"  wrote {n}" for n in self.written] + [f"  wrote the form {n}" for n in self.forms] \
            or ["  nothing new to write"]
        rolls = [e for e in self.entries if e.roll is not None]
        if rolls and not quiet:
            lines.append(f"  rolls ({len(rolls)}):")
            lines += [f"    {roll_line(e)}" for e in rolls]
        if self.pending:
            lines += [f"  {p.line()}" for p in self.pending]
        elif self.waiting:
            lines.append(f"  {self.waiting} (to be decided by {self.waiting.who})")
        elif self.date:
            lines.append(f"  {self.date}: refit complete")
        return "\n".join(lines)


def roll_line(entry: Entry) -> str:
    """One roll as a line: 'CPP replenishment, German: d10 [6], -2 Historical DRM -> 4: +10 CPP'."""
    r = entry.roll
    assert r is not None
    subject = entry.subject.strip()
    who = entry.side if entry.side and entry.side != subject else ""
    title = ", ".join(p for p in (entry.step, who, subject) if p)
    mods = ", ".join(f"{m.value:+d} {m.name}" for m in r.modifiers) or "no modifiers"
    return f"{title}: {r.dice_kind.value} {list(r.dice)}, {mods} -> {r.final}: {entry.text}"


def prepare(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None) -> Planned:
    """Read ``book`` and run its refit in memory, keeping the run.

    ``book`` is the file adapter's :class:`Workbook` (or another BookSource
    going through the same sheet contract). The key
    is given, or read from ``key_file`` (default: BOOK.key beside the book)."""
    from automation.keys import key_path_for, read_key
    from automation.systems import campaign_system
    from automation.workbook.tables_io import campaign_settings, system_from_workbook, system_of

    book = answers(book)  # a form not yet answered is not there
    settings = campaign_settings(book)
    base = system_of(book, settings)
    cs = campaign_system(base.id)
    if cs is None:
        raise UsageError(f"{book.path}: refits of {base.id} campaigns are not available")
    commitment = str(settings.get("Key commitment") or "").strip()
    if key is None:
        key = read_key(key_path_for(Path(book.path), key_file), commitment)
    elif commitment and key.commitment != commitment:
        raise UsageError(f"{book.path}: the key given does not match the workbook's commitment (Campaign!B4)")
    system = system_from_workbook(book, base)
    inputs, state = cs.load(book, system, settings)
    run = cs.refit(state, inputs, Dice(key, system, cs.date_of(inputs)))
    return Planned(cs, inputs, run, dict(settings))


def plan_refit(book: BookSource, key: CampaignKey | None = None, key_file: Path | None = None):
    """Run the refit of ``book`` in memory: (outcome, sheets to append)."""
    planned = prepare(book, key, key_file)
    lists = book.read_lists()
    lists["sides"] = list(planned.sides)
    sheets = planned.system.sheets_for(planned.run, planned.inputs, book, lists)
    run = planned.run
    outcome = RefitOutcome(Path(str(book.path)), planned.system.id, planned.date, [s.name for s in sheets],
                           run.waiting, run.entries, run.completed)
    return outcome, sheets
