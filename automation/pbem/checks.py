"""The file side of ``musterroll verify`` and ``musterroll stats``: open the
workbook through the hostile-input checks, then hand it to
:mod:`automation.audit` and :mod:`automation.pbem.stats`."""
from __future__ import annotations

from pathlib import Path

from automation.errors import CellProblem, UsageError, WorkbookFileError
from automation.keys import BASE_SETTING, CONTRIBUTION_SETTING, KeyError_, contribution_commitment, read_key_file


def _commitment(book) -> str:
    from automation.audit import workbook_system

    settings, _ = workbook_system(book)
    return str(settings.get("Key commitment") or "").strip()


def verify(path: Path, key_file: Path | None = None, contributions: tuple[str, ...] = ()):
    from automation.audit import verify_book
    from automation.audit.replay import stderr_progress
    from automation.keys import key_path_for
    from automation.pbem import guard
    from automation.workbook.batches import from_gate

    if key_file is None and key_path_for(Path(path)).is_file():
        key_file = key_path_for(Path(path))  # BOOK.key beside the workbook, as refit finds it
    if contributions and key_file is None:
        raise UsageError("--contribution needs --key FILE: the key file keeps the base the contributions were mixed into")
    book = guard.open_book(path)
    book.keep_reads = False  # what the file holds now, never what an earlier command read of it
    key_data = read_key_file(key_file) if key_file else None
    from automation.audit.player import check_export, export_settings, is_export

    if is_export(book):  # a player's copy: its own rolls, with the revealed key if given
        campaign = export_settings(book).get("Key commitment", "")
        if key_data is not None and key_data.key.commitment != campaign:
            raise KeyError_(f"{key_file}: this key does not match the export's Key commitment (Export sheet: "
                            f"{campaign[:16]}..., the key gives {key_data.key.commitment[:16]}...); the export "
                            "belongs to another campaign, or the key does")
        checked = check_export(book, key_data.key if key_data else None)
        checked.key_file = key_file
        return checked
    if key_data is not None:
        commitment = _commitment(book)
        if commitment and key_data.key.commitment != commitment:
            raise KeyError_(f"{key_file}: this key does not match the workbook's commitment (Campaign!B4 holds "
                            f"{commitment[:16]}..., the key gives {key_data.key.commitment[:16]}...); it belongs to "
                            "another campaign")
    batch_problems = []
    try:
        data = book.gate.data if not getattr(book, "decrypted", False) else None
        batches = from_gate(path, data) if data is not None else None  # from the reader's gate, as a rule
        if batches is None:
            from automation.workbook.package import list_batches

            batches = list_batches(Path(path), data)
    except WorkbookFileError as exc:
        batches, batch_problems = [], [CellProblem("(workbook)", "A1", f"the record of added sheets is damaged: {exc}")]
    result = verify_book(book, key_data.key if key_data else None, batches, stderr_progress())
    result.key_file = key_file
    result.problems += batch_problems
    if contributions and key_data is not None:
        result.problems += check_contributions(book, key_data, contributions)
        if not result.problems:
            result.notes.append(f"the key is the base mixed with the {len(contributions)} contribution(s) given, "
                                "and each matches its commitment on the Campaign sheet")
    return result


def check_contributions(book, key_data, contributions: tuple[str, ...]) -> list[CellProblem]:
    from automation.workbook.schema import SETTINGS

    rows = {r["Setting"]: r for r in book.read(SETTINGS)}
    problems = []
    if key_data.base is None:
        return [CellProblem("Campaign", "A1", "the key file keeps no base key: this campaign was made without --entropy")]
    base_row = rows.get(BASE_SETTING)
    if base_row is None or str(base_row["Value"]) != key_data.base.commitment:
        where = base_row.cell("Value") if base_row else "A1"
        problems.append(CellProblem("Campaign", where, "the base key in the key file does not match the Key base "
                                                       "commitment"))
    listed = [r for name, r in rows.items() if name.startswith("Key contribution ")]
    if len(listed) != len(contributions):
        problems.append(CellProblem("Campaign", "A1", f"{len(contributions)} contribution(s) given but the workbook lists "
                                                      f"{len(listed)}"))
    for i, text in enumerate(contributions, start=1):
        row = rows.get(CONTRIBUTION_SETTING.format(n=i))
        if row is not None and str(row["Value"]) != contribution_commitment(text):
            problems.append(CellProblem("Campaign", row.cell("Value"), f"contribution {i} given does not match its "
                                                                       "commitment"))
    if key_data.base.mixed_with(*contributions).commitment != key_data.key.commitment:
        problems.append(CellProblem("Campaign", "B4", "the key is not the base mixed with the contributions given "
                                                      "(in this order)"))
    return problems


def campaign_stats(path: Path):
    """The campaign's dice statistics: the totals the last sealed report carries
    with the rolls of the reports after it (:func:`automation.audit.chain.history`),
    so only the sheets newer than the carried point are read; the rolls left out
    (unreadable) are listed report by report, each report's list carried once
    found (:mod:`automation.pbem.carry`). The same result as counting every
    roll of every report (:func:`automation.pbem.stats.collect`)."""
    from automation.audit import workbook_system
    from automation.audit.chain import history
    from automation.audit.desk import check_desk
    from automation.audit.verify import RULE_SHEETS
    from automation.pbem import guard
    from automation.pbem.carry import Carried
    from automation.pbem.reports import is_report, report_names, roll_rows
    from automation.pbem.stats import Tally

    book = guard.open_book(path)
    settings, system = workbook_system(book)
    reports = report_names(book.sheet_names)
    if reports:
        found = history(book, str(settings.get("Key commitment") or ""), system).tally.stats()
    else:
        found = Tally().stats()  # no report yet: nothing else is read
    carried = Carried.of(book, system.id, [book.part_stamp(n) for n in RULE_SHEETS if book.has(n)])

    def left_out(name: str) -> list[str]:
        rows = book.raw(name)
        if not rows or not is_report(name, rows[0]):
            return []
        return Tally().add(roll_rows(name, rows), system).unreadable

    found.unreadable = [where for name in reports
                        for where in carried.get("left out", name, lambda: left_out(name))]
    carried.save()
    found.physical = check_desk(book, None).physical  # marked apart: never counted as keyed rolls
    return found
