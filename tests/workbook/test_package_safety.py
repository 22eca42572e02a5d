"""The package writer refuses what it cannot write safely, and loses nothing."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports


# --------------------------------------------------------------------------- safety

def test_file_digest_is_the_sha256_of_the_bytes(book: Path) -> None:
    assert file_digest(book) == hashlib.sha256(book.read_bytes()).hexdigest()


def test_expected_digest_mismatch_leaves_the_bytes_untouched(book: Path) -> None:
    stale = file_digest(book)
    append_sheets(book, [report("Saved meanwhile")], "Someone else", expected_digest=stale)
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="changed since it was read") as err:
        append_sheets(book, [report()], "Refit", expected_digest=stale)
    assert str(book) in str(err.value)
    with pytest.raises(WorkbookFileError, match="changed since it was read"):
        remove_last_batch(book, expected_digest=stale)
    assert book.read_bytes() == before


@pytest.mark.parametrize("lock", ["~${}", ".~lock.{}#"])
def test_a_workbook_open_in_excel_or_libreoffice_is_refused(book: Path, lock: str) -> None:
    (book.parent / lock.format(book.name)).write_bytes(b"owner")
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="open in Excel or LibreOffice"):
        append_sheets(book, [report()], "Refit")
    assert book.read_bytes() == before
    assert sorted(p.name for p in book.parent.iterdir()) == sorted(
        [book.name, lock.format(book.name), f".~{book.name}.lock"])


def test_no_temporary_file_is_left_behind(book: Path) -> None:
    append_sheets(book, [report()], "Refit")
    remove_last_batch(book)  # the empty lock file stays: removing it could let two writers in at once
    assert sorted(p.name for p in book.parent.iterdir()) == sorted([book.name, f".~{book.name}.lock"])
    assert (book.parent / f".~{book.name}.lock").stat().st_size == 0


@pytest.mark.parametrize("payload, message", [
    (b"", "an empty file"), (b"hello, not a workbook", "not a zip"),
    (b"PK\x03\x04garbage" * 10, "damaged or cut short")])
def test_a_file_that_is_not_a_zip_is_refused(tmp_path: Path, payload: bytes, message: str) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(payload)
    with pytest.raises(WorkbookFileError, match=message):
        append_sheets(path, [report()], "Refit")
    assert path.read_bytes() == payload


def test_a_password_protected_or_old_xls_file_is_refused_with_advice(tmp_path: Path) -> None:
    path = tmp_path / "locked.xlsx"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600))
    with pytest.raises(WorkbookFileError, match="password-protected .encrypted. or in the old .xls format"):
        append_sheets(path, [report()], "Refit")


def test_a_workbook_that_cannot_be_opened_for_writing_is_refused(book: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import automation.workbook.pkgfile as pkgfile

    def refuse(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if "+" in mode or "w" in mode:
            raise PermissionError(13, "Permission denied")
        return open(file, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(pkgfile, "open", refuse, raising=False)
    before = book.read_bytes()
    with pytest.raises(WorkbookFileError, match="cannot be opened for writing"):
        append_sheets(book, [report()], "Refit")
    assert book.read_bytes() == before


def test_a_zip_that_is_not_a_workbook_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        zf.writestr("readme.txt", "hello")
    with pytest.raises(WorkbookFileError, match="it has no xl/workbook.xml part"):
        append_sheets(path, [report()], "Refit")
    with pytest.raises(WorkbookFileError):
        sheet_names(tmp_path / "missing.xlsx")


def _patch_central(data: bytes, field_offset: int, value: int, every: bool = False) -> bytes:
    data = bytearray(data)
    at = struct.unpack_from("<I", data, len(data) - 6)[0]
    while data[at:at + 4] == b"PK\x01\x02":
        struct.pack_into("<I", data, at + field_offset, value)
        if not every:
            break
        nlen, elen, clen = struct.unpack_from("<HHH", data, at + 28)
        at += 46 + nlen + elen + clen
    return bytes(data)


def test_a_zip_bomb_is_refused_by_its_declared_sizes(book: Path) -> None:
    good = book.read_bytes()
    book.write_bytes(_patch_central(good, 24, 300 * 1024 * 1024))
    with pytest.raises(WorkbookFileError, match="200 MB"):
        append_sheets(book, [report()], "Refit")
    book.write_bytes(_patch_central(good, 24, 150 * 1024 * 1024, every=True))
    with pytest.raises(WorkbookFileError, match="a zip bomb"):
        sheet_names(book)


def test_zip64_archives_are_refused_clearly(book: Path) -> None:
    data = book.read_bytes()
    eocd = len(data) - 22
    _, _, _, _, count, cd_size, cd_off, _ = struct.unpack_from("<IHHHHIIH", data, eocd)
    record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, cd_size, cd_off)
    locator = struct.pack("<IIQI", 0x07064B50, 0, eocd, 1)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    book.write_bytes(data[:eocd] + record + locator + end)
    assert zipfile.ZipFile(book).testzip() is None  # a valid ZIP64 archive
    with pytest.raises(WorkbookFileError, match="ZIP64"):
        append_sheets(book, [report()], "Refit")


def test_encrypted_members_are_refused(book: Path) -> None:
    book.write_bytes(_patch_central(book.read_bytes(), 8, 0x0001))  # flag bits start at +8 (2 bytes)
    with pytest.raises(WorkbookFileError, match="encrypted"):
        append_sheets(book, [report()], "Refit")


class _Unseekable(io.RawIOBase):
    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b: bytes) -> int:  # type: ignore[override]
        self.data += b
        return len(b)


def test_members_with_data_descriptors_and_stored_members_are_copied_raw(book: Path) -> None:
    sink = _Unseekable()
    with zipfile.ZipFile(sink, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in contents(book).items():
            zf.writestr(name, data, compress_type=zipfile.ZIP_STORED if name.endswith(".png") else zipfile.ZIP_DEFLATED)
    book.write_bytes(bytes(sink.data))
    assert all(i.flag_bits & 0x08 for i in zipfile.ZipFile(book).infolist())
    before = raw_members(book)
    append_sheets(book, [report()], "Refit")
    assert_untouched(before, book)
    remove_last_batch(book)
    assert_untouched(before, book)
    assert zipfile.ZipFile(book).testzip() is None


def test_a_custom_ribbon_part_survives_append_and_undo(book: Path) -> None:
    before = raw_members(book)
    assert "customUI/customUI14.xml" in before
    append_sheets(book, [report()], "Refit")
    remove_last_batch(book)
    assert raw_members(book)["customUI/customUI14.xml"] == before["customUI/customUI14.xml"]
    assert b"ui/extensibility" in contents(book)["_rels/.rels"]


def test_errors_are_musterroll_errors_with_the_bad_input_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "bad.xlsx"
    path.write_bytes(b"not a workbook")
    with pytest.raises(MusterrollError) as err:
        remove_last_batch(path)
    assert err.value.exit_code == 2


# --------------------------------------------------------------------------- properties

OPS = st.lists(st.one_of(st.just("undo"), st.tuples(st.integers(1, 3), st.booleans())), min_size=1, max_size=6)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_random_appends_and_undos_leave_the_original_parts_identical(ops: list[object]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.xlsx"
        shutil.copyfile(RICH, path)
        original_raw, original = raw_members(path), contents(path)
        stack: list[list[str]] = []
        counter = 0
        for op in ops:
            if op == "undo":
                if stack:
                    assert remove_last_batch(path) == stack.pop()
                else:
                    with pytest.raises(WorkbookFileError):
                        remove_last_batch(path)
            else:
                count, chart = op  # type: ignore[misc]
                names = [f"R{counter + i}" for i in range(count)]
                counter += count
                spec = LineChartSpec(0, (1, 2), "F2") if chart else None
                append_sheets(path, [report(n, chart=spec) for n in names], f"Batch {counter}")
                stack.append(names)
            assert_untouched(original_raw, path)
            assert sheet_names(path) == ["Campaign", "Notes", "Secrets", *[n for b in stack for n in b]]
        while stack:
            assert remove_last_batch(path) == stack.pop()
        now = contents(path)
        assert set(now) == set(original)
        assert all(now[n] == original[n] for n in original if n != "xl/styles.xml")


@settings(max_examples=30, deadline=None)
@given(texts=st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40),
                      min_size=1, max_size=8))
def test_any_printable_text_reads_back_exactly(texts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "book.xlsx"
        shutil.copyfile(RICH, path)
        append_sheets(path, [report("Texts", [["Text"], *([t] for t in texts)])], "Texts")
        ws = openpyxl.load_workbook(path)["Texts"]
        assert [ws.cell(i + 2, 1).value for i in range(len(texts))] == texts


# --------------------------------------------------------------------------- LibreOffice

def test_libreoffice_reads_the_new_sheet_values_and_keeps_formula_looking_text(book: Path, tmp_path: Path) -> None:
    rows = [["Unit", "Order", "CPP"], *([f"Unit {i}", t, i] for i, t in enumerate(FORMULA_LOOKING))]
    append_sheets(book, [report("Orders 24DEC German", rows, kind="orders")], "Orders")
    sheets = libreoffice_csv(book, tmp_path / "csv")
    assert sheets["Orders 24DEC German"][0] == ["Unit", "Order", "CPP"]
    assert [r[1] for r in sheets["Orders 24DEC German"][1:]] == FORMULA_LOOKING
    assert sheets["Campaign"][1][:4] == ["1", "12", "15", "Clear"]


def test_libreoffice_opens_the_chart_part(book: Path, tmp_path: Path) -> None:
    append_sheets(book, [report(chart=LineChartSpec(0, (1, 2), "F2", "CPP by turn"))], "Refit")
    chart_xml = contents(book)["xl/charts/chart2.xml"].decode()
    assert "<c:lineChart>" in chart_xml and "'Report 24DEC'!$B$2:$B$4" in chart_xml
    libreoffice(book, "xlsx", tmp_path / "out")
    saved = tmp_path / "out" / book.name
    assert saved.exists(), "LibreOffice could not open and save the workbook"
    files = contents(saved)
    charts = [files[n].decode() for n in files if n.startswith("xl/charts/chart")]
    assert any("lineChart" in c and "Report 24DEC" in c for c in charts)
    assert openpyxl.load_workbook(saved).sheetnames[-1] == "Report 24DEC"


def test_libreoffice_reads_the_workbook_after_several_appends_and_an_undo(book: Path, tmp_path: Path) -> None:
    before = raw_members(book)
    append_sheets(book, [report("Report 1")], "Refit 1")
    append_sheets(book, [report("Report 2", chart=LineChartSpec(0, (1,), "F2"))], "Refit 2")
    remove_last_batch(book)
    assert_untouched(before, book)
    sheets = libreoffice_csv(book, tmp_path / "csv")
    assert list(sheets) == ["Campaign", "Notes", "Secrets", "Report 1"]
    assert sheets["Report 1"][2] == ["2", "14", "13", "Attack"]


def test_a_workbook_saved_by_libreoffice_keeps_its_parts_and_batches(book: Path, tmp_path: Path) -> None:
    append_sheets(book, [report("Report 1")], "Refit 1")
    libreoffice(book, "xlsx", tmp_path / "lo")
    saved = tmp_path / "lo" / book.name
    assert saved.exists()
    assert list_batches(saved) == [Batch("Refit 1", ("Report 1",))]
    before = raw_members(saved)
    append_sheets(saved, [report("Report 2")], "Refit 2")
    assert_untouched(before, saved)
    assert remove_last_batch(saved) == ["Report 2"]
    assert remove_last_batch(saved) == ["Report 1"]
    assert openpyxl.load_workbook(saved).sheetnames == ["Campaign", "Notes", "Secrets"]
