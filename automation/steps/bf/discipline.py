"""2.1.1.3.1 (optional rule) Discipline rating changes: before each morning
scenario but the first, a percentile roll for each ME that fought in the last
scenario and for each stand that began it cut off, with every modifier of the
table. No change past Elite or below Raw; a cut-off stand's change is its own."""
from __future__ import annotations

from collections.abc import Iterable

from automation.engine.resolver import Situation as Facts
from automation.campaign.model import StepResult
from automation.steps.bf.common import note, rolled, step_ladder
from automation.steps.bf.state import BFInputs, BFState, StandResult

STEP = "Discipline rating change"
RULE = "2.1.1.3.1"
SETTING = "Optional rule: discipline rating changes in use"


def casualty_condition(lost: int, base: int) -> str | None:
    if base <= 0:
        return None
    share = lost * 100 / base
    for limit in (75, 50, 25):
        if share >= limit:
            return f"casualties_{limit}"
    return None


NO_RATING = ("OBA module", "Aircraft", "Fortification")


def _facts(results: Iterable[StandResult], panicked: int, condition: str | None, unit: bool = False) -> Facts:
    """The table's quantities; the isolated/cut-off turns count only on a
    cut-off unit's own roll (docs/interpretations.md, 2.1.1.3.1)."""
    results = list(results)
    quantities = {
        "panicked_stands": panicked,
        "kills_by_fire": sum(r.kills_by_fire for r in results),
        "cc_wins": sum(r.cc_wins for r in results),
        "cc_losses": sum(r.cc_losses for r in results),
    }
    if unit:
        quantities["turns_isolated"] = sum(r.turns_isolated for r in results)
        quantities["turns_cut_off"] = sum(r.turns_cut_off for r in results)
    return Facts(frozenset({condition} if condition else ()), {k: v for k, v in quantities.items() if v})


def enabled(inputs: BFInputs) -> bool:
    return str(inputs.setting(SETTING, "Yes")).strip().lower() in ("yes", "true", "1")


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    if not enabled(inputs):
        return StepResult(state, (note(STEP, RULE, "optional rule not in use (Campaign sheet)"),))
    if inputs.previous is None or not inputs.date.starts_day:
        return StepResult(state, (note(STEP, RULE, "rolled only before a morning scenario other than the first"),))
    if not state.ledger.played:
        return StepResult(state, (note(STEP, RULE, "no scenario was played: no change"),))
    ladder = inputs.discipline_ladder
    results = inputs.results or {}
    entries = []
    roster = state.roster
    changed = []
    for me_id in sorted(state.fought):
        me = roster.mes.get(me_id)
        if me is None or all(s.kind in NO_RATING for s in roster.of_me(me_id)):
            continue
        me_results = [r for r in results.values() if state.me_of.get(r.stand) == me_id]
        lost = me.losses_today
        panicked = sum(1 for sid in state.panicked if (s := roster.stand(sid)) is not None and s.me == me_id)
        facts = _facts(me_results, panicked, casualty_condition(lost, me.breakpoint_base))
        result = dice.roll("bf.discipline_change", ("discipline", me.side, me_id), facts)
        steps = int(result.effect.get("steps", 0))
        entries.append(rolled(STEP, RULE, me.side, me_id, result, visible=me.side))
        if steps:
            for s in roster.of_me(me_id):
                if s.id in state.began_cut_off:
                    continue  # rolls on its own below
                new = step_ladder(ladder, s.discipline, steps)
                if new != s.discipline:
                    changed.append(s.with_(discipline=new))
            entries.append(note(STEP, RULE, f"discipline now {step_ladder(ladder, _me_rating(roster, me_id), steps)}", me.side, me_id, visible=me.side))
    roster = roster.replace_stands(changed)
    changed = []
    for stand_id in sorted(state.began_cut_off):
        s = roster.stand(stand_id)
        if s is None:
            continue
        r = results.get(stand_id)
        facts = _facts([r] if r else [], 1 if stand_id in state.panicked else 0, None, unit=True)
        result = dice.roll("bf.discipline_change", ("discipline", s.side, "cut-off", stand_id), facts)
        entries.append(rolled(STEP, RULE, s.side, stand_id, result, visible=s.side))
        steps = int(result.effect.get("steps", 0))
        if steps:
            changed.append(s.with_(discipline=step_ladder(ladder, s.discipline, steps)))
    return StepResult(state.with_(roster=roster.replace_stands(changed)), tuple(entries))


def _me_rating(roster, me_id: str) -> str:
    stands = roster.of_me(me_id)
    return stands[0].discipline if stands else ""

