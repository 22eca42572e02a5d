"""Which side view serves which rule system's campaigns (play by email).

A view supplies what the generic export and import cannot know from the
sheet contract alone; :class:`automation.pbem.bf.BattlefrontView` shows what it
must provide. Another system registers its view in :data:`VIEWS`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from automation.errors import UsageError


def _bf() -> Any:
    from automation.pbem.bf import BattlefrontView

    return BattlefrontView()


VIEWS: dict[str, Callable[[], Any]] = {"bf-campaign": _bf}


def view_for(system_id: str, book: Any) -> Any:
    factory = VIEWS.get(system_id)
    if factory is None:
        raise UsageError(f"{book.path}: play by email is not available yet for {system_id!r} campaigns; "
                         f"available: {', '.join(VIEWS)}")
    return factory()
