"""2.1.1.3.1 (optional rule, on/off on the Settings sheet) Discipline rating
changes: at each morning scenario but the first, a percentile roll (2d10 read
01-100) for each ME that took part in the last scenario, and a separate roll
for each unit that begins this scenario cut off, with every modifier of the
table: the ME's casualty band (25/50/75% of its size lost in the previous
scenario, only the highest applies), each panicked stand, each enemy stand
knocked out by fire, each close combat won and lost, and each turn one of
its units began isolated (-3) or cut off (-6). A unit that begins this
scenario cut off rolls on its own, with its own turns; its turns are not on
its ME's roll. 101+ improves one level, 0 or less drops one; no change past
Elite or below Raw (the ends of the ladder). A cut-off unit's change is its
own: the ME's roll does not move it."""
from __future__ import annotations

from collections.abc import Iterable

from automation.campaign.model import StepResult
from automation.engine.resolver import Situation as Facts
from automation.steps.bf.common import NO_RATING, me_rating, note, rolled, step_ladder
from automation.steps.bf.state import BFInputs, BFState, Situation, StandResult

STEP = "Discipline rating change"
RULE = "2.1.1.3.1"
SETTING = "Optional rule: discipline rating changes in use"


def casualty_condition(lost: int, base: int) -> str | None:
    """The one casualty band that applies: the highest of 75%, 50%, 25% reached."""
    if base <= 0:
        return None
    share = lost * 100 / base
    for limit in (75, 50, 25):
        if share >= limit:
            return f"casualties_{limit}"
    return None


def _facts(results: Iterable[StandResult], panicked: int, condition: str | None,
           own_roll: frozenset[str] = frozenset()) -> Facts:
    """The table's quantities. The turns begun isolated or cut off are those of
    the roll's units, leaving out units that roll on their own (``own_roll``):
    theirs are on their own roll (docs/interpretations.md, 2.1.1.3.1)."""
    results = list(results)
    turns = [r for r in results if r.stand not in own_roll]
    quantities = {
        "panicked_stands": panicked,
        "kills_by_fire": sum(r.kills_by_fire for r in results),
        "cc_wins": sum(r.cc_wins for r in results),
        "cc_losses": sum(r.cc_losses for r in results),
        "turns_isolated": sum(r.turns_isolated for r in turns),
        "turns_cut_off": sum(r.turns_cut_off for r in turns),
    }
    return Facts(frozenset({condition} if condition else ()), {k: v for k, v in quantities.items() if v})


def enabled(inputs: BFInputs) -> bool:
    value = inputs.setting(SETTING, True)
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("yes", "true", "1", "on")


def cut_off_units(state: BFState, ladder: tuple[str, ...]) -> list[str]:
    """Stands that begin the coming scenario cut off (after cleanup's escapes)."""
    return sorted(s.id for s in state.roster.stands
                  if s.available and s.situation is Situation.CUT_OFF and s.discipline in ladder)


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    if not enabled(inputs):
        return StepResult(state, (note(STEP, RULE, "optional rule not in use (Settings sheet): no rolls"),))
    if inputs.previous is None or not inputs.date.starts_day:
        return StepResult(state, (note(STEP, RULE, "rolled only at a morning scenario other than the first"),))
    if not state.ledger.played:
        return StepResult(state, (note(STEP, RULE, "no scenario was played: no change"),))
    ladder = inputs.discipline_ladder
    results = inputs.results or {}
    entries = []
    roster = state.roster
    own_roll = set(cut_off_units(state, ladder))
    changed = []
    # each ME's results and panicked stands, found in one pass (not one pass of every result for each ME)
    results_of: dict[str | None, list[StandResult]] = {}
    for r in results.values():
        results_of.setdefault(state.me_of.get(r.stand), []).append(r)
    panicked_in: dict[str | None, int] = {}
    for sid in state.panicked:
        me_of_stand = state.me_of.get(sid)
        panicked_in[me_of_stand] = panicked_in.get(me_of_stand, 0) + 1
    for me_id in sorted(state.fought):
        me = roster.mes.get(me_id)
        if me is None:
            continue  # withdrawn or destroyed
        rated = [s for s in roster.of_me(me_id) if s.kind not in NO_RATING and s.discipline in ladder]
        if not rated:
            continue  # OBA modules, aircraft, fortifications have no rating
        takers = [s for s in rated if s.id not in own_roll]
        if not takers:
            entries.append(note(STEP, RULE, "every stand is cut off and rolls on its own", me.side, me_id, visible=me.side))
            continue
        me_results = results_of.get(me_id, [])
        panicked = panicked_in.get(me_id, 0)
        lost = state.scenario_losses.get(me_id, 0)
        facts = _facts(me_results, panicked, casualty_condition(lost, me.breakpoint_base), frozenset(own_roll))
        result = dice.roll("bf.discipline_change", ("discipline", me.side, me_id), facts)
        steps = int(result.effect.get("steps", 0))
        before = me_rating(roster, me, ladder)
        after = step_ladder(ladder, before, steps)
        if steps and after == before:
            text = f"{result.result}: already {before}, no change"
        else:
            text = f"{result.result}: {before} -> {after}" if steps else result.result
        entries.append(rolled(STEP, RULE, me.side, me_id, result, text, visible=me.side))
        if steps:
            changed += [s.with_(discipline=step_ladder(ladder, s.discipline, steps)) for s in takers]
            roster = roster.with_me(me.with_(discipline=after))
    roster = roster.replace_stands(changed)
    changed = []
    for stand_id in sorted(own_roll):
        s = roster.stand(stand_id)
        assert s is not None
        r = results.get(stand_id)
        facts = _facts([r] if r else [], 1 if stand_id in state.panicked else 0, None)
        result = dice.roll("bf.discipline_change", ("discipline", s.side, "cut-off", stand_id), facts)
        steps = int(result.effect.get("steps", 0))
        after = step_ladder(ladder, s.discipline, steps)
        text = f"cut off, rolls on its own: {result.result}" + (f": {s.discipline} -> {after}" if after != s.discipline else "")
        entries.append(rolled(STEP, RULE, s.side, stand_id, result, text, visible=s.side))
        if after != s.discipline:
            changed.append(s.with_(discipline=after))
    return StepResult(state.with_(roster=roster.replace_stands(changed)), tuple(entries))
