"""2.1.2.1-2.1.2.8 Scenario cleanup of the previous scenario: the map-only
steps as a checklist, the scenario's results applied to the roster, and escape
attempts for isolated and cut-off stands (2.1.2.4.3)."""
from __future__ import annotations

from automation.campaign.model import UMPIRE, Entry, StepResult, Waiting
from automation.engine.resolver import Situation as Facts
from automation.steps.bf.common import POCKETS, is_russian, isolated, note, rolled, wait_orders
from automation.steps.bf.state import BFInputs, BFState, Roster, Situation, Status, Stand, StandResult

STEP = "Scenario cleanup"
CHECKLIST = (
    ("2.1.2.1", "Marker removal: artillery templates, smoke, improved position and hull-down markers off the map"),
    ("2.1.2.2", "Minefield resolution: units in minefields are attacked until destroyed or out (enter losses in Results)"),
    ("2.1.2.3", "Bogged-down units take their bog check; no traverse after the 2nd attempt: immobile"),
    ("2.1.2.4", "Rally: suppressed and disordered units of both sides return to good order"),
    ("2.1.2.4.1", "Disengage: move units back to 5\" from the enemy where the rule allows"),
    ("2.1.2.4.2", "Draw the MLR and set each unit's situation (Normal, Isolated, Cut off) in Results"),
    ("2.1.2.5", "Clear the map of non-isolated units; panicked stands rejoin their ME"),
    ("2.1.2.6", "Hidden fortifications in enemy-controlled areas are placed; friendly ones stay hidden"),
    ("2.1.2.7", "Burning wrecks stop counting as burning; wrecks in a defile may be moved with the fortification table"),
    ("2.1.2.8", "Paperwork: the new MLR and exact stands are in the roster this refit writes"),
)


def _apply_results(state: BFState, inputs: BFInputs) -> tuple[BFState, list[Entry]]:
    results = inputs.results or {}
    entries: list[Entry] = []
    roster = state.roster
    fought, lost_afv, knocked_out, panicked = set(), set(), set(), set()
    changed: list[Stand] = []
    losses: dict[str, int] = {}
    for stand in roster.stands:
        r: StandResult | None = results.get(stand.id)
        if r is None:  # (not in the scenario: an isolated stand among them stays where it was)
            continue
        fought.add(stand.me)
        new = stand.with_(situation=r.situation)
        if r.outcome in ("Knocked out", "Abandoned"):
            losses[stand.me] = losses.get(stand.me, 0) + 1
            if stand.is_afv:
                lost_afv.add(stand.me)
                # the wreck keeps its situation: one inside its own side's isolated or
                # cut-off pocket cannot be destroyed by the enemy (2.1.1.3.1 item 3)
                new = new.with_(status=Status.WRECK, abandoned=r.outcome == "Abandoned", wreck_lines=r.ends_in,
                                in_minefield=r.in_minefield)
                pocket = f", inside a {r.situation.value.lower()} pocket" if isolated(new) else ""
                entries.append(note(STEP, "2.1.1.3.1", f"{stand.type} {r.outcome.lower()}: wreck in {r.ends_in.lower()}"
                                    + (", in a minefield" if r.in_minefield else "") + pocket, stand.side, stand.id))
            else:
                knocked_out.add(stand.id)
                entries.append(note(STEP, "2.1.1.3.1", f"{stand.type} knocked out: leaves the roster", stand.side, stand.id))
        elif r.outcome == "Panicked":
            panicked.add(stand.id)
            new = new.with_(situation=Situation.NORMAL)
            entries.append(note(STEP, "2.1.2.5", f"{stand.type} panicked off the map: returns to its ME", stand.side, stand.id))
        elif r.outcome == "Used":
            new = new.with_(status=Status.USED)
        if new.situation is not stand.situation and new.status is Status.AVAILABLE:
            entries.append(note(STEP, "2.1.2.4.2", f"ends the scenario {new.situation.value.lower()}", stand.side, stand.id))
        changed.append(new)
    roster = roster.replace_stands(changed)
    mes = dict(roster.mes)
    for me_id, n in losses.items():
        if me_id in mes:
            me = mes[me_id]
            mes[me_id] = mes[me_id].with_(losses_today=mes[me_id].losses_today + n)
    roster = Roster(mes, roster.stands)
    me_of = {s.id: s.me for s in state.roster.stands if s.id in results}
    return state.with_(roster=roster, me_of=me_of, fought=frozenset(fought), lost_afv=frozenset(lost_afv),
                       knocked_out=frozenset(knocked_out), panicked=frozenset(panicked),
                       scenario_losses=dict(losses)), entries


