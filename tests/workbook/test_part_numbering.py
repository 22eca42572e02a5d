"""A graft numbers each new part past every part like it already in the
package (sheet1014.xml after sheet1013.xml), looking at the package's part
names once for each kind of name, not once for each new part: the same
names as looking at them all for every new part."""
from __future__ import annotations

import posixpath
import random
import re

from automation.workbook.sheetgraft import _new_name


def numbered_by_looking_at_every_part(name: str, taken: set[str]) -> str:
    """The numbering as it reads: every taken name looked at for each new part."""
    folder, base = posixpath.split(name)
    m = re.match(r"^(.*?)\d*(\.[^./]+)$", base)
    stem, ext = (m.group(1), m.group(2)) if m else (base, "")
    pattern = re.compile(re.escape(f"{folder}/{stem}".lower()) + r"(\d+)" + re.escape(ext.lower()) + "$")
    n = max([int(hit.group(1)) for t in taken if (hit := pattern.match(t))], default=0) + 1
    while f"{folder}/{stem}{n}{ext}".lower() in taken or f"{folder}/_rels/{stem}{n}{ext}.rels".lower() in taken:
        n += 1
    taken.update({f"{folder}/{stem}{n}{ext}".lower(), f"{folder}/_rels/{stem}{n}{ext}.rels".lower()})
    return f"{folder}/{stem}{n}{ext}"


NEW_PARTS = ["xl/worksheets/sheet1.xml", "xl/drawings/drawing1.xml", "xl/worksheets/sheet2.xml",
             "xl/comments1.xml", "xl/drawings/vmlDrawing1.vml", "xl/worksheets/sheet3.xml", "xl/tables/table1.xml",
             "xl/worksheets/Sheet9.XML", "xl/printerSettings/printerSettings1.bin", "xl/media/image.png"]


def package_names(rng: random.Random) -> set[str]:
    names = {"[content_types].xml", "xl/workbook.xml", "xl/styles.xml", "xl/_rels/workbook.xml.rels"}
    for _ in range(rng.randrange(0, 400)):
        kind = rng.choice(["xl/worksheets/sheet{}.xml", "xl/worksheets/_rels/sheet{}.xml.rels",
                           "xl/drawings/drawing{}.xml", "xl/drawings/_rels/drawing{}.xml.rels", "xl/comments{}.xml",
                           "xl/drawings/vmldrawing{}.vml", "xl/tables/table{}.xml", "xl/worksheets/sheet{}x.xml",
                           "xl/worksheets/sheet{}.bin", "xl/media/image{}.png"])
        names.add(kind.format(rng.randrange(1, 1500)))
    return names


def test_new_parts_are_numbered_as_when_every_part_is_looked_at_for_each() -> None:
    rng = random.Random(19)
    for _ in range(300):
        existing = package_names(rng)
        order = [rng.choice(NEW_PARTS) for _ in range(rng.randrange(1, 12))]
        taken, expected_taken, highest = set(existing), set(existing), {}
        got = [_new_name(part, taken, highest) for part in order]
        expected = [numbered_by_looking_at_every_part(part, expected_taken) for part in order]
        assert got == expected
        assert taken == expected_taken


def test_a_long_package_numbers_the_next_sheets_past_its_last() -> None:
    taken = {f"xl/worksheets/sheet{n}.xml" for n in range(1, 1014)} | {"xl/worksheets/_rels/sheet1014.xml.rels"}
    highest: dict[tuple[str, str], int] = {}
    assert [_new_name("xl/worksheets/sheet1.xml", taken, highest) for _ in range(3)] == [
        "xl/worksheets/sheet1015.xml", "xl/worksheets/sheet1016.xml", "xl/worksheets/sheet1017.xml"]


class CountedSet(set):
    """A set that counts the times its names are looked at one by one."""

    walks = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        CountedSet.walks += 1
        return super().__iter__()


def test_the_package_names_are_looked_at_once_for_each_kind_of_new_part() -> None:
    taken = CountedSet(f"xl/worksheets/sheet{n}.xml" for n in range(1, 1014))
    CountedSet.walks = 0
    highest: dict[tuple[str, str], int] = {}
    for part in ["xl/worksheets/sheet1.xml"] * 5 + ["xl/drawings/drawing1.xml"] * 2:
        _new_name(part, taken, highest)
    assert CountedSet.walks == 2
