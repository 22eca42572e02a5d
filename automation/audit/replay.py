"""``musterroll verify --key``: every refit of the campaign run again.

The workbook only grows, and :mod:`automation.workbook.package` records each
run's batch of sheets. For each batch that wrote a refit report, in order,
the workbook is presented as it stood before that batch (:class:`Before`:
only the sheets that existed then, the input sheets as the chain recorded
them at that refit) to the same service code the refit uses
(:func:`automation.pbem.planning.plan_refit` and :func:`automation.audit.seal`),
with the key. Every sheet the batch wrote must be, cell for cell, what the
rules give now. A relabelled, reordered, dropped or extra roll, an edited
modifier, table or roster: each makes a written cell differ from the cell
the rules give, and the first such cell is named with both values.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from automation.engine.dice import CampaignKey
from automation.errors import CellProblem, MusterrollError, WorkbookError
from automation.pbem.reports import Header, canonical, chain_start, is_report, report_names


class Before:
    """A reader view of ``book`` limited to its first sheets, with some sheets
    given as recorded: the workbook as a past refit read it."""

    def __init__(self, book: Any, names: Sequence[str], recorded: dict[str, list[list[Any]]],
                 same: Callable[[str, list[list[Any]]], bool] | None = None) -> None:
        self._book = book
        self.path = book.path
        self.sheet_names = list(names)
        self._names = set(names)
        same = same or (lambda n, rows: canonical(rows) == canonical(book.raw(n)))
        self._recorded = {n: rows for n, rows in recorded.items() if n in self._names and not same(n, rows)}

    @property
    def gate(self) -> Any:
        return self._book.gate

    def has(self, name: str) -> bool:
        return name in self._names

    def raw(self, name: str) -> list[list[Any]]:
        from automation.workbook.reader import present_sheets

        if name in self._recorded:
            return self._recorded[name]
        if name not in self._names:
            raise WorkbookError(CellProblem(name, "A1", f"the sheet {name!r} is missing; "
                                                        f"{present_sheets(self.sheet_names)}"), str(self.path))
        return self._book.raw(name)

    def read(self, kind: Any, name: str | None = None, lists: Any = None) -> list[Any]:
        from automation.workbook.reader import missing_sheet, validate_rows

        name = name or kind.title
        if name not in self._names:
            raise WorkbookError(missing_sheet(name, kind, self.sheet_names), str(self.path))
        return validate_rows(name, kind, self.raw(name), lists or {}, str(self.path))

    def read_lists(self, name: str = "Lists") -> dict[str, list[str]]:
        from automation.workbook.reader import lists_from_rows, missing_sheet
        from automation.workbook.schema import LISTS

        if name not in self._names:
            raise WorkbookError(missing_sheet(name, LISTS, self.sheet_names), str(self.path))
        return lists_from_rows(name, self.raw(name), str(self.path))


@dataclass(frozen=True)
class Replayed:
    refits: int
    sheets: int
    problems: tuple[CellProblem, ...]
    reworded: tuple[str, ...] = ()  # sheets an earlier version sealed: same rolls, numbers and outcomes, other wording


def refit_batches(book: Any, batches: Sequence[Any]) -> list[Any]:
    """The batches that wrote a refit report (whatever their name)."""
    return [b for b in batches if any(is_report(s) and book.has(s) for s in b.sheets)]


def _show(v: str) -> str:
    return repr(v) if v else "an empty cell"


def first_difference(name: str, written: list[list[str]], expected: list[list[str]]) -> CellProblem | None:
    """The first cell where ``written`` is not what the rules give, with the kind of change."""
    from automation.workbook.reader import cell_ref

    if written == expected:
        return None
    h = Header.of(expected[0] if expected else [])
    label_col = h.positions.get("Label")
    labels = {r[label_col] for r in expected if label_col is not None and label_col < len(r) and r[label_col]}
    for i in range(max(len(written), len(expected))):
        w = written[i] if i < len(written) else None
        e = expected[i] if i < len(expected) else None
        if w == e:
            continue
        if w is None:
            return CellProblem(name, f"A{i + 1}", f"row {i + 1} the rules give is missing (dropped): expected "
                                                  f"{' | '.join(v for v in e or [] if v)[:160]!r}")
        if e is None:
            return CellProblem(name, f"A{i + 1}", f"row {i + 1} is not one the rules give (extra row): "
                                                  f"{' | '.join(v for v in w if v)[:160]!r}")
        j = next(j for j in range(max(len(w), len(e))) if (w[j] if j < len(w) else "") != (e[j] if j < len(e) else ""))
        wv, ev = (w[j] if j < len(w) else ""), (e[j] if j < len(e) else "")
        wl = w[label_col] if label_col is not None and label_col < len(w) else ""
        el = e[label_col] if label_col is not None and label_col < len(e) else ""
        if wl != el and label_col is not None:
            kind = ("reordered or dropped rolls: this roll belongs elsewhere" if wl in labels else
                    "relabelled roll: a label the rules do not give" if wl else "a roll the rules give is missing")
            return CellProblem(name, cell_ref(label_col, i + 1), f"{kind}: written {_show(wl)}, the rules give "
                                                                 f"{_show(el)} (first differing cell "
                                                                 f"{cell_ref(j, i + 1)}: written {_show(wv)}, "
                                                                 f"the rules give {_show(ev)})")
        return CellProblem(name, cell_ref(j, i + 1), f"edited value: written {_show(wv)}, the rules give {_show(ev)}")
    return None


EXACT_COLUMNS = ("Step", "Rule", "Side", "Table", "Dice", "Natural", "DRM", "Final", "Visible to", "Label")
NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")


def _content(name: str, rows: list[list[str]]) -> list[list[str]]:
    """A sheet's rows without a report's tamper evidence."""
    return rows[:chain_start(Header.of(rows[0]), rows)] if rows and is_report(name) else rows


def first_difference_in_substance(name: str, written: list[list[str]], expected: list[list[str]]) -> CellProblem | None:
    """:func:`first_difference` for a sheet an earlier version sealed: the same
    rows, each roll's columns and outcome (Result of a row with a Label) as
    the rules give, and in every other cell the same numbers in the same order;
    the wording around them may differ. The tamper evidence is left to the
    chain's own checks (its digests cover the wording)."""
    from automation.workbook.reader import cell_ref

    h = Header.of(expected[0] if expected else [])
    written, expected = _content(name, written), _content(name, expected)
    strict = {h.positions[c] for c in EXACT_COLUMNS if c in h.positions}
    label = h.positions.get("Label")
    for i in range(max(len(written), len(expected))):
        if i >= len(written) or i >= len(expected):
            return first_difference(name, written, expected)
        w, e = written[i], expected[i]
        roll = label is not None and label < len(e) and bool(e[label])
        for j in range(max(len(w), len(e))):
            wv, ev = (w[j] if j < len(w) else ""), (e[j] if j < len(e) else "")
            same = wv == ev if (i == 0 or j in strict or (roll and j == h.positions.get("Result"))) else \
                NUMBER.findall(wv) == NUMBER.findall(ev)
            if not same:
                return CellProblem(name, cell_ref(j, i + 1), f"edited value: written {_show(wv)}, the rules give "
                                                             f"{_show(ev)} (sealed by an earlier version: rolls, "
                                                             "numbers and outcomes compared, not wording)")
    return None


