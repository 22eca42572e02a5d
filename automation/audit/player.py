"""What a player's export carries to audit its own rolls, and
``musterroll verify EXPORT.xlsx``.

Every export ends with a "Dice audit" sheet: one row per roll the side was
shown (the report sheet and row it is on, its Label, table, column, dice,
natural, DRM, final and result, as the export shows them), each with a
commitment: an HMAC, with the campaign key, of the campaign's key commitment,
the side and those values. Only the key holder could have written it, so once
the key is revealed it binds each roll the player saw to the master that
issued the export.

``musterroll verify EXPORT.xlsx`` checks, without the key, that every roll of
the export's reports is in the audit and reads the same there, and that each
roll's natural number is what its dice read. With ``--key`` it checks the key
is the campaign's (the Export sheet's Key commitment; another campaign's key
exits 2), each commitment, and re-derives the dice of every roll from the key
and its label (a label naming an enemy unit by its alias is checked by its
commitment only).
"""
from __future__ import annotations

import bisect
import hashlib
import hmac
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from automation.engine.dice import CampaignKey, RollLabel
from automation.errors import CellProblem
from automation.pbem.reports import Header, as_int, norm, parse_dice

AUDIT_SHEET = "Dice audit"
AUDIT_HEADER = ["Sheet", "Row", "Label", "Table", "Column", "Dice", "Natural", "DRM", "Final", "Result", "Commitment"]
SHOWN = ("Label", "Table", "Dice", "Natural", "DRM", "Final")
ROLL_PREFIX = b"musterroll/shown-roll/v1\x00"
ALIAS_MARK = "enemy-"


def _column_of(h: Header) -> str:
    return "Table column" if "Table column" in h.positions else "Column"


def _result_of(h: Header) -> str:
    return "Table result" if "Table result" in h.positions else "Result"


def shown_rolls(name: str, rows: list[list[Any]]) -> list[list[str]]:
    """[Sheet, Row, Label, Table, Column, Dice, Natural, DRM, Final, Result] of every roll of a sheet."""
    if not rows:
        return []
    h = Header.of(rows[0])
    if not {"Label", "Table", "Dice"} <= set(h.positions):
        return []
    out = []
    for i, row in enumerate(rows[1:], start=2):
        label = norm(h.get(row, "Label"))
        if not label or not norm(h.get(row, "Table")) or not norm(h.get(row, "Dice")):
            continue
        out.append([name, str(i), label, norm(h.get(row, "Table")), norm(h.get(row, _column_of(h))),
                    norm(h.get(row, "Dice")), norm(h.get(row, "Natural")), norm(h.get(row, "DRM")),
                    norm(h.get(row, "Final")), norm(h.get(row, _result_of(h)))])
    return out


def commitment_of(key: CampaignKey, campaign: str, side: str, shown: list[str]) -> str:
    message = ROLL_PREFIX + json.dumps([campaign.strip(), side, shown], ensure_ascii=False).encode("utf-8")
    return hmac.new(key.secret, message, hashlib.sha256).hexdigest()[:32]


