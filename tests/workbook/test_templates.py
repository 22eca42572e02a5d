"""The committed templates and the sample are what the project's generators make.

Compared by content (sheet names, every cell value, data validations, frozen
panes, tab colours, column widths, defined names), never by raw bytes, which
vary with library versions."""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from automation.samples import SAMPLE, build_sample
from automation.workbook.template import TEMPLATES_DIR, build_all_templates

REBUILD = {"template": "python -m automation.workbook.template", "sample": "python -m automation.samples"}


def content(path: Path) -> dict[str, Any]:
    """What a user sees in the workbook, sheet by sheet."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(path)
    sheets = {}
    for ws in wb.worksheets:
        sheets[ws.title] = {
            "cells": [list(r) for r in ws.iter_rows(values_only=True)],
            "validations": sorted((dv.type, dv.formula1, dv.formula2, str(dv.sqref), bool(dv.allow_blank))
                                  for dv in ws.data_validations.dataValidation),
            "freeze": ws.freeze_panes,
            "tab": ws.sheet_properties.tabColor.rgb if ws.sheet_properties.tabColor else None,
            "widths": {k: round(d.width, 2) for k, d in ws.column_dimensions.items() if d.width},
            "comments": {c.coordinate: c.comment.text for row in ws.iter_rows() for c in row if c.comment},
        }
    names = sorted((n, d.attr_text) for n, d in wb.defined_names.items())
    return {"sheets": list(wb.sheetnames), "by_sheet": sheets, "names": names}


def differences(made: dict[str, Any], committed: dict[str, Any]) -> list[str]:
    out = []
    if made["sheets"] != committed["sheets"]:
        out.append(f"sheets: generator makes {made['sheets']}, committed has {committed['sheets']}")
    if made["names"] != committed["names"]:
        out.append("defined names differ")
    for name, sheet in made["by_sheet"].items():
        other = committed["by_sheet"].get(name)
        if other is None:
            continue
        for aspect, value in sheet.items():
            if value != other[aspect]:
                if aspect == "cells":
                    rows = max(len(value), len(other["cells"]))
                    first = next(i for i in range(rows) if (value[i:i + 1] or [None]) != (other["cells"][i:i + 1] or [None]))
                    out.append(f"{name}: cells differ from row {first + 1}")
                else:
                    out.append(f"{name}: {aspect} differ")
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("generated")
    made = {p.name: p for p in build_all_templates(folder)}
    made["sample"] = build_sample(folder / "sample" / SAMPLE.name)
    return made


def test_the_generator_makes_a_template_for_every_campaign_system(generated: dict[str, Path]) -> None:
    from automation.systems import campaign_system_ids

    assert {f"{s}.xlsx" for s in campaign_system_ids()} <= set(generated)


def test_every_committed_template_is_one_the_generator_makes(generated: dict[str, Path]) -> None:
    committed = {p.name for p in TEMPLATES_DIR.glob("*.xlsx")}
    made = {n for n in generated if n.endswith(".xlsx")}
    assert committed == made, f"xlsx_templates/ is stale: rebuild it with {REBUILD['template']}"


def test_each_committed_template_has_the_content_the_generator_makes(generated: dict[str, Path]) -> None:
    for name, path in generated.items():
        if name == "sample":
            continue
        committed = TEMPLATES_DIR / name
        assert committed.exists(), f"{committed} is missing: rebuild it with {REBUILD['template']}"
        diff = differences(content(path), content(committed))
        assert not diff, f"{committed} differs from the generator ({REBUILD['template']}): " + "; ".join(diff)


def test_the_committed_sample_has_the_content_its_generator_makes(generated: dict[str, Path]) -> None:
    diff = differences(content(generated["sample"]), content(SAMPLE))
    assert not diff, f"{SAMPLE} differs from the generator ({REBUILD['sample']}): " + "; ".join(diff)
    assert generated["sample"].with_suffix(".key").read_text() == SAMPLE.with_suffix(".key").read_text()


def test_the_comparison_notices_a_changed_cell_a_lost_dropdown_and_an_unfrozen_header(
        generated: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "edited.xlsx"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(generated["bf-campaign.xlsx"])
        wb["Modifiers"]["D2"] = 7
        wb["Sides"].data_validations.dataValidation = []
        wb["Dates"].freeze_panes = None
        wb.save(path)
    diff = differences(content(path), content(generated["bf-campaign.xlsx"]))
    assert "Modifiers: cells differ from row 2" in diff
    assert "Sides: validations differ" in diff
    assert "Dates: freeze differ" in diff


def test_templates_freeze_headers_size_columns_and_offer_dropdowns(generated: dict[str, Path]) -> None:
    sheets = content(generated["bf-campaign.xlsx"])["by_sheet"]
    assert all(s["freeze"] == "A2" for s in sheets.values())
    roster = sheets["Roster Start"]
    assert roster["widths"]["G"] == pytest.approx(16.71, abs=0.01)  # Stand: 16 characters wide
    status = next(v for v in roster["validations"] if v[3].startswith("K2"))
    assert status[:2] == ("list", '"Available,Wreck,Abandoned,Used"')
    discipline = next(v for v in roster["validations"] if v[3].startswith("F2"))
    assert discipline[:2] == ("list", "list_discipline")
