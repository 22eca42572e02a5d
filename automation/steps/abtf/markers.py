"""+9.602 Marker Removal: hidden units are revealed (still-hidden Observers,
whose Type says Observer, Emplaced Guns and Fortifications other than
Entrenchments may stay hidden and set up HIP at no FPP cost if they stay in
their Location); the map's markers come off, as a checklist. Fanatic status ends here (9.602d)."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import note, pausable
from automation.steps.abtf.state import ABtFInputs, ABtFState

STEP = "Marker Removal"
RULE = "9.602"
ENTRENCHMENTS = ("foxhole", "trench", "entrenchment", "ditch")
OBSERVER = "observer"  # a unit whose Type names it an Observer (e.g. "Observer", "Offboard Observer")
CHECKLIST = (
    ("9.602a", "remove SR and FFE counters"),
    ("9.602b", "remove SMOKE and Sniper counters"),
    ("9.602c", "remove Acquired counters"),
    ("9.602d", "remove DM, Disrupted, Fanatic, Berserk, Wall Advantage, HD, Dummy stacks, Dummy cloaking counters and '?'"),
    ("9.602e", "remove CX, Motion, CE, BU and Labor markers"),
)


def may_stay_hidden(unit) -> bool:
    if unit.cls == "Gun" and unit.has("Emplaced"):
        return True
    if OBSERVER in unit.type.lower():
        return True
    return unit.cls == "Fortification" and not any(w in unit.type.lower() for w in ENTRENCHMENTS)


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    changed = []
    for u in state.units:
        now = u
        if u.has("Hidden") and not may_stay_hidden(u):
            now = now.flagged(remove=("Hidden",))
            entries.append(note(STEP, RULE, f"placed on map in {u.location or u.area}", u.side, u.id))
        elif u.has("Hidden"):
            entries.append(note(STEP, RULE, "may stay hidden if it sets up in its Location (HIP at no FPP)", u.side, u.id,
                                visible=u.side))
        if u.has("Fanatic"):
            now = now.flagged(remove=("Fanatic",))
            entries.append(note(STEP, "9.602d", "Fanatic status removed", u.side, u.id))
        if now != u:
            changed.append(now)
    entries += [note(STEP, rule, text) for rule, text in CHECKLIST]
    return StepResult(state.put(*changed), tuple(entries))