class CommittedRows(Sequence[list[Any]]):
    """The Dice audit sheet's rows for each sheet's :func:`shown_rolls`, header
    first: each roll with its commitment, worked out when the row is first
    read (an export copies the runs of rows an earlier export wrote without
    reading them, so their commitments are not worked out again). With
    ``counts`` (each sheet's number of rolls), a sheet's rolls are taken from
    ``shown`` only when one of its rows is read: a carried run's rolls are
    never loaded."""

    def __init__(self, shown: Sequence[Sequence[list[str]]], key: CampaignKey, campaign: str, side: str,
                 counts: Sequence[int] | None = None) -> None:
        self._shown = shown
        self._counts = list(counts) if counts is not None else [len(rolls) for rolls in shown]
        self._starts = list(itertools.accumulate(self._counts, initial=0))  # each sheet's first roll
        self._key, self._campaign, self._side = key, campaign, side
        self._done: dict[int, list[Any]] = {}

    def _roll(self, n: int) -> list[str]:
        """Roll ``n`` (from 0) of all sheets."""
        k = bisect.bisect_right(self._starts, n) - 1
        return list(self._shown[k][n - self._starts[k]])

    width = len(AUDIT_HEADER)  # every row's cells

    def __len__(self) -> int:
        return self._starts[-1] + 1

    @overload
    def __getitem__(self, i: int) -> list[Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Any]]: ...

    def __getitem__(self, i: int | slice) -> list[Any] | list[list[Any]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        if i == 0:
            return list(AUDIT_HEADER)
        row = self._done.get(i)
        if row is None:
            roll = self._roll(i - 1)
            row = self._done[i] = roll + [commitment_of(self._key, self._campaign, self._side, roll)]
        return row

    def last_cell(self, start: int, stop: int) -> tuple[int, int]:
        """The last row of ``start`` to ``stop`` and its last column with a cell
        (-1: none): every roll's row ends in its commitment."""
        stop = min(stop, len(self))
        return (stop - 1, len(AUDIT_HEADER) - 1) if stop > max(start, 0) else (-1, -1)


def committed_rows(shown: Sequence[Sequence[list[str]]], key: CampaignKey, campaign: str, side: str,
                   counts: Sequence[int] | None = None) -> CommittedRows:
    """The Dice audit sheet's rows for each sheet's :func:`shown_rolls`, header
    first (``counts``: see :class:`CommittedRows`)."""
    return CommittedRows(shown, key, campaign, side, counts)


@dataclass
class ExportChecked:
    side: str = ""
    rolls: int = 0
    rederived: int = 0
    by_commitment: int = 0
    problems: list[CellProblem] = field(default_factory=list)
    key_file: Any = None

    def summary(self, path: Any, with_key: bool) -> str:
        lines = [f"{path}: a player's export for {self.side}: its {self.rolls} roll(s) are all in its Dice audit and "
                 "read the same there"]
        if with_key:
            lines.append(f"  every commitment matches the campaign key: each roll is the one the master issued; "
                         f"{self.rederived} roll(s) re-derived from the key and their labels"
                         + (f", {self.by_commitment} (labels naming an enemy by its alias) by commitment only"
                            if self.by_commitment else ""))
        else:
            lines.append("  commitments and dice not checked: give the revealed campaign key with --key FILE")
        return "\n".join(lines)


def is_export(book: Any) -> bool:
    return book.has(AUDIT_SHEET) and book.has("Export") and not book.has("Campaign")


def export_settings(book: Any) -> dict[str, str]:
    return {norm(r[0]): norm(r[1]) for r in book.raw("Export")[1:] if len(r) >= 2}


def check_export(book: Any, key: CampaignKey | None) -> ExportChecked:
    from automation.audit.rolls import dice_text
    from automation.rulebook import load_rulebook
    from automation.workbook.reader import cell_ref

    settings = export_settings(book)
    out = ExportChecked(side=settings.get("Side", ""))
    campaign = settings.get("Key commitment", "")
    audit = book.raw(AUDIT_SHEET)
    if not audit or [norm(v) for v in audit[0][:len(AUDIT_HEADER)]] != AUDIT_HEADER:
        out.problems.append(CellProblem(AUDIT_SHEET, "A1", f"the header must be: {', '.join(AUDIT_HEADER)}"))
        return out
    listed: dict[tuple[str, str], tuple[int, list[str]]] = {}
    for i, row in enumerate(audit[1:], start=2):
        cells = [norm(v) for v in row] + [""] * len(AUDIT_HEADER)
        listed[(cells[0], cells[1])] = (i, cells[:len(AUDIT_HEADER)])
    shown: dict[tuple[str, str], list[str]] = {}
    for name in book.sheet_names:
        if name not in (AUDIT_SHEET, "Export"):
            for r in shown_rolls(name, book.raw(name)):
                shown[(r[0], r[1])] = r
    out.rolls = len(shown)
    tables = {t.id: t for t in load_rulebook().all_tables()}
    for where, roll in shown.items():
        entry = listed.get(where)
        if entry is None:
            out.problems.append(CellProblem(where[0], f"A{where[1]}", f"a roll ({roll[2]}) that is not in the {AUDIT_SHEET} "
                                                                      "sheet: added after the export was made"))
            continue
        i, cells = entry
        for j, column in enumerate(AUDIT_HEADER[2:10], start=2):
            if cells[j] != roll[j]:
                h = Header.of(book.raw(where[0])[0])
                at = h.cell(column if column in h.positions else {"Column": _column_of(h), "Result": _result_of(h)}
                            .get(column, column), int(where[1]))
                out.problems.append(CellProblem(where[0], at, f"edited: shows {roll[j]!r} but the {AUDIT_SHEET} "
                                                              f"({AUDIT_SHEET}!{cell_ref(j, i)}) holds {cells[j]!r}"))
                break
    for where, (i, cells) in listed.items():
        if where not in shown:
            out.problems.append(CellProblem(AUDIT_SHEET, f"A{i}", f"lists a roll at {where[0]} row {where[1]} that the "
                                                                  "export no longer shows (removed)"))
            continue
        table = tables.get(cells[3].split(" (")[0].strip())
        parsed = parse_dice(cells[5])
        if table is None or parsed is None or parsed[0] != table.dice.value:
            out.problems.append(CellProblem(AUDIT_SHEET, cell_ref(5, i), f"{cells[5]!r} is not a throw of the table "
                                                                         f"{cells[3]!r}"))
            continue
        if as_int(cells[6]) != table.dice.total(parsed[1]):
            out.problems.append(CellProblem(AUDIT_SHEET, cell_ref(6, i), f"natural {cells[6]!r} is not what "
                                                                         f"{cells[5]!r} reads"))
            continue
        if key is None:
            continue
        if not hmac.compare_digest(cells[10], commitment_of(key, campaign, out.side, cells[:10])):
            out.problems.append(CellProblem(AUDIT_SHEET, cell_ref(10, i), f"the commitment does not match this roll "
                                                                          f"({cells[2]}): it is not the roll the "
                                                                          "master issued"))
            continue
        if ALIAS_MARK in cells[2]:
            out.by_commitment += 1
            continue
        expected = dice_text(table.dice, key.throw(table.dice, RollLabel.parse(cells[2])))
        if expected != cells[5]:
            out.problems.append(CellProblem(AUDIT_SHEET, cell_ref(5, i), f"shows {cells[5]!r} but the key gives "
                                                                         f"{expected!r} for {cells[2]}"))
            continue
        out.rederived += 1
    return out
