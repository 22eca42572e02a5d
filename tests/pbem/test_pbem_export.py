import io
import re
from xml.sax.saxutils import escape

import msoffcrypto
import pytest

from automation.pbem.sidesheets import alias
from automation.samples import SAMPLE_KEY
from automation.workbook.reader import Workbook
from tests.pbem.helpers import part_of, parts, rows_of, run

SIDES = ("German", "Russian")


def secrets_of(book, side):
    """The values of ``side`` its enemy must never see: stand and ME names of
    every roster, its CPP rolls (labels and results), every roll and purchase
    of its own, its RG chart, its orders sheets, and its Results rows."""
    wb = Workbook(book)
    found: set[str] = set()
    for name in wb.sheet_names:
        rows = wb.raw(name)
        if not rows:
            continue
        head = {h: i for i, h in enumerate(rows[0])}
        if name.endswith(f" {side}") and name.startswith(("Orders", "Spend")):
            found.add(name)
        for r in rows[1:]:
            mine = "Side" in head and r[head["Side"]] == side
            if name.startswith("Roster") and mine:
                found.update({r[head["Stand"]], r[head["ME"]]})
            if name.startswith("Refit") and mine and r[head["Label"]]:
                found.add(r[head["Label"]])
            if name.startswith("Refit") and mine and r[head["Step"]] == "CPP replenishment":
                found.add(r[head["Result"]])  # e.g. '+14 CPP'
            if name.startswith("Refit") and mine and r[head["Step"]] == "Purchases":
                found.update({r[head["Subject"]], r[head["Result"]]})
            if name.startswith("Ledger") and mine and str(r[head["Entry"]]).startswith("Purchase"):
                found.add(r[head["Entry"]])
            if name == "RG Chart" and mine:
                found.add(r[head["Description"]])
    return {s for s in found if isinstance(s, str) and len(s) > 3}


def forms(value: str) -> set[bytes]:
    return {value.encode(), escape(value).encode(), escape(value, {'"': "&quot;", "'": "&apos;"}).encode()}


def export(capsys, book, side, out, *extra):
    code, msg, err = run(capsys, "export", book, "--side", side, "-o", out, *extra)
    assert code == 0, err
    return msg


@pytest.mark.parametrize("stage", ["spend_dec23", "orders_dec24", "spend_dec24", "complete"])
@pytest.mark.parametrize("side", SIDES)
def test_no_part_of_an_export_holds_a_secret_of_the_other_side(capsys, campaign, tmp_path, stage, side):
    book = campaign(stage)
    enemy = SIDES[1 - SIDES.index(side)]
    out = export(capsys, book, side, tmp_path / "out.xlsx") and tmp_path / "out.xlsx"
    secret = secrets_of(book, enemy) - secrets_of(book, side)  # a text both sides have (e.g. "Retained") is no secret
    assert len(secret) > 20
    leaks = [(part, s) for part, data in parts(out).items() for s in secret if any(f in data for f in forms(s))]
    assert leaks == []


def test_an_export_holds_no_row_of_the_other_side_in_any_sheet(capsys, campaign, tmp_path):
    book = campaign("complete")
    export(capsys, book, "German", tmp_path / "g.xlsx")
    wb = Workbook(tmp_path / "g.xlsx")
    for name in wb.sheet_names:
        rows = wb.raw(name)
        for column in ("Side", "Visible to"):
            if rows and column in rows[0]:
                i = rows[0].index(column)
                assert {r[i] for r in rows[1:]} <= {"German", "All", "Both", ""}, (name, column)


