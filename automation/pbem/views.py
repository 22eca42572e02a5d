"""Which side view serves which rule system's campaigns (play by email).

A view supplies what the generic export and import cannot know from the
sheet contract alone; :class:`automation.pbem.bf.BattlefrontView` shows what it
must provide. Another system registers its view in :data:`VIEWS`
(:class:`automation.pbem.abtf.ABtFView` for A Bridge Too Far). Two hooks are
optional: ``over(book)``, true once the campaign has ended, and
``stand_in(sheet, planned)``, the other side's sheet while one side's orders
are checked when a fixed :meth:`placeholder` would not do (see
:func:`stand_in`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from automation.errors import UsageError


def _bf() -> Any:
    from automation.pbem.bf import BattlefrontView

    return BattlefrontView()


def _abtf() -> Any:
    from automation.pbem.abtf import ABtFView

    return ABtFView()


VIEWS: dict[str, Callable[[], Any]] = {"bf-campaign": _bf, "asl-abtf": _abtf}


def view_for(system_id: str, book: Any) -> Any:
    factory = VIEWS.get(system_id)
    if factory is None:
        raise UsageError(f"{book.path}: play by email is not available yet for {system_id!r} campaigns; "
                         f"available: {', '.join(VIEWS)}")
    return factory()


def over(view: Any, book: Any) -> bool:
    """Whether the view says the campaign has ended (views without the hook: never)."""
    check = getattr(view, "over", None)
    return bool(check(book)) if check is not None else False


def stand_in(view: Any, sheet: str, planned: Any) -> list[list[Any]]:
    """The other side's ``sheet`` in memory while one side's orders are checked."""
    make = getattr(view, "stand_in", None)
    return make(sheet, planned) if make is not None else view.placeholder(sheet)
