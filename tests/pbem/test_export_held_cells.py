"""An export holds the cells it has drawn as text up to ``HELD_TEXT``
characters, and past that each sheet's deflated, until its parts are put
together (the first export of a long campaign draws every sheet the side may
see). Either way the file is the same bytes, and so are the parts it keeps
for the next export."""
from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import automation.pbem.xlsx as xlsx
from automation.pbem.partstore import PartStore
from automation.pbem.xlsx import OutSheet, write


def sheets() -> list[OutSheet]:
    rows = [["Stand", "Notes", "Strength"]] + [[f"G-{i}", f"Ünïcödé ✓ & <row {i}>", i * 1.5] for i in range(60)]
    return [OutSheet("Export", [["Setting", "Value"], ["Side", "German"]])] + [
        OutSheet(f"Refit Dec {day} 1", rows, source=f"stamp of Dec {day}") for day in range(20, 26)]


def packed_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = xlsx.Packed.of

    def counting(xml: str) -> xlsx.Packed:
        calls.append(len(xml))
        return real(xml)
    monkeypatch.setattr(xlsx.Packed, "of", staticmethod(counting))
    return calls


def export_with_store(path: Path, store: Path) -> dict[str, bytes]:
    """``path`` written with a store of its own; the parts it kept there."""
    store.mkdir()
    parts = PartStore.of(store, "German")
    write(path, sheets(), parts)
    parts.save()
    with zipfile.ZipFile(next(p for p in store.iterdir() if p.suffix == ".zip")) as z:  # (beside it: its run)
        return {name: z.read(name) for name in z.namelist()}


def test_cells_held_deflated_make_the_same_export_and_keep_the_same_parts(tmp_path, monkeypatch) -> None:
    as_text = export_with_store(tmp_path / "text.xlsx", tmp_path / "text store")
    calls = packed_calls(monkeypatch)
    monkeypatch.setattr(xlsx, "HELD_TEXT", 0)  # every sheet's cells held deflated
    deflated = export_with_store(tmp_path / "deflated.xlsx", tmp_path / "deflated store")
    assert len(calls) == len(sheets()) and all(n > 0 for n in calls)
    assert (tmp_path / "deflated.xlsx").read_bytes() == (tmp_path / "text.xlsx").read_bytes()
    assert deflated == as_text and len(as_text) == len(sheets()) - 1  # (the first sheet is always drawn)


def test_an_export_past_the_text_it_holds_deflates_the_sheets_after_it(tmp_path, monkeypatch) -> None:
    calls, drawn = packed_calls(monkeypatch), []
    real = xlsx._sheet_data

    def measured(*args, **kwargs):
        found = real(*args, **kwargs)
        drawn.append(len(found[0]))
        return found
    monkeypatch.setattr(xlsx, "_sheet_data", measured)
    write(tmp_path / "short.xlsx", sheets())
    assert calls == [] and len(drawn) == len(sheets())  # a short export holds its cells as text
    short, drawn[:] = list(drawn), []
    monkeypatch.setattr(xlsx, "HELD_TEXT", sum(short[:3]))
    write(tmp_path / "long.xlsx", sheets())
    assert drawn == short and calls == short[3:]  # the cells of the sheets drawn after the first three
    assert (tmp_path / "long.xlsx").read_bytes() == (tmp_path / "short.xlsx").read_bytes()
    with zipfile.ZipFile(tmp_path / "long.xlsx") as z:
        assert z.testzip() is None
        assert "Ünïcödé ✓ &amp; &lt;row 59&gt;" in z.read("xl/worksheets/sheet7.xml").decode("utf-8")
