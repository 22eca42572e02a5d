"""Each rules file's parse is kept beside it (``.parsed/``) with the text it
was parsed from: the next process reads the rules without parsing TOML, a
file edited since is read as it now is, and a kept parse that is damaged,
of other text, or not allowed is never used."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from automation import rulebook
from automation.cachesetting import CACHE_SETTING
from automation.errors import RulesError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    """A copy of the rules folder, with nothing kept yet."""
    folder = tmp_path / "rules"
    folder.mkdir()
    for path in sorted(rulebook.rules_dir().glob("*.toml")):
        (folder / path.name).write_bytes(path.read_bytes())
    return folder


def _in_new_process(rules: Path, code: str) -> str:
    env = {**os.environ, rulebook.RULES_ENV: str(rules), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _kept(rules: Path, name: str) -> Path:
    return rules / rulebook.PARSED / f"{name}.json"


def test_the_next_process_reads_the_rules_without_parsing_toml_and_gets_the_same_rulebook(rules: Path) -> None:
    report = ("import sys; from automation.rulebook import load_rulebook; book = load_rulebook(); "
              "print(sorted(t.id for t in book.all_tables()).__len__(), 'tomllib' in sys.modules)")
    assert _in_new_process(rules, report).endswith("True")  # nothing kept yet: parsed
    assert sorted(p.name for p in (rules / rulebook.PARSED).iterdir()) == \
        sorted(f"{p.name}.json" for p in rules.glob("*.toml"))
    count = _in_new_process(rules, report)
    assert count.endswith("False")  # the kept parses were read instead
    assert int(count.split()[0]) == len(rulebook.load_rulebook().all_tables())
    for path in sorted(rules.glob("*.toml")):  # the rules read from a kept parse are the rules parsed
        assert rulebook.load_system(path) == rulebook.load_system(rulebook.rules_dir() / path.name)


def test_a_rules_file_edited_after_its_parse_was_kept_is_read_as_it_now_is(rules: Path) -> None:
    path = rules / "bf_campaign.toml"
    before = rulebook.load_system(path)
    assert _kept(rules, path.name).is_file()
    table = before.tables["bf.cpp_replenishment"]
    path.write_text(path.read_text(encoding="utf-8").replace(f'title = "{table.title}"', 'title = "Edited title"', 1),
                    encoding="utf-8")
    assert rulebook.load_system(path).tables["bf.cpp_replenishment"].title == "Edited title"
    assert json.loads(_kept(rules, path.name).read_text(encoding="utf-8"))["source"] == \
        path.read_text(encoding="utf-8")  # and the new parse is kept


def test_a_kept_parse_of_other_text_is_never_used(rules: Path) -> None:
    path = rules / "bf_campaign.toml"
    rulebook.load_system(path)
    kept = json.loads(_kept(rules, path.name).read_text(encoding="utf-8"))
    kept["data"]["system"]["title"] = "Poisoned"
    kept["source"] += "\n# one more line\n"
    _kept(rules, path.name).write_text(json.dumps(kept), encoding="utf-8")
    assert rulebook.load_system(path).title != "Poisoned"


@pytest.mark.parametrize("damage", [b"", b"{not json", b"[1, 2]", b'{"format": 1, "source": 3}', b"\xff\xfe"])
def test_a_damaged_kept_parse_is_passed_over_and_made_again(rules: Path, damage: bytes) -> None:
    path = rules / "bf_house.toml"
    good = rulebook.load_system(path)
    _kept(rules, path.name).write_bytes(damage)
    assert rulebook.load_system(path) == good
    assert json.loads(_kept(rules, path.name).read_bytes())["source"] == path.read_text(encoding="utf-8")


def test_nothing_is_kept_when_keeping_is_turned_off(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert rulebook.load_system(rules / "bf_house.toml").id
    assert not (rules / rulebook.PARSED).exists()


def test_a_kept_parse_is_not_read_when_keeping_is_turned_off(rules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = rules / "bf_campaign.toml"
    rulebook.load_system(path)
    kept = json.loads(_kept(rules, path.name).read_text(encoding="utf-8"))
    kept["data"]["system"]["title"] = "Kept"
    _kept(rules, path.name).write_text(json.dumps(kept), encoding="utf-8")
    assert rulebook.load_system(path).title == "Kept"  # (the kept parse is what is read while keeping is on)
    monkeypatch.setenv(CACHE_SETTING, "off")
    assert rulebook.load_system(path).title != "Kept"


def test_a_rules_folder_where_nothing_can_be_kept_still_loads(rules: Path) -> None:
    (rules / rulebook.PARSED).write_text("a file where the folder would be", encoding="utf-8")
    book = rulebook.load_system(rules / "bf_campaign.toml")
    assert book.tables and (rules / rulebook.PARSED).is_file()
    assert [p.name for p in rules.iterdir() if p.name.startswith(".")] == [rulebook.PARSED]  # no half-written file


def test_bad_rules_files_are_still_refused_by_name(rules: Path) -> None:
    broken = rules / "bf_house.toml"
    rulebook.load_system(broken)  # a good parse kept first: the broken text is not it
    broken.write_text(broken.read_text(encoding="utf-8") + "\n[[not closed\n", encoding="utf-8")
    with pytest.raises(RulesError, match="bf_house.toml.*not valid TOML"):
        rulebook.load_system(broken)
    broken.write_bytes(b'[system]\nid = "x\xff"\n')
    with pytest.raises(RulesError, match="not UTF-8"):
        rulebook.load_system(broken)
