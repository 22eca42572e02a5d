"""The reader hands calamine exactly the bytes the gate checked: from an
anonymous in-memory file where the system has them, from memory otherwise,
with the same values either way; a change to the file on disk after it was
read is not seen."""
from __future__ import annotations

import io
import os
import shutil
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from automation.samples import SAMPLE
from automation.workbook import reader
from automation.workbook.reader import Workbook


def values(book: Workbook) -> dict[str, list[list[object]]]:
    return {name: book.raw(name) for name in book.sheet_names}


def test_the_values_are_those_of_the_bytes_read_from_memory_or_not(tmp_path: Path, monkeypatch) -> None:
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    read = values(Workbook(book))
    assert len(read) > 10 and any(len(rows) > 20 for rows in read.values())
    monkeypatch.delattr(os, "memfd_create", raising=False)
    assert values(Workbook(book)) == read


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="no anonymous in-memory files here")
def test_a_file_changed_on_disk_after_it_was_read_is_not_what_is_parsed(tmp_path: Path, monkeypatch) -> None:
    from automation.cachesetting import CACHE_SETTING

    monkeypatch.setenv(CACHE_SETTING, "off")  # (every sheet read from the file, none as an earlier read kept it)
    book = tmp_path / "b.xlsx"
    shutil.copyfile(SAMPLE, book)
    opened = Workbook(book)
    first, second = opened.sheet_names[:2]
    expected = opened.raw(first)
    book.write_bytes(b"not a workbook any more")  # after the gate checked the bytes it read
    assert opened.raw(first) == expected  # read before: parsed from the bytes read
    with pytest.raises(reader.WorkbookFileError, match="changed on disk while it was read"):
        opened.raw(second)  # a sheet part still to be copied: refused, never read from the new bytes


def test_without_anonymous_files_the_bytes_are_read_from_memory(monkeypatch) -> None:
    monkeypatch.delattr(os, "memfd_create", raising=False)
    data = SAMPLE.read_bytes()
    assert reader._calamine(data).sheet_names == CalamineWorkbook.from_filelike(io.BytesIO(data)).sheet_names
