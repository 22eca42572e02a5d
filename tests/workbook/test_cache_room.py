"""What a command keeps for a workbook outlives the work of many others.

Several campaigns, or copies of one, used in turn (an umpire's campaigns and
their backups; a benchmark of eight campaigns, two sizes at four lengths)
write dozens of kept files between two commands on the same workbook: an
undo image, the gate's findings and the cells of each sheet written, for
every append. When only the last 32 or 64 of each were kept, the eight
campaigns pushed out each other's, and undo at 100 dates worked its change
out from the workbook again (1.6 times its time at one date)."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.workbook import gatememo, undoimage
from automation.workbook.gate import MASTER
from automation.workbook.reader import Workbook
from tests.workbook.test_row_cache import calamine_parsed

OTHERS = 80  # appends to other workbooks: more than the 64 findings or cells, and the 32 images, kept before


def rows_of(n: int) -> list[list[object]]:
    """A report's rows of its own (each append writes a part no other does)."""
    return [list(ROWS[0])] + [[turn, cpp + n, soviet, order] for turn, cpp, soviet, order in ROWS[1:]]


def test_an_append_s_image_findings_and_cells_outlive_eighty_appends_to_other_workbooks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "first.xlsx"
    shutil.copyfile(RICH, first)
    append_sheets(first, [report("Report 0", rows_of(0))], "Refit 0")
    for n in range(1, OTHERS + 1):
        other = tmp_path / f"other {n}.xlsx"
        shutil.copyfile(RICH, other)
        append_sheets(other, [report(f"Report {n}", rows_of(n))], f"Refit {n}")
    data = first.read_bytes()
    assert gatememo.find(gatememo.key_for(data, MASTER)) is not None  # the gate opens it without checking again
    seen = calamine_parsed(monkeypatch)
    assert Workbook(first).raw("Report 0")[1][1] == 12  # its new sheet read as the append kept it
    assert "Report 0" not in seen
    assert undoimage.find(data) is not None
    assert remove_last_batch(first) == ["Report 0"]


def test_past_its_limit_a_kind_of_kept_file_is_pruned_to_seven_eighths_the_newest_staying(tmp_path: Path) -> None:
    from automation.cachesetting import prune

    for n in range(17):
        (tmp_path / f"{n:02d}.cells").write_bytes(b"x")
        os.utime(tmp_path / f"{n:02d}.cells", ns=(10**9 * (n + 1), 10**9 * (n + 1)))  # 00 written longest ago
    (tmp_path / "other.rows").write_bytes(b"x")  # another kind: never counted with them
    prune(tmp_path, ".cells", 16)
    assert sorted(p.name for p in tmp_path.glob("*.cells")) == [f"{n:02d}.cells" for n in range(3, 17)]
    assert (tmp_path / "other.rows").exists()
    (tmp_path / "17.cells").write_bytes(b"x")
    prune(tmp_path, ".cells", 16)  # 15 of them: nothing goes until they are more than 16 again
    assert len(list(tmp_path.glob("*.cells"))) == 15
