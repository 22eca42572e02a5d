"""The reports opened in real headless Chromium: they render without a console
error or a blocked request, every section and chart is there, the roll filter
works, and screenshots (desktop and phone) are kept in the test's folder."""
from __future__ import annotations

import re

import pytest

from tests.report.helpers import browse, console_errors, parse, record_table, report

SECTIONS = ("story", "strength", "economy", "losses", "rolls", "dice", "audit")


@pytest.mark.parametrize("system, side", [("rostov", None), ("rostov", "German"), ("bridge", None),
                                          ("bridge", "British")])
def test_the_report_renders_in_chromium_with_every_section_and_chart(request, capsys, tmp_path, system, side):
    book = request.getfixturevalue(system)
    page = report(capsys, book, tmp_path / "report.html", *(("--side", side) if side else ()), "--quiet")
    dom, log = browse(page, tmp_path, screenshot=tmp_path / "desktop.png")
    assert console_errors(log) == []
    found = parse(dom)
    assert all(s in found.ids for s in SECTIONS)
    rolls = record_table(found.tables["roll-table"])
    assert re.search(rf">{len(rolls)} of {len(rolls)} roll\(s\) shown<", dom)  # the page's script ran
    fits = [i for i in found.ids if i.startswith("fit-")]
    faces = [i for i in found.ids if i.startswith("faces-")]
    # strength, economy, losses (+ by kind / RGs / CVP), one per table fit and one per die
    assert found.svgs >= 3 + len(fits) + len(faces) and fits and faces
    assert "strength-table" in found.tables and "economy-table" in found.tables and "losses-table" in found.tables
    browse(page, tmp_path, width=390, height=2400, screenshot=tmp_path / "phone.png")
    print(f"screenshots: {tmp_path / 'desktop.png'} {tmp_path / 'phone.png'}")


def test_the_roll_filter_keeps_only_the_rolls_of_the_unit_and_date_asked_for(capsys, rostov, tmp_path):
    page = report(capsys, rostov, tmp_path / "report.html", "--quiet")
    dom, log = browse(page, tmp_path, fragment="#rolls?unit=G-Pz-2&date=Dec%2024")
    assert console_errors(log) == []
    total = len(record_table(parse(dom).tables["roll-table"]))
    rows = re.findall(r"<tr( style=\"display: none;\")?>\s*<td>(Dec \d+)</td>\s*<td>[^<]*</td>\s*<td>([^<]*)</td>", dom)
    assert len(rows) == total > 20
    assert [(date, subject) for hidden, date, subject in rows if not hidden] == [("Dec 24", "G-Pz-2")]
    assert f">1 of {total} roll(s) shown<" in dom


def test_the_console_check_catches_a_script_error(tmp_path):
    page = tmp_path / "broken.html"
    page.write_text("<!DOCTYPE html><html><body><p>x</p><script>undefinedFunction();</script></body></html>")
    _, log = browse(page, tmp_path)
    assert console_errors(log)


def test_the_report_prints_to_pdf_with_every_date_opened(capsys, bridge, tmp_path):
    import shutil
    import subprocess

    from tests.report.helpers import FLAGS, chromium

    page = report(capsys, bridge, tmp_path / "report.html", "--quiet")
    pdf = tmp_path / "report.pdf"
    done = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={tmp_path / 'print'}", "--no-pdf-header-footer",
                           f"--print-to-pdf={pdf}", page.resolve().as_uri()], capture_output=True, text=True, timeout=180)
    assert pdf.exists(), done.stderr[-2000:]
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page") + data.count(b"/Type/Page") > 3
    if shutil.which("pdftotext"):  # the first date's fold is closed on screen, open on paper
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, timeout=120).stdout
        assert "bought I3(S) Volksgrenadier Pltn" in text and "Block A: Controlled by the British" in text
    if shutil.which("pdftoppm"):  # the first page as a picture, for a person to look at
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "2", str(pdf), str(tmp_path / "page")],
                       check=True, timeout=120)
        assert list(tmp_path.glob("page*.png"))
    print(f"printed: {pdf}")


def test_a_rolls_report_sheet_link_opens_that_dates_story_and_folds_say_what_they_hold(capsys, rostov, tmp_path):
    page = report(capsys, rostov, tmp_path / "report.html", "--quiet")
    html = page.read_text(encoding="utf-8")
    rows = record_table(parse(html).tables["roll-table"])
    first = next(r for r in rows if r["Date"] == "Dec 24")
    assert f'<a href="#date-dec-24">{first["Report sheet"]}</a>' in html
    cpp = next(r for r in rows if r["Step"] == "CPP replenishment")
    assert cpp["Table"] == "CPP Replenishment Table"  # the table's title, as the rules name it, not its ID
    assert not [r["Table"] for r in rows if r["Table"].startswith("bf.")]
    folds = re.findall(r'<details class="date" id="([^"]+)"( open)?><summary>(.*?)</summary>', html)
    assert [f[0] for f in folds] == ["date-dec-23", "date-dec-24", "date-dec-25", "date-dec-26"]
    assert [bool(f[1]) for f in folds] == [False, False, False, True]  # the latest date is open
    dec24 = sum(1 for r in rows if r["Date"] == "Dec 24")
    assert f"; {dec24} roll(s))" in folds[1][2] and " lost" in folds[1][2]
    dom, log = browse(page, tmp_path, fragment="#date-dec-24")
    assert console_errors(log) == []
    assert re.search(r'<details class="date" id="date-dec-24" open="">', dom)
    assert not re.search(r'<details class="date" id="date-dec-23" open="">', dom)
