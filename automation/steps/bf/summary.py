"""End of the refit report (2.1.1.1, 2.1.1.5, 2.1.2.8): each side's CPP and
FPP ledger for the date and its strength (stands and MEs), as the last lines
of the stage-2 report. The Summary sheet appended with it charts CPP and
stands per side by date."""
from __future__ import annotations

from automation.campaign.model import StepResult
from automation.steps.bf.common import note
from automation.steps.bf.state import BFInputs, BFState, Status

STEP = "Ledger and strength"
RULE = "2.1.2.8"
NOT_STANDS = ("OBA module", "Aircraft", "Fortification")


def _ledger_text(state: BFState, side: str, account: str) -> str:
    lines = [(entry, amount) for s, acc, entry, amount, _, _ in state.ledger_lines if s == side and acc == account]
    gained = sum(a or 0 for e, a in lines if (a or 0) > 0)
    spent = -sum(a or 0 for e, a in lines if (a or 0) < 0)
    left = getattr(state.ledger, account.lower()).get(side, 0)
    start = left - gained + spent
    return f"{account}: start {start}, gained {gained}, spent {spent}, left {left}"


def run(state: BFState, inputs: BFInputs, dice) -> StepResult[BFState]:
    entries = []
    for side in inputs.side_names:
        for account, rule in (("CPP", "2.1.1.1"), ("FPP", "2.1.1.5")):
            entries.append(note(STEP, rule, _ledger_text(state, side, account), side, side, visible=side))
        stands = [s for s in state.roster.of_side(side) if s.kind not in NOT_STANDS]
        ready = sum(1 for s in stands if s.status is Status.AVAILABLE)
        wrecks = sum(1 for s in stands if s.status is Status.WRECK)
        mes = {s.me for s in stands}
        modules = sum(1 for s in state.roster.of_side(side) if s.kind in ("OBA module", "Aircraft"))
        entries.append(note(STEP, RULE, f"strength: {len(mes)} MEs, {ready} stands ready, {wrecks} wrecks on the roster, "
                            f"{modules} OBA/air modules", side, side, visible=side))
    return StepResult(state, tuple(entries))
