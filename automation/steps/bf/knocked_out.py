"""House rules section 8 (seed 002), Knocked Out Vehicle Table, as an option of
the Battlefront campaign: every vehicle knocked out in the scenario just played
rolls on house.ko_vehicle, and the "for campaign purposes" clause of its result
decides what the refit does with it.

- Burns fiercely: irreparable, the crew is killed. The wreck leaves the roster
  now, so the armor repair step (2.1.1.2) never sees it.
- Smokes: recoverable with extensive repair, half the crew are casualties. The
  wreck stays (and may be repaired under 2.1.1.2); its Notes record the result.
- Does not burn: recoverable, the crew survives. The wreck stays; Notes record it.

The option is off unless the Campaign sheet holds :data:`SETTING` = Yes.

Where the facts for the modifiers come from (docs/interpretations.md, dice desk section):
- indirect fire or close combat: the Results sheet's "Knocked out by";
- soft vehicle: the roster's Kind "Soft vehicle";
- small, fire suppression, lend-lease and a prone-to-burn override: tags in the
  roster's Notes (``small``, ``fire suppression``, ``lend-lease``,
  ``prone: panther|russian|sherman|none``);
- large calibre (88mm or over): the tag ``large calibre`` (or ``88mm+``) in the
  Results sheet's Notes, once the Results row carries its notes (``notes``);
- prone to burn, when no override: a stand type naming a Panther; a Sherman
  (stand type "Sherman" or "M4...") +1 from 1944, +2 before, by the calendar
  date of the scenario just played; any AFV of a Russian side, unless tagged
  ``lend-lease`` (a Russian side's Sherman counts as a Sherman).
- A result already rolled at the table may be given instead in the Results
  Notes as ``ko table: fierce``, ``ko table: smoke`` or ``ko table: none``; then
  no roll is made and the given result is applied.
"""
from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from automation.campaign.model import ALL, Dice, Entry, StepResult
from automation.engine.resolver import Situation as Facts
from automation.engine.tables import RuleSystem
from automation.steps.bf.common import is_russian, note, rolled
from automation.steps.bf.state import BFInputs, BFState, Stand, StandResult, Status

STEP = "Knocked-out vehicles"
RULE = "House 8"
TABLE = "house.ko_vehicle"
SETTING = "Optional rule in use: Knocked Out Vehicle Table (house rules, section 8)"
SHERMAN_PRONE_FROM = dt.date(1944, 1, 1)
KO_BY_IDF_OR_CC = ("Indirect fire", "Close combat")
PRONE_CONDITION = {"panther": "panther_low_fuel", "russian": "russian_tank", "sherman": "sherman", "none": None}
GIVEN_RESULT = {"fierce": "fierce", "burns": "fierce", "smoke": "smoke", "smokes": "smoke", "none": "none",
                "no fire": "none"}
SHERMAN = re.compile(r"sherman|\bm4(a\d\w*)?\b|firefly", re.I)
PANTHER = re.compile(r"panther|pz\.?\s*kpfw\.?\s*v\b|pz\.?\s*v\b", re.I)


def option_on(inputs: BFInputs) -> bool:
    value = inputs.setting(SETTING, "No")
    return str(value).strip().lower() in ("yes", "true", "1", "on")


def tags(text: str | None) -> set[str]:
    """Notes split into lower-case tags at ';' and ','."""
    return {t.strip().lower() for t in re.split(r"[;,\n]", text or "") if t.strip()}


def tag_value(found: Iterable[str], name: str) -> str | None:
    """The value of a 'name: value' tag, if any."""
    for t in found:
        key, sep, value = t.partition(":")
        if sep and key.strip() == name:
            return value.strip()
    return None


def prone_condition(stand: Stand, nationality: str, day: dt.date | None) -> str | None:
    """The one prone-to-burn condition of house 8 that applies to ``stand``."""
    found = tags(stand.notes)
    override = tag_value(found, "prone")
    if override is not None:
        if override == "sherman":
            return _sherman(day)
        return PRONE_CONDITION.get(override)
    if not stand.is_afv:
        return None
    if SHERMAN.search(stand.type):
        return _sherman(day)
    if PANTHER.search(stand.type):
        return "panther_low_fuel"
    if is_russian(nationality) and "lend-lease" not in found and "lend lease" not in found:
        return "russian_tank"
    return None


