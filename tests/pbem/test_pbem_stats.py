import json

from tests.pbem.helpers import rows_of, run


def stats(capsys, book):
    code, out, err = run(capsys, "stats", book, "--json")
    assert code == 0, err
    return json.loads(out)


def table(data, side, table_id):
    return next(t for t in data["sides"][side]["tables"] if t["table"] == table_id)


def test_each_sides_cpp_results_are_set_against_their_exact_expectation(capsys, campaign):
    data = stats(capsys, campaign("complete"))
    cpp = table(data, "German", "bf.cpp_replenishment")
    got = {r["result"]: (r["observed"], r["expected_fraction"]) for r in cpp["results"]}
    # German CPP rolls: Dec 23 at DRM -2 (d10 6 -> 4: +10), Dec 24 at DRM 0 (d10 3: +10).
    # d10 at -2: each of +14, +12, +10, +8, +6 takes two faces (1/5); at 0: +16, +14, +12, +10, +8 (1/5 each).
    assert cpp["rolls"] == 2 and cpp["rule"] == "2.1.1.1"
    assert got == {"+16": (0, "1/5"), "+14": (0, "2/5"), "+12": (0, "2/5"), "+10": (2, "2/5"), "+8": (0, "2/5"),
                   "+6": (0, "1/5")}


def test_the_expectation_follows_the_drm_each_roll_had(capsys, campaign):
    data = stats(capsys, campaign("complete"))
    repair = table(data, "German", "bf.armor_repair")
    # one repair roll at DRM +3 (1 CPP expended): 9+ repairs (2.1.1.2), so finals 9-13 of 4-13: 1/2
    assert repair["rolls"] == 1
    assert {r["result"]: (r["observed"], r["expected_fraction"]) for r in repair["results"]} == {
        "Repaired": (0, "1/2"), "No effect": (1, "1/2")}


def test_every_die_thrown_is_counted_once_per_face(capsys, campaign):
    data = stats(capsys, campaign("complete"))
    german = data["sides"]["German"]["dice"]
    # German: 2 CPP, 2 smoke missions, 1 repair, 2 fortification removals (d10) and 2 discipline rolls (d100 = 2 d10)
    assert [(d["die"], d["dice"], sum(d["faces"].values())) for d in german] == [("d10", 11, 11)]
    assert german[0]["expected_each"] == 1.1


def test_the_report_completing_a_date_shows_each_side_its_own_statistics_only(campaign):
    rows = rows_of(campaign("complete"), "Refit Dec 24 2")
    head = rows[0]
    step, side, visible = head.index("Step"), head.index("Side"), head.index("Visible to")
    found = [r for r in rows if r[step] == "Dice statistics"]
    assert found and all(r[visible] == (r[side] or "Umpire") for r in found)
    assert {r[visible] for r in found} == {"German", "Russian", "Umpire"}
    assert not [r for r in rows_of(campaign("spend_dec24"), "Refit Dec 24 1") if r[0] == "Dice statistics"]


def test_stats_in_words(capsys, campaign):
    code, out, _ = run(capsys, "stats", campaign("complete"))
    assert code == 0
    assert "  CPP Replenishment Table (bf.cpp_replenishment, 2.1.1.1), column CPP increase: 2 roll(s)" in out
    assert "    +10: 2 of 2 (100%); expected 0.40 (20.00%)" in out


def test_a_campaign_without_rolls_has_no_statistics(capsys, tmp_path):
    book = tmp_path / "new.xlsx"
    run(capsys, "new", "bf-campaign", book)
    code, out, _ = run(capsys, "stats", book)
    assert code == 0 and out.strip() == "no rolls yet"


