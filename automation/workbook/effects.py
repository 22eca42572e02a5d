"""A modifier's Effect as the Modifiers sheet holds it: ``cpp=18; repaired=true``.

The template writes it (:func:`effect_text`) and a campaign's own tables are
read back from it (:func:`parse_effect`); each value is JSON where it reads
as JSON (numbers, true/false, quoted text), else the text as typed.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def effect_text(effect: Mapping[str, Any]) -> str:
    return "; ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in effect.items())


def parse_effect(text: str) -> dict[str, Any]:
    """'cpp=18; repaired=true' -> {'cpp': 18, 'repaired': True}."""
    out: dict[str, Any] = {}
    for part in str(text or "").split(";"):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{part.strip()!r} is not NAME=VALUE")
        try:
            out[key.strip()] = json.loads(value.strip())
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


__all__ = ["effect_text", "parse_effect"]