def _escapes(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries: list[Entry] = []
    results = inputs.results or {}
    roster = state.roster
    prev_am = inputs.previous is not None and inputs.previous.part.value == "Morning"
    removed: list[str] = []
    changed: list[Stand] = []
    # the stands in play left isolated or cut off, found in one pass of the roster (in its order)
    in_pockets = [s for s in roster.stands if s.status is Status.AVAILABLE and s.situation in POCKETS
                  and s.id not in state.knocked_out]
    for side in inputs.side_names:
        trapped = [s for s in in_pockets if s.side == side]
        if not trapped:
            continue
        orders = inputs.orders.get(side)
        if orders is None:
            return StepResult(state, tuple(entries), wait_orders(inputs, side, "escape attempts for isolated and cut-off stands", STEP))
        attempts = [o for o in orders if o.kind == "Escape" and str(o.value or "Yes").lower() != "no"]
        groups: dict[str, list[Stand]] = {}
        for order in attempts:
            stand = roster.stand(order.subject or "")
            if stand is None:
                continue  # validated before the refit runs
            key = f"group {order.detail}" if order.detail and stand.is_troops else stand.id
            groups.setdefault(key, []).append(stand)
        nationality = inputs.side(side).nationality
        for key, stands in groups.items():
            first = stands[0]
            column = "AFV" if first.is_vehicle else "Infantry"
            r = results.get(first.id)
            conditions = set()
            if prev_am:
                conditions.add("previous_half_day_am")
            if first.situation is Situation.CUT_OFF:
                conditions.add("cut_off")
            if first.kind == "Soft vehicle":
                conditions.add("unarmored_vehicle")
            if r is not None and r.near_friendly_lines:
                conditions.add("near_friendly_lines")
            if first.is_afv and first.tracks == "Fully tracked":
                conditions.add("fully_tracked_afv")
            if is_russian(nationality):
                conditions.add("russian")
            group = min(s.id for s in stands)  # a group is named in the label by a stand's ID, never by the typed name
            result = dice.roll("bf.escape", ("escape", side, group), Facts(frozenset(conditions)), column=column)
            outcome = result.effect.get("outcome")
            names = ", ".join(s.id for s in stands)
            entries.append(rolled(STEP, "2.1.2.4.3", side, names, result))
            for s in stands:
                if outcome == "escape":
                    changed.append(s.with_(situation=Situation.NORMAL))
                    entries.append(note(STEP, "2.1.2.4.3", f"escapes: rejoins {s.me}", side, s.id))
                elif outcome == "abandon" and s.is_afv:
                    changed.append(s.with_(status=Status.WRECK, abandoned=True, wreck_lines="Enemy lines",
                                           situation=Situation.NORMAL))
                    entries.append(note(STEP, "2.1.2.4.3", "abandoned: a wreck behind enemy lines (2.1.1.3.1)", side, s.id))
                else:
                    removed.append(s.id)
                    what = "abandoned soft vehicle" if outcome == "abandon" else "eliminated"
                    entries.append(note(STEP, "2.1.2.4.3", f"{what}: leaves the roster", side, s.id))
        unattempted = [s for s in trapped if all(s not in g for g in groups.values())]
        for s in unattempted:
            entries.append(note(STEP, "2.1.2.4.3", f"stays {s.situation.value.lower()} in place", side, s.id))
    roster = roster.replace_stands(changed).remove_stands(removed)
    return StepResult(state.with_(roster=roster), tuple(entries))


def _pockets_gone(state: BFState) -> tuple[BFState, list[Entry]]:
    """A wreck lies inside its side's pocket only while the side still has a
    stand in play isolated or cut off (2.1.1.3.1 item 3); once none is left,
    the wreck is no longer protected."""
    in_pockets = [s for s in state.roster.stands if s.situation in POCKETS]  # (a few: one pass of the roster)
    trapped = {s.side for s in in_pockets if s.status is Status.AVAILABLE}
    changed = [s.with_(situation=Situation.NORMAL) for s in in_pockets
               if s.status is Status.WRECK and s.side not in trapped]
    entries = [note(STEP, "2.1.1.3.1", f"wreck no longer inside a pocket: no {s.side} stand is isolated or cut off",
                    s.side, s.id) for s in changed]
    return state.with_(roster=state.roster.replace_stands(changed)), entries


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    if inputs.previous is None or not state.ledger.played:
        return StepResult(state, (note(STEP, "2.1.2", "no previous scenario to clean up"),))
    if inputs.results is None:
        sheet = inputs.sheet_names.get("results", f"Results {inputs.previous.label}")
        return StepResult(state, (), Waiting(UMPIRE, "the results of the scenario just played", sheet, STEP))
    entries = [note(STEP, rule, f"Checklist: {text}", visible=UMPIRE) for rule, text in CHECKLIST]
    state, applied = _apply_results(state, inputs)
    entries += applied
    escaped = _escapes(state, inputs, dice)
    if escaped.waiting is not None:
        return StepResult(escaped.state, tuple(entries) + escaped.entries, escaped.waiting)
    final, freed = _pockets_gone(escaped.state)
    return StepResult(final, tuple(entries) + escaped.entries + tuple(freed))