def _sherman(day: dt.date | None) -> str:
    return "sherman_pre_1944" if day is not None and day < SHERMAN_PRONE_FROM else "sherman"


def conditions(stand: Stand, result: StandResult, nationality: str, day: dt.date | None) -> frozenset[str]:
    """The named conditions of house.ko_vehicle that hold for this vehicle."""
    found = tags(stand.notes)
    killed = tags(getattr(result, "notes", ""))
    out: set[str] = set()
    if result.ko_by in KO_BY_IDF_OR_CC:
        out.add("destroyed_by_idf_or_close_combat")
    if stand.kind == "Soft vehicle":
        out.add("soft_vehicle")
    if "small" in found:
        out.add("small_vehicle")
    if "fire suppression" in found:
        out.add("fire_suppression")
    if killed & {"large calibre", "large caliber", "88mm+"}:
        out.add("large_calibre")
    prone = prone_condition(stand, nationality, day)
    if prone:
        out.add(prone)
    return frozenset(out)


def with_table(dice: Dice) -> Dice:
    """``dice`` able to roll house.ko_vehicle: the campaign's own copy of the
    table when its workbook holds one, else the house rules file's."""
    system = getattr(dice, "system", None)
    if system is None or TABLE in system.tables:
        return dice
    from automation.rulebook import load_rulebook

    merged = RuleSystem(system.id, system.title, system.seed, system.origin,
                        {**system.tables, TABLE: load_rulebook().table(TABLE)}, system.charts, system.settings)
    return Dice(dice.key, merged, dice.date)


CAMPAIGN_TEXT = {
    "fierce": "burns fiercely: irreparable, crew killed; the wreck leaves the roster",
    "smoke": "smokes: recoverable with extensive repair; half the crew are casualties",
    "none": "does not burn: recoverable, the crew survives",
}


ROSTER_TEXT = {
    "fierce": "the wreck leaves the roster",
    "smoke": "the wreck stays and may be repaired (2.1.1.2)",
    "none": "the wreck stays and may be repaired (2.1.1.2)",
}


def _outcome(effect_burn: str | None) -> str:
    return {"fierce": "fierce", "smoke": "smoke"}.get(effect_burn or "", "none")


def run(state: BFState, inputs: BFInputs, dice: Dice) -> StepResult[BFState]:
    """Roll house.ko_vehicle for each vehicle knocked out in the scenario just played."""
    if not option_on(inputs) or inputs.previous is None or not inputs.results:
        return StepResult(state)
    dice = with_table(dice)
    day = inputs.previous.day
    entries: list[Entry] = []
    gone: list[str] = []
    changed: list[Stand] = []
    for stand in state.roster.stands:
        result = inputs.results.get(stand.id)
        if result is None or result.outcome != "Knocked out" or not stand.is_vehicle:
            continue
        nationality = inputs.side(stand.side).nationality
        given = tag_value(tags(getattr(result, "notes", "")), "ko table")
        if given is not None and given in GIVEN_RESULT:
            outcome = GIVEN_RESULT[given]
            entries.append(note(STEP, RULE, f"result rolled at the table: {CAMPAIGN_TEXT[outcome]}", stand.side, stand.id))
        else:
            roll = dice.roll(TABLE, ("knocked-out", stand.side, stand.id),
                             Facts(conditions(stand, result, nationality, day)))
            outcome = _outcome(roll.effect.get("burn"))
            entries.append(rolled(STEP, RULE, stand.side, stand.id, roll, f"{roll.result}; {ROSTER_TEXT[outcome]}"))
        if stand.status is not Status.WRECK:
            entries.append(note(STEP, "2.1.1.3.1", "not kept as a wreck: leaves the roster whatever the result",
                                stand.side, stand.id, ALL))
            continue
        if outcome == "fierce":
            gone.append(stand.id)
        else:
            mark = f"KO {inputs.previous.label}: " + ("smoked, extensive repair, half crew lost" if outcome == "smoke"
                                                       else "no fire, crew safe")
            changed.append(stand.with_(notes="; ".join(p for p in (stand.notes, mark) if p)))
    roster = state.roster.replace_stands(changed).remove_stands(gone)
    return StepResult(state.with_(roster=roster), tuple(entries))
