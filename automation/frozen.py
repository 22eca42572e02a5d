"""Frozen dataclasses made and changed in bulk.

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``, one call per field, and ``dataclasses.replace`` goes
through ``__init__`` again. A roster of 5,000 stands is read as 5,000
stands, the refit's steps change thousands of stands and MEs, and an export
changes a field of each of a thousand sheets: made that way, the stands and
MEs took a third of a command's roster time. :func:`made`
and :func:`changed` give the very same instances (equal, hashed and shown
alike, frozen) with their attributes set at once.

Only for a dataclass whose instances hold nothing but their fields, each set
as given: no ``__post_init__``, no ``__slots__``, no init-only variable, every
field an argument of ``__init__``; :func:`fields_of` refuses any other.
"""
from __future__ import annotations

import dataclasses
import functools
import inspect
from typing import Any, TypeVar

T = TypeVar("T")


@functools.cache
def fields_of(cls: type) -> tuple[tuple[str, ...], frozenset[str]]:
    """The names of ``cls``'s fields in order, and as a set (refused for a
    dataclass that :func:`made` and :func:`changed` cannot make)."""
    names = tuple(f.name for f in dataclasses.fields(cls) if f.init)
    if (hasattr(cls, "__post_init__") or "__slots__" in cls.__dict__ or len(names) != len(dataclasses.fields(cls))
            or tuple(inspect.signature(cls).parameters) != names):
        raise TypeError(f"{cls.__name__} is made through its __init__ only")
    return names, frozenset(names)


def made(cls: type[T], values: tuple[Any, ...]) -> T:
    """``cls(*values)``, ``values`` giving every field in order."""
    names, _ = fields_of(cls)
    if len(values) != len(names):
        raise TypeError(f"{cls.__name__} takes its {len(names)} fields, not {len(values)}")
    obj = object.__new__(cls)
    obj.__dict__.update(zip(names, values))
    return obj


def changed(obj: T, changes: dict[str, Any]) -> T:
    """``dataclasses.replace(obj, **changes)``."""
    cls = type(obj)
    _, known = fields_of(cls)
    if not changes.keys() <= known:
        raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(changes.keys() - known))}")
    new = object.__new__(cls)
    attributes = new.__dict__
    attributes.update(obj.__dict__)
    attributes.update(changes)
    return new