def replay(book: Any, key: CampaignKey, batches: Sequence[Any], inputs_at: dict[str, dict[str, list[list[Any]]]],
           progress: Callable[[int, int, str], None] | None = None) -> Replayed:
    """Run each refit batch of ``book`` again (``inputs_at``: report -> the
    input sheets as its record holds them) and compare what it wrote; stop at
    the first refit that differs."""
    from automation.audit.chain import Reads, seal, sealed_by, sealer
    from automation.pbem.planning import answers, plan_refit

    refits = refit_batches(book, batches)
    names = list(book.sheet_names)
    sheets_checked = 0
    reworded: list[str] = []
    now: dict[str, list[list[str]]] = {}
    known: dict[int, bool] = {}  # a recorded sheet's rows are shared from refit to refit until they change

    def same(name: str, rows: list[list[Any]]) -> bool:
        if id(rows) not in known:
            if name not in now:
                now[name] = canonical(book.raw(name))
            known[id(rows)] = canonical(rows) == now[name]
        return known[id(rows)]

    for n, batch in enumerate(refits, start=1):
        if progress:
            progress(n, len(refits), batch.name)
        outputs = [s for s in batch.sheets if s not in getattr(batch, "forms", ())]  # a form written is an input
        written = [s for s in outputs if s in names]
        first = min(names.index(s) for s in written)
        report = next(s for s in batch.sheets if is_report(s) and s in names)
        view = Before(book, names[:first], inputs_at.get(report, {}), same)
        try:
            reads = Reads(answers(view))  # as the refit: a form not yet answered is not there
            _, sheets = plan_refit(reads, key)
            sheets = seal(view, sheets, key=key, read=reads.names, parts=_parts(book, batch)) if sheets else sheets
        except MusterrollError as exc:
            return Replayed(n - 1, sheets_checked, (CellProblem(report, "A1", f"{batch.name!r} cannot be run again "
                                                                             f"from what it read: {exc}"),))
        expected = [s.name for s in sheets]
        if expected != outputs:
            extra = [s for s in outputs if s not in expected]
            missing = [s for s in expected if s not in outputs]
            why = (f"wrote {', '.join(extra)}, which the rules do not give" if extra else
                   f"lacks {', '.join(missing)}, which the rules give" if missing else
                   f"wrote its sheets in another order than the rules ({', '.join(expected)})")
            return Replayed(n - 1, sheets_checked, (CellProblem(report, "A1", f"{batch.name!r} {why}"),))
        earlier = sealed_by(book.raw(report)) != sealer()  # sealed by another version: its wording may differ
        for sheet in sheets:
            if sheet.name not in names:
                continue
            written_rows, expected_rows = canonical(book.raw(sheet.name)), canonical(sheet.rows)
            found = first_difference(sheet.name, written_rows, expected_rows)
            if found is not None and earlier:
                found = first_difference(sheet.name, *(_content(sheet.name, r) for r in (written_rows, expected_rows)))
                if found is not None:  # the content too, not only the tamper evidence of another version
                    found = first_difference_in_substance(sheet.name, written_rows, expected_rows)
                    reworded += [] if found else [sheet.name]
            if found is not None:
                return Replayed(n - 1, sheets_checked, (found,), tuple(reworded))
            sheets_checked += 1
    return Replayed(len(refits), sheets_checked, (), tuple(reworded))


