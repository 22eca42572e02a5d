"""A player's file is checked whole on every import, and its lists of sheets
and relationships are read by the same scan that checks them
(automation.workbook.gate: ``Gate._scan`` with ``gather``): the sheets, their
parts and every attribute are found as a parse of the lists as trees finds
them, in every layout another program may leave; a list that fails its
check is refused as before."""
from __future__ import annotations

from package_helpers import *  # noqa: F403 - the shared helpers, fixture and imports

from automation.cachesetting import CACHE_SETTING
from automation.workbook import gate as gate_module
from automation.workbook.gate import GATHERED, MASTER, PLAYER, TREES, Gate
from automation.workbook.package import REL_NS

from test_package_lists import KINDS, _variant


def _as_trees(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Gate, dict[tuple[str, str], list[dict]]]:
    """A gate of the file that parses its lists as trees (a master's, nothing kept), and every element of
    the gathered names in each list part, as those trees hold them."""
    with monkeypatch.context() as m:
        m.setenv(CACHE_SETTING, "off")
        gate = Gate(str(path), path.read_bytes(), MASTER)
        found = {}
        for part in TREES:
            info = gate.info(part)
            if info is not None:
                for local in GATHERED:
                    found[(info.filename, local)] = [dict(a) for a in gate._elements(info.filename, local)]
        return gate, found


def _parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    tree = gate_module.ElementTree.fromstring
    monkeypatch.setattr(gate_module.ElementTree, "fromstring", lambda data: (seen.append("parse"), tree(data))[1])
    return seen


@pytest.mark.parametrize("kind", KINDS)
def test_a_players_sheets_and_relationships_are_found_as_the_trees_hold_them(
        book: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    _variant(book, kind)
    trees, expected = _as_trees(book, monkeypatch)
    seen = _parsed(monkeypatch)
    player = Gate(str(book), book.read_bytes(), PLAYER)
    targets = player.sheet_targets()
    gathered = {where: [dict(a) for a in player._elements(*where)] for where in expected}
    assert seen == []  # not one list parsed as a tree
    assert gathered == expected
    assert any(expected[where] for where in expected if where[1] == "sheet")  # (sheets were there to find)
    master_targets = trees.sheet_targets()
    assert {name: targets[name] for name in targets} == {name: master_targets[name] for name in master_targets}


def test_a_sheets_namespaced_attributes_are_named_as_elementtree_names_them(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    book = tmp_path / "book.xlsx"
    shutil.copyfile(RICH, book)
    xml = contents(book)["xl/workbook.xml"].decode()
    rezip(book, {"xl/workbook.xml": xml.replace("xmlns:r=", "xmlns:rel=").replace(" r:id=", " rel:id=")
                 .replace("<sheet ", '<sheet xmlns:x="urn:x" x:note="a &amp; b" ', 1).encode()})
    _, expected = _as_trees(book, monkeypatch)
    player = Gate(str(book), book.read_bytes(), PLAYER)
    sheets = [dict(a) for a in player._elements("xl/workbook.xml", "sheet")]
    assert sheets == expected[("xl/workbook.xml", "sheet")]
    assert sheets[0]["{urn:x}note"] == "a & b"
    assert all(f"{{{REL_NS}}}id" in a for a in sheets)


def test_a_players_list_with_a_dtd_is_refused_before_anything_is_gathered(book: Path) -> None:
    xml = contents(book)["xl/workbook.xml"].decode()
    rezip(book, {"xl/workbook.xml": xml.replace("?>", '?><!DOCTYPE x [<!ENTITY a "b">]>', 1).encode()})
    with pytest.raises(WorkbookFileError, match="DTD"):
        Gate(str(book), book.read_bytes(), PLAYER).sheet_targets()


def test_a_players_list_with_more_elements_than_the_limit_is_refused(book: Path) -> None:
    import dataclasses

    rels = contents(book)["xl/_rels/workbook.xml.rels"].decode()
    rezip(book, {"xl/_rels/workbook.xml.rels": rels.replace("</Relationships>", "<x/>" * 60 + "</Relationships>")})
    limits = dataclasses.replace(PLAYER, elements=50)
    with pytest.raises(WorkbookFileError, match="more than 50 elements"):
        Gate(str(book), book.read_bytes(), limits).sheet_targets()
