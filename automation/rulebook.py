"""Loading rules/ files into the engine's :class:`Rulebook` (the only file I/O
for rules; the engine itself builds from plain data)."""
from __future__ import annotations

import os
import tomllib
from functools import lru_cache
from pathlib import Path

from automation.engine.tableload import build_system
from automation.engine.tables import Rulebook, RuleSystem, Table
from automation.errors import RulesError

RULES_ENV = "MUSTERROLL_RULES"


def rules_dir() -> Path:
    """rules/ beside the package (or the folder named by $MUSTERROLL_RULES)."""
    override = os.environ.get(RULES_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "rules"


def load_system(path: Path) -> RuleSystem:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(str(path), f"not valid TOML: {exc}") from None
    except OSError as exc:
        raise RulesError(str(path), f"cannot be read: {exc.strerror}") from None
    return build_system(data, path.name)


@lru_cache(maxsize=4)
def _load(folder: str) -> Rulebook:
    root = Path(folder)
    files = sorted(root.glob("*.toml"))
    if not files:
        raise RulesError(folder, "holds no rules files (*.toml)")
    systems = {}
    for f in files:
        system = load_system(f)
        if system.id in systems:
            raise RulesError(f.name, f"system id {system.id!r} is also used by {systems[system.id].origin}")
        systems[system.id] = system
    return Rulebook(systems)


def load_rulebook(folder: Path | None = None) -> Rulebook:
    return _load(str(folder or rules_dir()))


def find_table(table_id: str, folder: Path | None = None) -> Table | None:
    """Table ``table_id`` as :meth:`Rulebook.table` finds it (the first system,
    in file order, that has it), loading only the files whose text names it
    (one, for a look-up such as ``musterroll odds``); None if none has it."""
    root = Path(folder or rules_dir())
    quoted = (f'"{table_id}"', f"'{table_id}'")
    for path in sorted(root.glob("*.toml")):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeError):
            continue  # the whole rulebook's loading says what is wrong with it
        if any(q in text for q in quoted):
            table = load_system(path).tables.get(table_id)
            if table is not None:
                return table
    return None
