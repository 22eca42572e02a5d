import json
import subprocess
import sys

import pytest

from automation.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_tables_json_lists_id_system_title_source_dice_and_columns(capsys):
    code, out, _ = run(capsys, "tables", "--json")
    items = json.loads(out)
    assert code == 0
    repair = next(i for i in items if i["id"] == "bf.armor_repair")
    assert repair["system"] == "bf-campaign" and repair["source"] == "2.1.1.2"
    assert repair["dice"] == "d10" and repair["columns"] == ["Result"]
    assert all({"id", "system", "title", "source", "dice", "columns"} <= set(i) for i in items)


def test_tables_can_be_filtered_by_system(capsys):
    code, out, _ = run(capsys, "tables", "--system", "bf-campaign", "--json")
    assert code == 0 and {i["system"] for i in json.loads(out)} == {"bf-campaign"}


def test_odds_json_gives_exact_probabilities_summing_to_one(capsys):
    code, out, _ = run(capsys, "odds", "bf.escape", "--drm", "-2", "--column", "AFV", "--json")
    data = json.loads(out)
    assert code == 0 and data["table"] == "bf.escape" and data["drm"] == -2 and data["column"] == "AFV"
    assert {o["result"]: o["fraction"] for o in data["outcomes"]} == {"Escape": "1/2", "Abandon": "1/5", "Eliminated": "3/10"}
    assert sum(o["probability"] for o in data["outcomes"]) == pytest.approx(1)


def test_odds_can_be_asked_per_named_condition(capsys):
    code, out, _ = run(capsys, "odds", "bf.armor_repair", "--when", "cpp_spent", "--when", "abandoned", "--json")
    data = json.loads(out)
    assert data["drm"] == 4 and data["outcomes"][0] == {"result": "Repaired", "probability": 0.6, "fraction": "3/5", "bands": ["≥9"]}


def test_human_odds_show_bands_results_and_odds(capsys):
    code, out, _ = run(capsys, "odds", "bf.fortification_removal")
    assert code == 0 and "≥6" in out and "Eliminated" in out and "50.00%" in out


def test_roll_is_deterministic_for_seed_and_label(capsys):
    args = ("roll", "bf.discipline_change", "--seed", "s", "--label", "Dec 25/discipline/ME 1", "--json")
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    assert first == second
    data = json.loads(first)
    assert data["label"] == "Dec 25/discipline/ME 1" and len(data["dice"]) == 2 and data["source"] == "2.1.1.3.1"


@pytest.mark.parametrize("argv, message", [
    (("odds", "no.such"), "unknown table 'no.such'; valid: "),
    (("odds", "bf.escape", "--column", "Tank"), "no column 'Tank'; valid: Infantry, AFV"),
    (("odds", "bf.escape", "--when", "bogged"), "unknown condition(s) bogged; valid: "),
    (("roll", "bf.escape", "--seed", "s", "--label", "a//b"), "--label 'a//b'"),
])
def test_bad_input_exits_2_with_one_clear_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_non_integer_drm_exits_2_without_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "automation", "odds", "bf.escape", "--drm", "x"], capture_output=True, text=True)
    assert proc.returncode == 2 and "invalid int value: 'x'" in proc.stderr and "Traceback" not in proc.stderr


