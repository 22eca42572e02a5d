"""The bundled sample campaign, Advance to Rostov (seed 001), and the demo.

The CPP table, historical DRM chart (Dec 23-27) and the O3 limits come from the
seed; the rosters and RG charts are ILLUSTRATIVE (invented for the sample and
marked so in the workbook). ``python -m automation.samples`` rebuilds
samples/advance_to_rostov.xlsx; its key file is public, as a sample's key is.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from automation.engine.dice import CampaignKey
from automation.workbook import bf_sheets as K

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "advance_to_rostov.xlsx"
SAMPLE_KEY = CampaignKey.from_text("Advance to Rostov: public sample key")
ILLUSTRATIVE = "ILLUSTRATIVE: invented for the sample"

SIDES = [["German", "German", 10, 4, "No", "Defend"], ["Russian", "Russian", 10, 2, "Yes", "Attack"]]
DATES = [[f"Dec {d}", f"1942-12-{d}", "Full day", "one scenario a day (2.1.1.1)"] for d in range(23, 28)]
HISTORICAL = [["Dec 23", "Russian", 0], ["Dec 23", "German", -2], ["Dec 24", "Russian", 0], ["Dec 24", "German", 0],
              ["Dec 25", "Russian", -3], ["Dec 25", "German", 2], ["Dec 26", "Russian", -5], ["Dec 26", "German", 4],
              ["Dec 27", "Russian", "No CPP's"], ["Dec 27", "German", 5]]
RG = [
    # Side, ID, Description, Kind, ME class, ME type, Stands, Discipline, CPP, Scenario max, Campaign max, FPP, Notes
    ["German", "I1", "Panzergrenadier company", "ME", "I", "Panzergrenadier company",
     "Command x1; Panzergrenadier x6; HMG x2", "Veteran", 8, 2, 3, None, ILLUSTRATIVE],
    ["German", "A1", "Panzer company (PzKpfw IV)", "ME", "A", "Panzer company",
     "Command tank x1 [AFV]; PzKpfw IVG x4 [AFV]", "Veteran", 12, 2, 2, None, ILLUSTRATIVE],
    ["German", "E1", "Pioneer platoon", "ME", "E", "Pioneer platoon", "Command x1; Pioneer x3 [Engineers]",
     "Veteran", 6, 1, 2, None, ILLUSTRATIVE],
    ["German", "O3", "Medium artillery battalion", "OBA", None, None, None, None, 6, 2, 4, None,
     "2.1.1.4.3 example: up to 4 in the game, at most 2 on any one day; CPP cost illustrative"],
    ["German", "F1", "Stuka flight", "Aircraft", None, None, None, None, 5, 1, 3, None, ILLUSTRATIVE],
    ["German", "P1", "Engineer stores", "FPP", None, None, None, None, 3, None, 3, 4, ILLUSTRATIVE],
    ["Russian", "I1", "Rifle company", "ME", "I", "Rifle company", "Command x1; Rifle x9; HMG x1", "Trained",
     5, 3, 6, None, ILLUSTRATIVE],
    ["Russian", "A1", "Tank company (T-34)", "ME", "A", "Tank company", "Command tank x1 [AFV]; T-34/76 x4 [AFV]",
     "Trained", 10, 2, 4, None, ILLUSTRATIVE],
    ["Russian", "A2", "Light tank company (T-70)", "ME", "A", "Light tank company", "T-70 x3 [AFV]", "Raw",
     6, 2, 3, None, ILLUSTRATIVE],
    ["Russian", "O1", "Artillery regiment", "OBA", None, None, None, None, 5, 2, 4, None, ILLUSTRATIVE],
    ["Russian", "F1", "Il-2 flight", "Aircraft", None, None, None, None, 5, 1, 2, None, ILLUSTRATIVE],
    ["Russian", "P1", "Sapper stores", "FPP", None, None, None, None, 3, None, 2, 3, ILLUSTRATIVE],
]
FP = [["Both", "Minefield section", 2, ILLUSTRATIVE], ["Both", "Wire section", 1, ILLUSTRATIVE],
      ["Both", "Roadblock", 1, ILLUSTRATIVE], ["German", "Improved position", 1, ILLUSTRATIVE]]


def _me(side: str, me: str, cls: str, mtype: str, rg: str | None, disc: str, stands: list[tuple[str, str, str, str | None]]) -> list[list[Any]]:
    rows = []
    for stand_id, stype, kind, tracks in stands:
        rows.append([side, me, cls, mtype, rg, disc, stand_id, stype, kind, tracks, "Available", "Normal", None, None,
                     None, None, None, "Normal", ILLUSTRATIVE if stand_id.endswith("-1") else None])
    return rows


FT = "Fully tracked"
ROSTER: list[list[Any]] = (
    _me("German", "II/11 Pz", "A", "Panzer company", "A1", "Veteran",
        [("G-Pz-1", "PzKpfw IIIJ (command)", "AFV", FT), ("G-Pz-2", "PzKpfw IVG", "AFV", FT),
         ("G-Pz-3", "PzKpfw IVG", "AFV", FT), ("G-Pz-4", "PzKpfw IIIJ", "AFV", FT), ("G-Pz-5", "PzKpfw IIIJ", "AFV", FT)])
    + _me("German", "4/114 PzG", "I", "Panzergrenadier company", "I1", "Veteran",
          [("G-PzG-1", "Command", "Command", None)] + [(f"G-PzG-{i}", "Panzergrenadier", "Troops", None) for i in range(2, 8)]
          + [("G-PzG-8", "HMG", "Troops", None), ("G-PzG-9", "HMG", "Troops", None)])
    + _me("German", "2/57 Pio", "E", "Pioneer platoon", "E1", "Veteran",
          [("G-Pio-1", "Command", "Command", None)] + [(f"G-Pio-{i}", "Pioneer", "Engineers", None) for i in range(2, 5)])
    + _me("German", "I/76 AR", "G", "Artillery battery", None, "Experienced",
          [("G-Art-1", "10.5cm leFH 18", "Gun", None), ("G-Art-2", "10.5cm leFH 18", "Gun", None)])
    + _me("Russian", "1/87 TB", "A", "Tank company", "A1", "Trained",
          [("R-T34-1", "T-34/76 (command)", "AFV", FT)] + [(f"R-T34-{i}", "T-34/76", "AFV", FT) for i in range(2, 6)])
    + _me("Russian", "2/87 TB", "A", "Light tank company", "A2", "Raw",
          [(f"R-T70-{i}", "T-70", "AFV", FT) for i in range(1, 4)])
    + _me("Russian", "1/1378 RR", "I", "Rifle company", "I1", "Trained",
          [("R-1RR-1", "Command", "Command", None)] + [(f"R-1RR-{i}", "Rifle", "Troops", None) for i in range(2, 11)]
          + [("R-1RR-11", "HMG", "Troops", None)])
    + _me("Russian", "2/1378 RR", "I", "Rifle company", "I1", "Raw",
          [("R-2RR-1", "Command", "Command", None)] + [(f"R-2RR-{i}", "Rifle", "Troops", None) for i in range(2, 11)]
          + [("R-2RR-11", "HMG", "Troops", None)])
    + _me("Russian", "Sap 1378", "E", "Sapper platoon", None, "Trained",
          [(f"R-Sap-{i}", "Sapper", "Engineers", None) for i in range(1, 4)])
)


def build_sample(path: Path = SAMPLE) -> Path:
    from automation.rulebook import load_rulebook
    from automation.workbook.campaign_sheets import START, default_lists
    from automation.workbook.template import SheetContent, chart_rows, system_sheets, write_workbook

    system = load_rulebook().system("bf-campaign")
    data = {K.DATES.id: DATES, K.HISTORICAL_DRM.id: HISTORICAL, K.RG_CHART.id: RG, K.FP_CHART.id: FP,
            K.ROSTER.id: ROSTER, "sides": SIDES}
    sheets = []
    for sheet in system_sheets(system, "Advance to Rostov (sample)", SAMPLE_KEY.commitment):
        rows = data.get(sheet.kind.id)
        if sheet.kind.id == K.HISTORICAL_DRM.id:
            rows = [r + ["2.1.1.1"] for r in HISTORICAL]
        if sheet.kind.id == "charts":  # the sample's own chart (its Historical DRM) with the rules' charts
            rows = chart_rows(system)
        sheets.append(SheetContent(sheet.kind, sheet.name, rows if rows is not None else sheet.rows))
    assert any(s.name == K.ROSTER.name_for(date=START) for s in sheets)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_workbook(path, sheets, default_lists(system))
    path.with_suffix(".key").write_text(SAMPLE_KEY.to_hex() + "\n")
    return path


def demo_copy(sample: Path, folder: Path) -> Path:
    """A fresh copy of ``sample`` and its key in ``folder``, for a demo to play;
    a workbook already there is never replaced."""
    from automation.errors import UsageError

    folder.mkdir(parents=True, exist_ok=True)
    book = folder / sample.name
    if book.exists():
        raise UsageError(f"{book} already exists: remove it or choose another --folder")
    shutil.copyfile(sample, book)
    shutil.copyfile(sample.with_suffix(".key"), book.with_suffix(".key"))
    return book


def whole_sheet(name: str, kind: Any, rows: list[list[Any]], tab: str) -> Any:
    """A decision sheet entered whole (header and ``rows``), in place of the
    form the refit wrote: how the tests enter a sheet the forms would take
    several steps to fill."""
    from automation.workbook.package import NewSheet

    return NewSheet(name, [kind.header] + rows, kind=tab, column_widths=[c.width for c in kind.columns])


if __name__ == "__main__":  # pragma: no cover
    print(build_sample())