def test_a_report_without_the_table_result_column_is_counted_from_its_dice():
    from automation.pbem.reports import roll_rows
    from automation.pbem.stats import collect
    from automation.rulebook import load_rulebook

    header = ["Step", "Rule", "Side", "Subject", "Table", "Dice", "Natural", "Modifiers", "DRM", "Final", "Result",
              "Odds", "Visible to", "Label"]
    rows = [header,
            ["CPP", "2.1.1.1", "Blue", "Blue", "bf.cpp_replenishment (2.1.1.1)", "d10: 9", 9, "none", 0, 9,
             "sixteen points", "20.00%", "Blue", "D1/cpp/Blue"],
            ["CPP", "2.1.1.1", "Blue", "Blue", "bf.cpp_replenishment (2.1.1.1)", "d10: 9", 9,
             "-2 Historical DRM (2.1.1.1)", -2, 7, "fourteen points", "20.00%", "Blue", "D2/cpp/Blue"]]
    found = collect(roll_rows("Report D1", rows), load_rulebook().system("bf-campaign"))
    (cpp,) = found.tables
    # 9 at DRM 0 reads +16 (9-10); 9 at -2 is 7: +14 (7-8), 2.1.1.1
    assert {r.result: r.observed for r in cpp.results if r.observed} == {"+16": 1, "+14": 1}
    assert found.dice[0].faces == (0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


HEADER = ["Step", "Rule", "Side", "Subject", "Table", "Dice", "Natural", "Modifiers", "DRM", "Final", "Result",
          "Odds", "Visible to", "Label", "Table column", "Table result"]


def cpp_roll(n: int, die: int, drm: int, result: str, side: str = "Blue"):
    from automation.pbem.reports import RollRow

    return RollRow("Report", n, side, side, "bf.cpp_replenishment", None, f"d10: {die}", die, drm, die + drm,
                   "none", result, result, f"D{n}/cpp/{side}")


def test_totals_carried_through_a_written_section_equal_counting_every_roll_at_once():
    from automation.pbem.stats import Tally, collect, report_rows
    from automation.rulebook import load_rulebook

    system = load_rulebook().system("bf-campaign")
    first = [cpp_roll(2, 9, 0, "+16"), cpp_roll(3, 1, -2, "Misprint"), cpp_roll(4, 5, 0, "+12", side="Red")]
    second = [cpp_roll(5, 8, 4, "+18"), cpp_roll(6, 2, -2, "Misprint"), cpp_roll(7, 10, 0, "+16", side="Red")]
    section = report_rows(collect(first, system), HEADER)
    carried = Tally.carried([HEADER] + section, system)
    assert carried is not None
    got, want = carried.add(second, system).stats(), collect(first + second, system)
    assert (got.tables, got.dice) == (want.tables, want.dice)
    blue = next(t for t in want.tables if t.side == "Blue")
    # DRM 0, -2, +4, -2 (2.1.1.1), two faces a result at each (+18: four at +4): +14 = 1/5 x 4, +10 = 1/5 x 3...;
    # +18 first appears at +4, after the results of the first two rolls;
    # the result no table gives comes last, expected never
    assert [(r.result, r.observed, str(r.expected)) for r in blue.results] == [
        ("+16", 1, "2/5"), ("+14", 0, "4/5"), ("+12", 0, "4/5"), ("+10", 0, "3/5"), ("+8", 0, "3/5"),
        ("+6", 0, "2/5"), ("+18", 1, "2/5"), ("Misprint", 2, "0")]


def test_a_section_with_a_row_that_cannot_be_read_exactly_is_not_carried():
    from automation.pbem.stats import Tally, collect, report_rows
    from automation.rulebook import load_rulebook

    system = load_rulebook().system("bf-campaign")
    section = report_rows(collect([cpp_roll(2, 9, 0, "+16")], system), HEADER)
    assert Tally.carried([HEADER] + section, system) is not None
    section[0][HEADER.index("Result")] = "+16: 1 of 1 (100%); expected 0.20 (20.00%)"  # the exact value left out
    assert Tally.carried([HEADER] + section, system) is None
    assert Tally.carried([HEADER], system) is None  # no section at all