def _parts(book: Any, batch: Any) -> list[tuple[str, str]]:
    """The ``part`` rows the batch's first report holds: fingerprints of parts
    as they were stored then, which a replay cannot take again (a later save
    may rewrite every part); the seal covers them."""
    from automation.audit.chain import PART, chain_links

    first = next((s for s in batch.sheets if is_report(s) and book.has(s)), None)
    if first is None:
        return []
    return [(ln.target, ln.value) for ln in chain_links(book.raw(first))[1] if ln.kind == PART]


def unreplayed_reports(book: Any, batches: Sequence[Any]) -> list[CellProblem]:
    """Reports that no recorded refit batch wrote: they cannot be run again."""
    covered = {s for b in refit_batches(book, batches) for s in b.sheets}
    return [CellProblem(n, "A1", "no recorded refit wrote this report (its batch record was removed), so it "
                                 "cannot be run again from the key")
            for n in report_names(book.sheet_names) if n not in covered and is_report(n, (book.raw(n)[:1] or [[]])[0])]


def stderr_progress() -> Callable[..., None]:
    """The progress bar of a long verify on standard error (:class:`automation.audit.progress.Progress`)."""
    from automation.audit.progress import Progress

    return Progress()


__all__ = ["Before", "Replayed", "first_difference", "refit_batches", "replay", "stderr_progress",
           "unreplayed_reports"]
