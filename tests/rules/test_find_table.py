"""A look-up of one table (``odds``, ``roll``) loads only the rules file that
defines it, and finds the very table the whole rulebook gives."""
from __future__ import annotations

import pytest

from automation import rulebook
from automation.cli import main


def test_every_table_is_found_alone_as_the_whole_rulebook_has_it() -> None:
    book = rulebook.load_rulebook()
    for table in book.all_tables():
        assert rulebook.find_table(table.id) == book.table(table.id)
    assert rulebook.find_table("no.such_table") is None


def test_odds_loads_only_the_file_that_defines_the_table(monkeypatch, capsys) -> None:
    loaded: list[str] = []
    real = rulebook.load_system

    def counting(path):
        loaded.append(path.name)
        return real(path)

    monkeypatch.setattr(rulebook, "load_system", counting)
    assert main(["odds", "bf.cpp_replenishment"]) == 0
    assert loaded == ["bf_campaign.toml"]
    assert "bf.cpp_replenishment" in capsys.readouterr().out


def test_an_unknown_table_still_lists_every_table(capsys) -> None:
    assert main(["odds", "bf.no_such_table"]) == 2
    err = capsys.readouterr().err
    assert "unknown table 'bf.no_such_table'" in err and "bf.cpp_replenishment" in err and "abtf.escape" in err


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_file_naming_the_table_without_defining_it_is_passed_over(tmp_path, quote) -> None:
    source = rulebook.rules_dir()
    for path in sorted(source.glob("*.toml")):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    mention = tmp_path / "aaa_mentions.toml"
    mention.write_text((source / "bf_house.toml").read_text(encoding="utf-8").replace(
        "[system]", f"# see {quote}bf.cpp_replenishment{quote}\n[system]", 1).replace(
        'id = "bf-house"', 'id = "bf-house-copy"', 1), encoding="utf-8")
    table = rulebook.find_table("bf.cpp_replenishment", tmp_path)
    assert table is not None and table == rulebook.load_rulebook().table("bf.cpp_replenishment")
