"""Loading rules/ files into the engine's :class:`Rulebook` (the only file I/O
for rules; the engine itself builds from plain data).

Parsing the TOML of the rules files is most of loading them, and every
command that resolves anything loads them. So each file's parse is kept
beside it, in the rules folder's ``.parsed/`` folder, as JSON with the very
text it was parsed from: a process whose file holds that text takes the
kept parse (JSON is read many times faster than TOML is parsed), any other
parses the file again and keeps the new parse. A file edited is therefore
read as it now is. Keeping is best effort (a rules folder that cannot be
written keeps nothing) and ``MUSTERROLL_CACHE=off`` turns it off, as it
turns off every other thing kept between runs."""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from automation.cachesetting import keeping_off
from automation.engine.tableload import build_system
from automation.engine.tables import Rulebook, RuleSystem, Table
from automation.errors import RulesError

RULES_ENV = "MUSTERROLL_RULES"
PARSED = ".parsed"  # the folder, beside the rules files, their kept parses are in
PARSED_FORMAT = 1


def rules_dir() -> Path:
    """rules/ beside the package (or the folder named by $MUSTERROLL_RULES)."""
    override = os.environ.get(RULES_ENV)
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "rules"


def load_system(path: Path) -> RuleSystem:
    return build_system(read_rules_file(path), path.name)


def read_rules_file(path: Path) -> dict[str, Any]:
    """The data of rules file ``path``: its kept parse when that was made from
    the text it holds now, else its TOML parsed (and kept for the next run)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesError(str(path), f"cannot be read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError(str(path), f"not valid TOML: it is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    keep = not keeping_off()
    kept = _kept_parse(path) if keep else None
    if kept is not None and kept.get("format") == PARSED_FORMAT and kept.get("source") == text \
            and isinstance(kept.get("data"), dict):
        return kept["data"]
    import tomllib  # only when a file changed since its parse was kept

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(str(path), f"not valid TOML: {exc}") from None
    if keep:
        _keep_parse(path, text, data)
    return data


def _parsed_path(path: Path) -> Path:
    return path.parent / PARSED / (path.name + ".json")


def _kept_parse(path: Path) -> dict[str, Any] | None:
    """The parse kept for ``path``, if there is one that reads as JSON."""
    try:
        kept = json.loads(_parsed_path(path).read_bytes())
    except (OSError, ValueError):  # none yet, unreadable, or cut short: parsed again
        return None
    return kept if isinstance(kept, dict) else None


def _keep_parse(path: Path, text: str, data: dict[str, Any]) -> None:
    """Keep ``data``, the parse of ``text``, beside ``path`` (written whole or
    not at all; nothing kept when the folder cannot be written, or when the
    data holds a value JSON does not give back as it was: a TOML date)."""
    try:
        encoded = json.dumps({"format": PARSED_FORMAT, "source": text, "data": data}, ensure_ascii=False,
                             allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):  # dates and times; infinities and NaN: parsed from the TOML every time
        return
    target = _parsed_path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        target.parent.mkdir(exist_ok=True)
        temporary.write_bytes(encoded)
        os.replace(temporary, target)
    except OSError:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass


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
            text = path.read_text(encoding="utf-8")  # (read again by load_system: a few KB, from the page cache)
        except (OSError, UnicodeError):
            continue  # the whole rulebook's loading says what is wrong with it
        if any(q in text for q in quoted):
            table = load_system(path).tables.get(table_id)
            if table is not None:
                return table
    return None