def test_an_export_has_no_hidden_sheet_defined_name_comment_or_document_property(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    export(capsys, book, "Russian", tmp_path / "r.xlsx")
    found = parts(tmp_path / "r.xlsx")
    workbook = found["xl/workbook.xml"].decode()
    # the only names are each sheet's print titles: its header row, or a form's three top rows
    names = re.findall(r'<definedName name="([^"]+)" localSheetId="(\d+)">([^<]*)</definedName>', workbook)
    sheets = re.findall(r'<sheet name="([^"]+)"', workbook)
    assert len(names) == len(re.findall("<definedName ", workbook)) == len(sheets)
    for name, index, value in names:
        assert name == "_xlnm.Print_Titles"
        assert value.replace("'", "") in (f"{sheets[int(index)]}!$1:$1", f"{sheets[int(index)]}!$1:$3")
    assert "hidden" not in workbook.lower()
    assert not [n for n in found if "comment" in n.lower() or "vml" in n.lower() or "custom" in n.lower()]
    core = found["docProps/core.xml"].decode()
    assert re.search(r"<dc:creator>[^<]+<", core) is None and "Musterroll" not in core and "rostov" not in core.lower()
    assert "German" not in found["docProps/app.xml"].decode()


def test_the_spending_export_shows_its_cpp_and_fpp_left_and_offers_dropdowns(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    msg = export(capsys, book, "German", tmp_path / "g.xlsx")
    orders = rows_of(tmp_path / "g.xlsx", "Spend Dec 24 German")
    info = dict((r[0], r[1]) for r in rows_of(tmp_path / "g.xlsx", "Export")[1:])
    sheet = parts(tmp_path / "g.xlsx")[part_of(tmp_path / "g.xlsx", "Spend Dec 24 German")].decode()
    assert "orders sheet 'Spend Dec 24 German'" in msg
    # German: 7 CPP left from Dec 23, +10 rolled for Dec 24 (d10 3, DRM 0: 2.1.1.1); 2 FPP left from Dec 23
    assert orders[0][0].startswith("German: your spending for Dec 24 (2.1.1).")
    assert orders[1][4:] == ["CPP left and FPP left (of 17 CPP, 2 FPP; red: overspent):", 17, 2]  # live totals
    assert orders[2] == ["Order", "Subject", "Value", "Detail", "Offered", "CPP", "FPP"]
    assert info["CPP left"] == 17 and info["FPP left"] == 2 and info["Orders sheet"] == "Spend Dec 24 German"
    assert '"Combine,Extra CPP,Preregistered points,Removal"' in sheet  # the free rows' other orders
    assert "<f>17-SUM(F4:F" in sheet and "<f>2-SUM(G4:G" in sheet


def test_the_choices_name_enemy_wrecks_behind_the_sides_lines_only_by_alias(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    export(capsys, book, "German", tmp_path / "g.xlsx")
    choices = {r[0]: r[1] for r in rows_of(tmp_path / "g.xlsx", "Choices")[1:]}
    # R-T34-2 was knocked out in enemy lines (Results Dec 23): a wreck behind the German lines (2.1.1.5.1)
    assert choices[alias(SAMPLE_KEY, "R-T34-2")] == "enemy wreck behind your lines: T-34/76 (Removal, 2.1.1.5.1)"
    assert "R-T34-2" not in choices and "G-Pz-2" in choices and "O3" in choices and "Minefield section" in choices


def test_the_posture_export_waits_for_the_orders_of_the_date(capsys, campaign, tmp_path):
    book = campaign("orders_dec24")
    msg = export(capsys, book, "German", tmp_path / "g.xlsx")
    orders = rows_of(tmp_path / "g.xlsx", "Orders Dec 24 German")
    assert "orders sheet 'Orders Dec 24 German'" in msg
    assert orders[2][:4] == ["Order", "Subject", "Value", "Detail"] and orders[3][:1] == ["Posture"]
    assert "your posture (Attack or Defend) on the Posture row (2.1)" in orders[0][0]


def test_each_side_sees_its_own_cpp_roll_and_not_the_enemys(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    export(capsys, book, "Russian", tmp_path / "r.xlsx")
    report = rows_of(tmp_path / "r.xlsx", "Refit Dec 24 1")
    labels = [r[13] for r in report[1:] if r[13]]
    assert labels == ["Dec 24/escape/Russian/R-1RR-7", "Dec 24/cpp/Russian"]


def test_the_posture_outcome_stays_with_the_umpire_until_the_reveal_after_the_refit(campaign):
    spend = rows_of(campaign("spend_dec24"), "Refit Dec 24 1")
    done = rows_of(campaign("complete"), "Refit Dec 24 2")
    rolloff = [r for r in spend if str(r[10]).startswith("both attack: roll-off")]
    reveal = [r for r in done if r[0] == "Reveal posture"]
    assert [r[12] for r in rolloff] == ["Umpire"]
    assert [(r[1], r[10], r[12]) for r in reveal] == [
        ("2.1.1.6", "postures revealed: German Attack; Russian Attack: attacker German", "All")]


def test_report_lines_about_one_side_are_visible_to_that_side_only(campaign):
    rows = rows_of(campaign("spend_dec24"), "Refit Dec 24 1")
    by = {(r[0], r[2], r[3]): r[12] for r in rows[1:]}
    assert by[("Scenario cleanup", "German", "G-Pz-2")] == "German"  # knocked out in the scenario
    assert by[("Scenario cleanup", "Russian", "R-1RR-7")] == "Russian"  # its escape roll
    assert by[("CPP replenishment", "German", "German")] == "German"
    assert {r[12] for r in rows[1:] if str(r[10]).startswith("Checklist")} == {"Umpire"}


def test_with_a_password_the_export_is_encrypted_and_opens_only_with_it(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    msg = export(capsys, book, "German", tmp_path / "g.xlsx", "--password", "Kursk 43")
    data = (tmp_path / "g.xlsx").read_bytes()
    office = msoffcrypto.OfficeFile(io.BytesIO(data))
    office.load_key(password="Kursk 43")
    plain = io.BytesIO()
    office.decrypt(plain)
    assert "encrypted" in msg and data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" and plain.getvalue()[:2] == b"PK"
    assert b"Spend Dec 24 German" not in data
    wrong = msoffcrypto.OfficeFile(io.BytesIO(data))
    wrong.load_key(password="Kursk 44")
    with pytest.raises(msoffcrypto.exceptions.InvalidKeyError):
        wrong.decrypt(io.BytesIO())


def test_an_unknown_side_is_refused_naming_the_valid_ones(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    code, _, err = run(capsys, "export", book, "--side", "Italian", "-o", tmp_path / "x.xlsx")
    assert code == 2 and "--side 'Italian' is not a side of this campaign; valid: German, Russian" in err
    assert not (tmp_path / "x.xlsx").exists()


def test_the_export_never_overwrites_the_campaign_workbook(capsys, campaign):
    book = campaign("spend_dec24")
    before = book.read_bytes()
    code, _, err = run(capsys, "export", book, "--side", "German", "-o", book)
    assert code == 2 and "not the campaign workbook" in err and book.read_bytes() == before


def test_exporting_leaves_the_master_untouched(capsys, campaign, tmp_path):
    book = campaign("spend_dec24")
    before = book.read_bytes()
    export(capsys, book, "German", tmp_path / "g.xlsx", "--password", "p")
    assert book.read_bytes() == before


def test_when_every_date_is_refitted_the_export_has_no_orders_sheet(capsys, campaign, tmp_path):
    import openpyxl

    book = campaign("complete")
    wb = openpyxl.load_workbook(book)
    wb["Dates"].delete_rows(4, 3)  # the campaign ends after Dec 24
    wb.save(book)
    msg = export(capsys, book, "Russian", tmp_path / "r.xlsx")
    info = dict((r[0], r[1]) for r in rows_of(tmp_path / "r.xlsx", "Export")[1:])
    assert "no orders sheet (every date's refit is done: the campaign is over)" in msg
    assert info["Orders sheet"] == "(none)" and info["Date"] == "(campaign over)"
    code, _, err = run(capsys, "import", book, tmp_path / "r.xlsx")
    assert code == 2 and "every date's refit is done" in err


def test_the_aliases_of_many_names_at_once_are_each_name_s_alias() -> None:
    import hashlib
    import hmac

    from automation.engine.dice import CampaignKey
    from automation.pbem.sidesheets import ALIAS_PREFIX, alias, aliases

    key = CampaignKey(bytes(range(32)))
    names = ["G-1", "1/87 TB", "Ünïcödé ✓", "x" * 200, "R-T34-2", "G-1 "]
    expected = {name: "enemy-" + hmac.new(key.secret, ALIAS_PREFIX + name.encode("utf-8"), hashlib.sha256)
                .hexdigest()[:6] for name in names}  # the HMAC of the prefixed name, keyed by the campaign's secret
    assert aliases(key, iter(names)) == expected and {name: alias(key, name) for name in names} == expected
    assert aliases(CampaignKey(bytes(32)), names) != aliases(key, names)  # another campaign, other aliases
