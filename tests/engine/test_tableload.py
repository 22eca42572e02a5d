import pytest

from automation.engine.tableload import build_system
from automation.errors import RulesError
from automation.rulebook import load_rulebook, load_system


def system(*tables, **extra):
    return {"system": {"id": "test", "title": "Test", "seed": "x"}, "table": list(tables), **extra}


def table(**over):
    t = {"id": "t.one", "title": "One", "source": "1.2", "dice": "d10",
         "rows": [{"min": 6, "result": "Yes"}, {"max": 5, "result": "No"}]}
    t.update(over)
    return t


def test_a_well_formed_table_loads():
    s = build_system(system(table()), "test.toml")
    assert s.table("t.one").bands[0].label == "≥6"


def test_a_gap_between_bands_is_named_with_file_table_and_number():
    bad = table(rows=[{"min": 7, "result": "Yes"}, {"max": 5, "result": "No"}])
    with pytest.raises(RulesError, match=r"test.toml: table 't.one': final number 6 falls in no band"):
        build_system(system(bad), "test.toml")


def test_overlapping_bands_are_refused():
    bad = table(rows=[{"min": 5, "result": "Yes"}, {"max": 5, "result": "No"}])
    with pytest.raises(RulesError, match="more than one band: row 1 .*row 2"):
        build_system(system(bad), "test.toml")


def test_modifiers_widen_the_range_the_bands_must_cover():
    bad = table(rows=[{"min": 6, "max": 10, "result": "Yes"}, {"min": 1, "max": 5, "result": "No"}],
                modifiers=[{"id": "m", "name": "M", "source": "1.2", "value": 2, "when": "m"}])
    with pytest.raises(RulesError, match="final number 11 falls in no band"):
        build_system(system(bad), "test.toml")


def test_a_computed_modifier_needs_open_ended_bands():
    bad = table(rows=[{"min": 6, "max": 10, "result": "Yes"}, {"max": 5, "result": "No"}],
                modifiers=[{"id": "m", "name": "M", "source": "1.2", "input": "hexes", "per": 2}])
    with pytest.raises(RulesError, match="highest band needs no 'max'"):
        build_system(system(bad), "test.toml")


def test_a_modifier_without_a_source_is_refused():
    bad = table(modifiers=[{"id": "m", "name": "M", "value": 1}])
    with pytest.raises(RulesError, match="table 't.one' modifier 1 'm': missing 'source'"):
        build_system(system(bad), "test.toml")


def test_a_table_without_a_source_is_refused():
    t = table()
    del t["source"]
    with pytest.raises(RulesError, match="table 't.one': missing 'source'"):
        build_system(system(t), "test.toml")


def test_a_row_missing_a_column_result_is_named():
    bad = table(columns=["A", "B"], rows=[{"min": 6, "results": {"A": "x"}}, {"max": 5, "result": "No"}])
    with pytest.raises(RulesError, match=r"row 1: 'results' must name exactly the columns \['A', 'B'\]; missing \['B'\]"):
        build_system(system(bad), "test.toml")


def test_unknown_dice_lists_the_valid_kinds():
    with pytest.raises(RulesError, match="unknown dice 'd8'; valid: d6, 2d6, d10, d100"):
        build_system(system(table(dice="d8")), "test.toml")


def test_a_table_the_seed_does_not_print_must_say_the_umpire_enters_it():
    with pytest.raises(RulesError, match="umpire_entered"):
        build_system(system(table(rows=[])), "test.toml")
    s = build_system(system(table(rows=[], umpire_entered=True)), "test.toml")
    assert s.table("t.one").is_empty


def test_a_broken_rules_file_names_the_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("[system\nid=1")
    with pytest.raises(RulesError, match="broken.toml: not valid TOML"):
        load_system(p)


def test_every_shipped_table_and_modifier_has_a_rule_number():
    book = load_rulebook()
    assert set(book.systems) >= {"bf-campaign"}
    for t in book.all_tables():
        assert t.source.strip()
        assert all(m.source.strip() for m in t.modifiers), t.id
    for c in book.all_charts():
        assert c.source.strip()
