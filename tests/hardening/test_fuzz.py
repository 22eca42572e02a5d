"""Mutated campaign workbooks and player files fed to refit, import, export,
verify and undo (hypothesis, a bounded number of examples): never a traceback,
never more than 1 GB of memory or 10 s of CPU, a refusal is exit 2 with a
message, and a refused master keeps its bytes."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hardening.hostile_masters import ROSTER, measured, parts_of, zipped

EXAMPLES = int(os.environ.get("MUSTERROLL_FUZZ_EXAMPLES", "5"))  # per command: the suite stays within a minute
PARTS = ["[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml",
         "xl/sharedStrings.xml", "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml", ROSTER]
SNIPPETS = [b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>', b"&a;", b'<c r="XFD1048576"><v>1</v></c>',
            b'<c\tr="XFD1048576"><v>1</v></c>',
            b'<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>', b"<", b"\x00",
            b'xmlns:q="urn:q"', b"\xed\xa0\x80", b'<c r="A1" t="s"><v>999999</v></c>', b"]]>", b"</sheetData>",
            b'Target="../../../etc/passwd"', b'<sheet name="Campaign" sheetId="99" r:id="rId1"/>']


@st.composite
def mutation(draw: st.DrawFn):
    """One change made outside the project: to a part's text, to the part list, or to the zip's bytes."""
    kind = draw(st.sampled_from(["insert", "truncate", "drop part", "rename part", "flip bytes", "far cell"]))
    part = draw(st.sampled_from(PARTS))
    where = draw(st.floats(0, 1))
    snippet = draw(st.sampled_from(SNIPPETS))
    flips = draw(st.lists(st.tuples(st.floats(0, 1), st.integers(1, 255)), min_size=1, max_size=8))
    return kind, part, where, snippet, flips


def mutate(src: Path, dst: Path, change) -> None:
    kind, part, where, snippet, flips = change
    parts = parts_of(src)
    names = {n.lower(): n for n in parts}
    name = names.get(part.lower(), next(iter(parts)))
    data = parts[name]
    at = int(where * len(data))
    if kind == "insert":
        parts[name] = data[:at] + snippet + data[at:]
    elif kind == "truncate":
        parts[name] = data[:at]
    elif kind == "drop part":
        del parts[name]
    elif kind == "rename part":
        parts[name.upper() if name != name.upper() else name.lower() + "x"] = parts.pop(name)
    elif kind == "far cell":
        parts[name] = data.replace(b"</sheetData>", b'<row r="900000"><c r="ZZ900000"><v>1</v></c></row></sheetData>')
    raw = bytearray(zipped(parts))
    if kind == "flip bytes":
        for pos, value in flips:
            raw[int(pos * (len(raw) - 1))] ^= value
    dst.write_bytes(bytes(raw))


def held(run, book: Path, before: bytes, allowed: tuple[int, ...]) -> None:
    assert "Traceback" not in run.err and "Error:" not in run.err.split(":", 1)[0], run.err[-2000:]
    assert run.rss_mb < 1024, run.rss_mb
    assert run.cpu_s < 10, run.cpu_s
    assert run.code in allowed + (2,), (run.code, run.err[-2000:])
    if run.code != 0:
        assert run.err.startswith("musterroll: ") and len(run.err.strip()) > 20, run.err
        assert book.read_bytes() == before  # a refused master keeps its bytes


FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 5, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.mark.parametrize("command", ["refit", "undo", "verify", "export"])
def test_a_mutated_master_is_held_by_every_command(waiting_master, tmp_path, command) -> None:
    source, _ = waiting_master

    @FUZZ
    @given(change=mutation())
    def check(change) -> None:
        folder = tmp_path / "case"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        book = folder / source.name
        mutate(source, book, change)
        shutil.copyfile(source.with_suffix(".key"), book.with_suffix(".key"))
        before = book.read_bytes()
        argv = ["export", book, "--side", "German", "-o", folder / "out.xlsx"] if command == "export" else [command, book]
        held(measured(*argv), book, before, (0, 1) if command == "verify" else (0,))

    check()


def test_a_mutated_player_file_is_held_by_import(waiting_master, master_copy, tmp_path) -> None:
    _, returns = waiting_master

    @FUZZ
    @given(change=mutation())
    def check(change) -> None:
        bad = tmp_path / "returned.xlsx"
        mutate(returns["German"], bad, change)
        before = master_copy.read_bytes()
        run = measured("import", master_copy, bad)
        held(run, master_copy, before, (0,))
        if run.code == 0:  # it landed: start the next example from the waiting master again
            master_copy.write_bytes(waiting_master[0].read_bytes())

    check()
