import hashlib
import shutil

from automation.engine.dice import CampaignKey
from automation.keys import read_key_file
from automation.samples import SAMPLE
from tests.pbem.helpers import parts, rows_of, run


def campaign_rows(path):
    return {r[0]: r[1] for r in rows_of(path, "Campaign")[1:] if r and r[0]}


def test_new_lists_the_commitment_of_each_players_entropy_on_the_campaign_sheet(capsys, tmp_path):
    book = tmp_path / "c.xlsx"
    code, _, _ = run(capsys, "new", "bf-campaign", book, "--entropy", "alpha beta gamma", "--entropy", "delta")
    settings = campaign_rows(book)
    key_file = read_key_file(book.with_suffix(".key"))
    assert code == 0
    assert settings["Key contribution 1"] == hashlib.sha256(b"musterroll/contribution/v1\x00alpha beta gamma").hexdigest()
    assert settings["Key contribution 2"] == hashlib.sha256(b"musterroll/contribution/v1\x00delta").hexdigest()
    assert settings["Key base commitment"] == key_file.base.commitment
    assert key_file.key == key_file.base.mixed_with("alpha beta gamma", "delta")
    assert settings["Key commitment"] == key_file.key.commitment and key_file.contributions == 2


def test_the_players_texts_and_the_key_never_enter_the_workbook(capsys, tmp_path):
    book = tmp_path / "c.xlsx"
    run(capsys, "new", "bf-campaign", book, "--entropy", "alpha beta gamma")
    key_file = read_key_file(book.with_suffix(".key"))
    blob = b"".join(parts(book).values())
    assert b"alpha beta gamma" not in blob
    assert key_file.key.to_hex().encode() not in blob and key_file.base.to_hex().encode() not in blob


def test_a_campaign_made_without_entropy_lists_no_contributions(capsys, tmp_path):
    book = tmp_path / "c.xlsx"
    run(capsys, "new", "bf-campaign", book)
    assert not any(k.startswith("Key contribution") or k == "Key base commitment" for k in campaign_rows(book))
    assert read_key_file(book.with_suffix(".key")).base is None


def test_verify_confirms_the_key_was_made_from_the_revealed_contributions(capsys, tmp_path):
    book = tmp_path / "c.xlsx"
    run(capsys, "new", "bf-campaign", book, "--entropy", "alpha beta gamma", "--entropy", "delta")
    key = book.with_suffix(".key")
    good = run(capsys, "verify", book, "--key", key, "--contribution", "alpha beta gamma", "--contribution", "delta")
    swapped = run(capsys, "verify", book, "--key", key, "--contribution", "delta", "--contribution", "alpha beta gamma")
    assert good[0] == 0 and "mixed with the 2 contribution(s)" in good[1]
    row = next(i for i, r in enumerate(rows_of(book, "Campaign"), start=1) if r[0] == "Key contribution 1")
    assert swapped[0] == 1 and f"Campaign!B{row}: contribution 1 given does not match its commitment" in swapped[2]
    assert "Campaign!B4: the key is not the base mixed with the contributions given" in swapped[2]


def test_a_missing_key_file_at_refit_is_a_clear_error_and_leaves_the_workbook_untouched(capsys, tmp_path):
    book = tmp_path / "rostov.xlsx"
    shutil.copyfile(SAMPLE, book)
    before = book.read_bytes()
    code, _, err = run(capsys, "refit", book)
    assert code == 2 and "rostov.key: the campaign key file is missing" in err and "Traceback" not in err
    assert book.read_bytes() == before and not book.with_suffix(".key").exists()


def test_a_key_of_another_campaign_is_refused_at_refit(capsys, tmp_path):
    book = tmp_path / "rostov.xlsx"
    shutil.copyfile(SAMPLE, book)
    book.with_suffix(".key").write_text(CampaignKey.from_text("another campaign").to_hex() + "\n")
    before = book.read_bytes()
    code, _, err = run(capsys, "refit", book)
    assert code == 2 and "does not match the workbook's commitment" in err and book.read_bytes() == before
