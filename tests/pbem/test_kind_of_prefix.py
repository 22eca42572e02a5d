"""A sheet's kind is found by trying a dated title's pattern only on names
that begin as the title does: the kind found is the one trying every pattern
in order finds."""
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from automation.pbem.reports import _Matcher, sheet_kinds, title_pattern

KINDS = list(sheet_kinds())
WORDS = sorted({w for k in KINDS for w in k.title.replace("{", " ").replace("}", " ").split()} |
               {"Dec", "24", "German", "Russian", "1", "2", "British", "18AM", ""})


def every_pattern(name: str):
    for k in KINDS:
        if not k.dated and k.title == name:
            return k
    return next((k for k in KINDS if k.dated and title_pattern(k).match(name)), None)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
def test_the_kind_found_is_the_one_every_pattern_finds(words) -> None:
    name = " ".join(words)
    assert _Matcher(KINDS).kind(name) is every_pattern(name)


def test_names_of_every_kind_are_found() -> None:
    fields = {"date": "Dec 24", "side": "German", "n": "1"}
    names = {k.title.format(**fields) for k in KINDS if set(re.findall(r"\{(\w+)\}", k.title)) <= set(fields)}
    assert len(names) > 10
    for name in names:
        assert _Matcher(KINDS).kind(name) is every_pattern(name) is not None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join), max_size=30))
def test_the_forms_among_a_workbooks_sheets_are_the_dated_decision_sheets(names) -> None:
    from automation.pbem.planning import NOT_FORMS, forms_among

    def a_form(name: str) -> bool:
        kind = every_pattern(name)
        return kind is not None and kind.dated and kind.tab not in NOT_FORMS
    assert forms_among(names) == [n for n in names if a_form(n)]


def test_orders_and_results_may_be_forms_and_refit_reports_may_not() -> None:
    from automation.pbem.planning import forms_among, may_be_form

    names = ["Campaign", "Orders Dec 24 German", "Refit Dec 24 1", "Roster Dec 24", "Results Dec 24 German"]
    assert forms_among(names) == [n for n in names if may_be_form(n)]
    assert "Orders Dec 24 German" in forms_among(names) and "Refit Dec 24 1" not in forms_among(names)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join), max_size=30),
       st.sampled_from(KINDS))
def test_the_names_of_one_kind_are_those_every_pattern_finds_of_it(names, kind) -> None:
    found = _Matcher(KINDS).of_kind(names, kind)
    assert found == [n for n in names if (k := every_pattern(n)) is not None and k.id == kind.id]


def test_a_name_that_begins_as_a_roster_s_but_is_not_one_is_left_out() -> None:
    from automation.workbook.schema import sheet_kinds as shared_kinds

    roster = dict(shared_kinds())["bf.roster"]
    names = ["Roster Dec 24", "Roster", "Rosters", "Campaign", "Refit Dec 24 1", "Roster Start", "CG Roster 1"]
    assert _Matcher(KINDS).of_kind(names, roster) == ["Roster Dec 24", "Roster Start"]


def every_dated_input_pattern(name: str, header) -> bool:
    """A dated input as trying every pattern finds it (what the prefix only shortens)."""
    from automation.audit.desk import desk_log_kinds

    present = {str(h).strip() for h in header if h not in (None, "")} if header is not None else None
    for kind in desk_log_kinds():
        if title_pattern(kind).match(name):
            return present is None or {"Result", "Label", "Table"} <= present
    return any(title_pattern(k).match(name) and (present is None or all(c.name in present for c in k.columns))
               for k in KINDS if k.dated and k.tab != "report")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS + ["Desk", "log", "Fire", "Tracker"]), min_size=1, max_size=5),
       st.none() | st.sampled_from(KINDS).map(lambda k: [c.name for c in k.columns]))
def test_a_dated_input_is_the_one_every_pattern_finds(words, header) -> None:
    from automation.audit.chain import is_dated_input

    name = " ".join(words)
    assert is_dated_input(name, header) is every_dated_input_pattern(name, header)


def test_every_title_s_pattern_begins_with_its_prefix() -> None:
    from automation.audit.desk import desk_log_kinds
    from automation.pbem.reports import title_prefix

    for kind in [*KINDS, *desk_log_kinds()]:
        if kind.dated:
            assert title_pattern(kind).pattern.startswith(re.escape(title_prefix(kind))), kind.id
            filled = kind.title.format(**{f: "Dec 24" for f in re.findall(r"\{(\w+)\}", kind.title)})
            assert filled.startswith(title_prefix(kind)) and title_pattern(kind).match(filled), kind.id


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS + ["Refit", "Refit Dec 24 1"]), min_size=1, max_size=5).map(" ".join),
                max_size=30))
def test_the_reports_among_a_workbooks_sheets_are_those_every_pattern_finds_of_a_report_kind(names) -> None:
    from automation.pbem.reports import is_report_kind, report_names

    assert report_names(names) == [n for n in names if is_report_kind(every_pattern(n))]


def test_a_campaigns_reports_are_found_among_its_other_sheets() -> None:
    from automation.pbem.reports import report_names

    names = ["Campaign", "Refit Dec 24 1", "Roster Dec 24", "Refit Dec 24 2", "Refit notes", "Orders Dec 25 German"]
    assert report_names(names) == ["Refit Dec 24 1", "Refit Dec 24 2"]