def test_a_table_look_up_builds_only_its_own_options_and_an_error_is_said_by_the_whole_command_line(capsys):
    code = ("import sys; from automation.cli import main; main(['odds','bf.escape','--json']); "
            "print(sorted(m for m in ('automation.commands','automation.report.cli','automation.calc.cli') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]"
    for argv in (["odds", "bf.escape", "--bogus"], ["roll", "bf.escape"], ["tables", "--system"]):
        with pytest.raises(SystemExit) as exit_:
            main(argv)
        err = capsys.readouterr().err
        assert exit_.value.code == 2 and "musterroll" in err and "error:" in err
        if argv[1:] == ["bf.escape", "--bogus"]:  # the top-level usage: every command, as without the short cut
            assert "refit" in err and "calc" in err and "unrecognized arguments: --bogus" in err
    assert main(["odds", "bf.escape", "--json"]) == 0 and json.loads(capsys.readouterr().out)["table"] == "bf.escape"


def test_odds_does_not_import_heavy_libraries_nor_what_only_a_roll_needs():
    code = ("import sys; from automation.cli import main; main(['odds','bf.escape','--json']); "
            "print(sorted(m for m in ('pandas','openpyxl','xlwings','xlsxwriter','python_calamine',"
            "'hashlib','hmac','secrets') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip().splitlines()[-1] == "[]"


def _refitted_once(folder):
    import shutil

    from automation.samples import SAMPLE

    book = folder / "campaign.xlsx"
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    assert main(["refit", str(book), "--quiet"]) == 0
    return book


def _run_and_list_loaded(command, book, modules):
    """``command`` on ``book`` as a process of its own: what it printed, and which of ``modules`` it loaded."""
    code = (f"import sys; from automation.cli import main; main([{command!r}, sys.argv[1]]); "
            f"print(sorted(m for m in {tuple(modules)!r} if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code, str(book)], capture_output=True, text=True, check=True)
    *said, loaded = proc.stdout.strip().splitlines()
    return "\n".join(said), loaded


def test_undo_imports_only_the_package_writer_not_the_reader_the_rules_or_the_renderers(tmp_path):
    said, loaded = _run_and_list_loaded("undo", _refitted_once(tmp_path), (
        "automation.service", "automation.workbook.reader", "automation.rulebook", "automation.engine.resolver",
        "automation.render", "automation.workbook.schema", "automation.pbem.planning", "python_calamine",
        "xlsxwriter", "openpyxl", "pandas"))
    assert said.startswith("removed: ") and loaded == "[]"


@pytest.mark.parametrize("command, says", [("stats", "German"), ("verify", "is intact")])
def test_a_command_that_only_reads_loads_no_sheet_writer_nor_the_package_writer(tmp_path, command, says):
    book = _refitted_once(tmp_path)
    book.with_suffix(".key").unlink()  # verify checks the chain alone (with the key it runs the refits again)
    said, loaded = _run_and_list_loaded(command, book, (
        "automation.workbook.sheetgraft", "automation.workbook.package", "automation.workbook.pkgfile",
        "automation.service", "xlsxwriter", "openpyxl", "pandas"))
    assert says in said and loaded == "[]"


def test_the_command_line_as_a_process_collects_cycles_rarely_and_main_alone_leaves_the_collector_be(
        capsys, monkeypatch):
    import gc

    from automation.cli import run

    calls: list[object] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(gc, "set_threshold", lambda *a: calls.append(a))
    assert main(["tables", "--json"]) == 0 and calls == []  # the tests, an add-in: their own settings
    assert run(["tables", "--json"]) == 0 and calls == ["freeze", (200_000, 20, 10)]
    capsys.readouterr()


def test_python_dash_m_and_the_console_script_run_the_process_entry():
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    assert tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]["musterroll"] == \
        "automation.cli:console"
    assert "console()" in (root / "automation" / "__main__.py").read_text()
    out = subprocess.run([sys.executable, "-m", "automation", "tables", "--json"], capture_output=True, text=True,
                         cwd=root)
    assert out.returncode == 0 and {t["id"] for t in json.loads(out.stdout)} >= {"bf.armor_repair", "bf.escape"}


_ENTRY = ("import atexit, sys, threading\n"
          "atexit.register(lambda: print('taken apart', file=sys.stderr))\n"
          "if sys.argv[1] == 'thread':\n"
          "    threading.Thread(target=threading.main_thread().join).start()  # alive until the main thread ends\n"
          "sys.argv = ['musterroll'] + sys.argv[2:]\n"
          "from automation.cli import console\n"
          "console()\n")


def _entry(*argv):
    return subprocess.run([sys.executable, "-c", _ENTRY, *argv], capture_output=True, text=True)


def test_the_process_entry_ends_at_once_with_all_its_output_and_its_exit_code():
    done = _entry("alone", "tables", "--json")  # stdout is a pipe: block-buffered, flushed before the end
    assert done.returncode == 0 and len(json.loads(done.stdout)) > 10
    assert "taken apart" not in done.stderr  # the interpreter's own way out (its exit handlers) was skipped
    refused = _entry("alone", "odds", "bf.nope")
    assert refused.returncode == 2 and "unknown table 'bf.nope'" in refused.stderr
    assert "taken apart" not in refused.stderr


def test_the_process_entry_ends_the_usual_way_while_another_thread_still_runs():
    done = _entry("thread", "tables", "--json")
    assert done.returncode == 0 and len(json.loads(done.stdout)) > 10
    assert "taken apart" in done.stderr


def test_a_refit_run_by_the_process_entry_leaves_its_workbook_whole(tmp_path):
    import shutil

    from automation.samples import SAMPLE
    from automation.workbook.package import list_batches

    book = tmp_path / "campaign.xlsx"
    shutil.copyfile(SAMPLE, book)
    shutil.copyfile(SAMPLE.with_suffix(".key"), book.with_suffix(".key"))
    done = subprocess.run([sys.executable, "-m", "automation", "refit", str(book), "--quiet"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    assert len(list_batches(book)) == 1
    assert main(["verify", str(book)]) == 0  # every sheet written, sealed and replayed with the key
