"""docs/workbook.md keeps up with the sheet contract it documents."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from automation.workbook import bf_sheets
from automation.workbook.schema import CHARTS, MODIFIERS, SETTINGS, SIDES_SHEET, TABLES, SheetKind
from automation.workbook.layout import TAB_COLOURS

DOC = Path(__file__).resolve().parents[2] / "docs" / "workbook.md"
KINDS = [SETTINGS, SIDES_SHEET, TABLES, MODIFIERS, CHARTS] + [k for k in bf_sheets.KINDS if k is not bf_sheets.SUMMARY]


def sections() -> dict[str, str]:
    parts = DOC.read_text(encoding="utf-8").split("\n### ")[1:]
    return {p.split("\n", 1)[0]: p for p in parts}


def section_of(kind: SheetKind) -> str:
    word = kind.title.split(" {")[0]
    return next(body for heading, body in sections().items() if word in heading)


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.id)
def test_every_column_of_every_battlefront_sheet_is_documented(kind: SheetKind) -> None:
    body = section_of(kind)
    missing = [c.name for c in kind.columns if not re.search(rf"(?<![\w-]){re.escape(c.name)}(?![\w-])", body)]
    assert not missing, f"docs/workbook.md does not describe {kind.title}: {missing}"


@pytest.mark.parametrize("kind", [k for k in KINDS if any(isinstance(c.choices, tuple) for c in k.columns)],
                         ids=lambda k: k.id)
def test_every_fixed_dropdown_value_is_documented(kind: SheetKind) -> None:
    body = section_of(kind)
    for column in kind.columns:
        if isinstance(column.choices, tuple):
            assert all(v in body for v in column.choices), f"{kind.title}: {column.name}: {column.choices}"


def test_every_tab_colour_and_the_a_bridge_too_far_section_are_there() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert all(f"`{colour}`" in text for colour in TAB_COLOURS.values())
    assert "\n## A Bridge Too Far\n" in text
