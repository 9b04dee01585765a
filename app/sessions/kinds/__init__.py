"""The kind registry: every module in this package defines one game kind, as ``KIND``.

A new kind is a new module here (with its rules in ``app/rules/``): the registry finds it.
``find_kind`` is how stores and the edge turn a kind's name into the kind.
"""

from __future__ import annotations

import importlib
import pkgutil

from app.sessions.kind import GameKind


def _discover() -> dict[str, GameKind]:
    kinds: dict[str, GameKind] = {}
    for module in pkgutil.iter_modules(__path__):
        kind: GameKind = importlib.import_module(f"{__name__}.{module.name}").KIND
        kinds[kind.name] = kind
    return kinds


KINDS: dict[str, GameKind] = _discover()


def find_kind(name: str) -> GameKind:
    """The kind called ``name``; KeyError for a kind this service does not know."""
    return KINDS[name]
