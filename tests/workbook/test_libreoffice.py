"""LibreOffice as a real client: headless soffice opens every template, every
sample and a campaign after a full demo run (several appended batches),
converts each to PDF and back to .xlsx, and the values it saved match ours on
every sheet.

soffice exits 0 even when it could not load a file, so every output is checked
for itself. When CI=true these tests fail if soffice is missing; elsewhere they
are skipped. The files go through two soffice runs in all (one per target)."""
from __future__ import annotations

import contextlib
import io
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from automation.samples import SAMPLE
from automation.samples_demo import run_demo
from automation.workbook.template import TEMPLATES_DIR
from tests.workbook.package_helpers import soffice

TIMEOUT = 600




def convert(files: list[Path], target: str, outdir: Path) -> subprocess.CompletedProcess[str]:
    """One headless soffice run converting every file, with a profile of its own."""
    profile = Path(tempfile.gettempdir()) / f"lo-musterroll-{uuid.uuid4().hex}"
    outdir.mkdir(parents=True, exist_ok=True)
    try:
        return subprocess.run(
            [soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore", "--nolockcheck",
             "--convert-to", target, "--outdir", str(outdir), *map(str, files)],
            capture_output=True, text=True, timeout=TIMEOUT, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def values(path: Path) -> dict[str, list[list[Any]]]:
    """Every sheet's values, without trailing empty cells and rows."""
    book = CalamineWorkbook.from_path(str(path))
    out = {}
    for name in book.sheet_names:
        rows = [list(r) for r in book.get_sheet_by_name(name).to_python(skip_empty_area=False)]
        for r in rows:
            while r and r[-1] in ("", None):
                r.pop()
        while rows and not rows[-1]:
            rows.pop()
        out[name] = rows
    return out


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every template, every sample, and the Rostov sample after the whole demo."""
    soffice()
    folder = tmp_path_factory.mktemp("libreoffice")
    inputs = folder / "in"
    inputs.mkdir()
    out: dict[str, Path] = {}
    for template in sorted(TEMPLATES_DIR.glob("*.xlsx")):
        out[f"template {template.stem}"] = Path(shutil.copyfile(template, inputs / f"template-{template.name}"))
    for sample in sorted(SAMPLE.parent.glob("*.xlsx")):
        out[f"sample {sample.stem}"] = Path(shutil.copyfile(sample, inputs / f"sample-{sample.name}"))
    with contextlib.redirect_stdout(io.StringIO()):
        played = run_demo(folder / "demo")
    out["demo"] = Path(shutil.copyfile(played, inputs / f"demo-{played.name}"))
    return out


@pytest.fixture(scope="module")
def pdfs(books: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    outdir = tmp_path_factory.mktemp("pdf")
    convert(list(books.values()), "pdf", outdir)
    return {key: outdir / f"{path.stem}.pdf" for key, path in books.items()}


@pytest.fixture(scope="module")
def resaved(books: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    outdir = tmp_path_factory.mktemp("xlsx")
    convert(list(books.values()), "xlsx:Calc MS Excel 2007 XML", outdir)
    return {key: outdir / path.name for key, path in books.items()}


def test_the_books_include_every_template_the_sample_and_a_campaign_after_several_appends(books: dict[str, Path]) -> None:
    from automation.workbook.package import list_batches

    assert {f"template {p.stem}" for p in TEMPLATES_DIR.glob("*.xlsx")} < set(books)
    assert ROSTOV in books
    assert len(list_batches(books["demo"])) >= 4


ROSTOV = f"sample {SAMPLE.stem}"


@pytest.mark.parametrize("key", [ROSTOV, "demo", "template bf-campaign"])
def test_libreoffice_makes_a_pdf(pdfs: dict[str, Path], key: str) -> None:
    pdf = pdfs[key]
    assert pdf.is_file(), f"LibreOffice made no PDF of the {key}"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]
    assert data.count(b"/Type /Page") + data.count(b"/Type/Page") > 1


def test_libreoffice_makes_a_pdf_of_every_template_and_sample(pdfs: dict[str, Path], books: dict[str, Path]) -> None:
    for key in books:
        assert pdfs[key].is_file() and pdfs[key].read_bytes().startswith(b"%PDF-"), f"no PDF of the {key}"


@pytest.mark.parametrize("key", [ROSTOV, "demo", "template bf-campaign"])
def test_the_values_libreoffice_saves_match_ours_on_every_sheet(books: dict[str, Path], resaved: dict[str, Path],
                                                                key: str) -> None:
    assert resaved[key].is_file(), f"LibreOffice could not open and save the {key}"
    ours, theirs = values(books[key]), values(resaved[key])
    assert list(theirs) == list(ours)
    for name in ours:
        assert theirs[name] == ours[name], f"{key}: sheet {name!r} reads back differently"


def test_every_template_and_sample_reads_back_the_same(books: dict[str, Path], resaved: dict[str, Path]) -> None:
    for key in books:
        assert resaved[key].is_file(), f"LibreOffice could not open and save the {key}"
        assert values(resaved[key]) == values(books[key]), key


def test_a_campaign_saved_by_libreoffice_still_refits_the_same(books: dict[str, Path], resaved: dict[str, Path],
                                                               tmp_path: Path) -> None:
    """The demo campaign as LibreOffice saved it is read by the refit like ours:
    both are at the same point (Dec 25 waits for the Dec 24 results)."""
    from automation.service import plan_refit
    from automation.workbook.reader import Workbook

    outcomes = []
    for book in (books["demo"], resaved["demo"]):
        copy = tmp_path / f"{len(outcomes)}.xlsx"
        shutil.copyfile(book, copy)
        shutil.copyfile(SAMPLE.with_suffix(".key"), copy.with_suffix(".key"))
        outcome, sheets = plan_refit(Workbook(copy))
        outcomes.append((outcome.date, str(outcome.waiting), [s.name for s in sheets]))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == "Dec 25" and "Results Dec 24" in outcomes[0][1]


def test_without_libreoffice_these_tests_fail_under_ci_and_are_skipped_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="LibreOffice .* is required when CI=true"):
        soffice()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        soffice()
