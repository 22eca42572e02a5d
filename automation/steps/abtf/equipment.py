"""9.607 Equipment Possession and Hidden Fortifications.

9.6071: unpossessed Equipment and Abandoned vehicles in a Setup Area belong to
the side Controlling it (Captured when it changes owner; recaptured Equipment
is no longer Captured); they stay unpossessed/Abandoned (their new owner may
repossess or reman them with Personnel Retained there). 9.6072: in Uncontrolled
Territory they stay where they are. 9.6073: a hidden Fortification in its
owner's opponent's Setup Area is revealed (a minefield's presence only), and
every Fortification belongs to the side Controlling its Location's Block."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.abtf.common import note, pausable, uncontrolled
from automation.steps.abtf.state import ABtFInputs, ABtFState, Unit, enemy

STEP = "Equipment Possession and Hidden Fortifications"
RULE = "9.607"


def loose(unit: Unit) -> bool:
    """Unpossessed Equipment, or an Abandoned vehicle."""
    return (unit.is_equipment and unit.holder is None) or (unit.is_vehicle and unit.has("Abandoned") and not unit.has("Burnt-out"))


def change_owner(unit: Unit, owner: str) -> Unit:
    flags = ("Captured",)
    return unit.with_(side=owner).flagged(remove=flags) if unit.has("Captured") else unit.with_(side=owner).flagged(add=flags)


@pausable
def run(state: ABtFState, inputs: ABtFInputs, dice) -> StepResult[ABtFState]:
    entries = []
    changed = []
    for u in state.units:
        if loose(u):
            owner = state.controller(u.area)
            if uncontrolled(state, u.area):
                entries.append(note(STEP, "9.6072", f"in Uncontrolled Territory: stays in {u.location or u.area} until "
                                                    "repossessed or eliminated in play", u.side, u.id))
            elif owner and owner != u.side:
                new = change_owner(u, owner)
                changed.append(new)
                for w in state.carried_by(u.id):
                    if w.cls == "Vehicular weapon":
                        changed.append(w.with_(side=owner))
                status = "Captured" if new.has("Captured") else "recaptured"
                entries.append(note(STEP, "9.6071", f"in {u.area}, a {owner} Setup Area: Retained by the {owner} ({status}); "
                                                    "it may be repossessed/remanned by Personnel Retained there", owner, u.id))
            elif owner:
                entries.append(note(STEP, "9.6071", f"Retained in {u.area}, unpossessed: may be repossessed/remanned by "
                                                    "Personnel Retained there", owner, u.id))
        elif u.cls == "Fortification":
            owner = state.controller(u.area)
            new = u
            if u.has("Hidden") and owner == enemy(u.side):
                new = new.flagged(remove=("Hidden",))
                shown = "a Minefield counter shows its presence, not its strength or type" if "mine" in u.type.lower() \
                    else "placed on map"
                entries.append(note(STEP, "9.6073", f"hidden in a {owner} Setup Area: revealed ({shown})", u.side, u.id))
            if owner and owner != u.side:
                new = new.with_(side=owner)
                entries.append(note(STEP, "9.6073", f"now Controlled by the {owner} (its Location is in {u.area})", owner, u.id))
            if new != u:
                changed.append(new)
    if not entries:
        entries.append(note(STEP, RULE, "no unpossessed Equipment, Abandoned vehicle or Fortification changes hands"))
    return StepResult(state.put(*changed), tuple(entries))
