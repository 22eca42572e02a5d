"""Every ABtF setting is read by the refit: a setting that nothing reads is a
defect (an umpire would edit it and see no effect)."""
from __future__ import annotations

from pathlib import Path

from automation.rulebook import load_rulebook

CODE = Path(__file__).resolve().parents[2] / "automation"


def test_every_abtf_setting_is_read_by_a_step_or_the_adapter():
    source = "\n".join(p.read_text() for p in (CODE / "steps" / "abtf").glob("*.py"))
    source += (CODE / "workbook" / "abtf_adapter.py").read_text()
    settings = load_rulebook().system("asl-abtf").settings
    unread = sorted(sid for sid in settings if f'"{sid}"' not in source and f"'{sid}'" not in source)
    assert unread == []
    assert {"abtf.unspent_fpp_forfeit", "abtf.wire_hip_night_only", "abtf.hip_night_defender_free_percent",
            "abtf.battle_harden_per_rephase", "abtf.shift_deploy_per_leader"} <= set(settings)
