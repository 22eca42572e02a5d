"""A long campaign is never refused for its size: a master of a thousand dates
passes the gate, its biggest legitimate sheet (a side's Dice audit of every
roll it was shown) is within a sheet's bounds, and a player's returned export
of such a campaign is read; a hostile file is still refused.

Sizes from the benchmark campaign (bench/bench_commands.py, 1,000 stands, 100
dates): 1,044 parts, 109 MB unpacked; a side's export 618 parts, a Dice audit
of 6,045 rows of 11 columns. A thousand dates is ten times that; 5,000 stands
five times more rolls and rows."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from automation.errors import WorkbookFileError
from automation.samples import SAMPLE
from automation.workbook.gate import MASTER, PLAYER, Gate, returned_limits
from tests.hardening.hostile_masters import Parts, parts_of, zipped

DATES = 1_000
SHEETS_A_DATE = 5  # two reports, roster, ledger, summary (and their parts: about ten a date)
AUDIT_ROWS_5000_STANDS = 6_045 * 10 * 5  # the Dice audit after a thousand dates of a 5,000-stand campaign
EMPTY_SHEET = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.'
               b'openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>x'
               b'</t></is></c></row></sheetData></worksheet>')


def with_sheets(parts: Parts, count: int, extra: dict[str, bytes] | None = None) -> Parts:
    """``parts`` with ``count`` more sheets (and ``extra`` sheets by name), listed as Excel lists them."""
    parts = dict(parts)
    names = [f"Day {i}" for i in range(count)] + list(extra or {})
    sheets, rels, types = [], [], []
    for i, name in enumerate(names, start=1):
        part = f"xl/worksheets/long{i}.xml"
        parts[part] = (extra or {}).get(name, EMPTY_SHEET)
        sheets.append(f'<sheet name="{name}" sheetId="{10_000 + i}" r:id="rIdLong{i}"/>')
        rels.append(f'<Relationship Id="rIdLong{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                    f'relationships/worksheet" Target="worksheets/long{i}.xml"/>')
        types.append(f'<Override PartName="/{part}" ContentType="application/vnd.openxmlformats-officedocument.'
                     'spreadsheetml.worksheet+xml"/>')
    parts["xl/workbook.xml"] = parts["xl/workbook.xml"].replace(b"</sheets>", "".join(sheets).encode() + b"</sheets>")
    rel = "xl/_rels/workbook.xml.rels"
    parts[rel] = parts[rel].replace(b"</Relationships>", "".join(rels).encode() + b"</Relationships>")
    parts["[Content_Types].xml"] = parts["[Content_Types].xml"].replace(b"</Types>",
                                                                        "".join(types).encode() + b"</Types>")
    return parts


def audit_sheet(rows: int) -> bytes:
    """A Dice audit as tall as ``rows``: its first and last rows (the extent is what the gate bounds)."""
    def row(r: int) -> str:
        return f'<row r="{r}">' + "".join(f'<c r="{c}{r}" t="inlineStr"><is><t>v</t></is></c>' for c in "ABCDEFGHIJK") \
            + "</row>"
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats'
            f'.org/spreadsheetml/2006/main"><dimension ref="A1:K{rows}"/><sheetData>{row(1)}{row(rows)}'
            "</sheetData></worksheet>").encode()


@pytest.fixture(scope="module")
def long_master(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("long") / "campaign.xlsx"
    path.write_bytes(zipped(with_sheets(parts_of(SAMPLE), DATES * SHEETS_A_DATE,
                                        {"Dice audit": audit_sheet(AUDIT_ROWS_5000_STANDS)}), level=1))
    return path


def test_a_thousand_dates_of_sheets_pass_the_masters_gate(long_master):
    gate = Gate(long_master, long_master.read_bytes(), MASTER)
    assert len(gate.archive.infolist()) > DATES * SHEETS_A_DATE
    assert "Day 4999" in gate.sheet_targets()


def test_the_tallest_legitimate_sheet_is_within_a_sheets_bounds(long_master):
    from automation.workbook.reader import Workbook

    book = Workbook(long_master)
    rows = book.raw("Dice audit")  # checked by the gate just before it is parsed
    assert len(rows) == AUDIT_ROWS_5000_STANDS and len(rows[0]) == 11


def test_a_returned_export_of_a_long_campaign_is_read_though_it_is_over_a_players_floor(long_master, tmp_path):
    master = Gate(long_master, long_master.read_bytes(), MASTER)
    limits = returned_limits(master, long_master.stat().st_size)
    assert limits.members > PLAYER.members and limits.player
    returned = tmp_path / "orders.xlsx"
    returned.write_bytes(zipped(with_sheets(parts_of(SAMPLE), 2_500), level=1))  # an export of 2,500 sheets
    with pytest.raises(WorkbookFileError, match=r"holds \d+ parts; at most 2000 are accepted"):
        Gate(returned, returned.read_bytes(), PLAYER)
    assert "Day 2499" in Gate(returned, returned.read_bytes(), limits).sheet_targets()


def test_a_returned_file_far_larger_than_the_campaign_is_still_refused(tmp_path):
    small = tmp_path / "campaign.xlsx"
    small.write_bytes(SAMPLE.read_bytes())
    limits = returned_limits(Gate(small, small.read_bytes(), MASTER), small.stat().st_size)
    assert limits == PLAYER  # a young campaign: the player's floor
    flood = tmp_path / "orders.xlsx"
    flood.write_bytes(zipped(with_sheets(parts_of(SAMPLE), 2_500), level=1))
    with pytest.raises(WorkbookFileError, match=r"holds \d+ parts; at most 2000 are accepted"):
        Gate(flood, flood.read_bytes(), limits)


def test_the_player_bounds_grow_with_the_master_but_never_past_a_masters(tmp_path):
    class Huge:
        """A master directory as a gate reads it: 50,000 parts of 1 MB each."""

        def infolist(self):
            info = zipfile.ZipInfo("x")
            info.file_size = 2**20
            return [info] * 50_000

    class Master:
        archive = Huge()
        unpacked = 50_000 * 2**20  # (the gate's count of the parts' unpacked bytes)
    limits = returned_limits(Master(), 3 * 2**30)  # type: ignore[arg-type]
    assert (limits.members, limits.file_bytes, limits.total_bytes, limits.part_bytes) == \
        (MASTER.members, MASTER.file_bytes, MASTER.total_bytes, MASTER.part_bytes)
    assert (limits.rows, limits.cells, limits.ratio) == (PLAYER.rows, PLAYER.cells, PLAYER.ratio)
