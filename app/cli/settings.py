"""Settings as the command line takes them: every setting of ``app.settings.Settings`` is a
flag of ``serve``, generated from the model (name, type, default, bounds, description,
environment variable), so a new setting is a new flag with nothing to add here. A flag wins over
its ``ADJUDICATOR_*`` variable. A bad setting, from either, is one line on stderr naming both,
and exit status 2 (click's status for usage errors), before anything starts."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Literal, get_args, get_origin

import click
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from pydantic_settings import SettingsError

from app.settings import Settings

METAVARS: dict[Any, str] = {int: "INTEGER", float: "NUMBER", str: "TEXT"}


def flag_of(name: str) -> str:
    return "--" + name.replace("_", "-")


def env_var_of(name: str) -> str:
    return Settings.model_config.get("env_prefix", "") + name.upper()


def env_text(value: object) -> str:
    """A setting's value as its environment variable is written (complex values in JSON)."""
    return value if isinstance(value, str) else json.dumps(value)


def _bounds(field: FieldInfo) -> str:
    """A numeric field's bounds as click writes a range: ``0<=x<=65535``, ``0<x``."""
    bounds = {
        name: getattr(constraint, name)
        for constraint in field.metadata
        for name in ("ge", "gt", "le", "lt")
        if hasattr(constraint, name)
    }
    low = next((f"{bounds[n]}{op}" for n, op in (("ge", "<="), ("gt", "<")) if n in bounds), "")
    high = next((f"{op}{bounds[n]}" for n, op in (("le", "<="), ("lt", "<")) if n in bounds), "")
    return f"{low}x{high}" if low or high else ""


def _metavar(kind: Any) -> str:
    if get_origin(kind) is Literal:
        return "[" + "|".join(str(choice) for choice in get_args(kind)) + "]"
    return METAVARS.get(kind, "TEXT")


def setting_option(name: str, field: FieldInfo) -> click.Option:
    """The flag of one setting. Its value stays text (or a bool, or a tuple of texts): the
    model alone converts and checks it, as it does the environment variable's."""
    default = env_text(field.get_default(call_default_factory=True))
    extras = [f"env var: {env_var_of(name)}", f"default: {default}", _bounds(field)]
    kind, flag = field.annotation, flag_of(name)
    repeat = " Repeat the flag for each." if get_origin(kind) is list else ""
    help_text = f"{field.description}{repeat}  [{'; '.join(filter(None, extras))}]"
    if kind is bool:
        return click.Option([name, f"{flag}/--no-{flag[2:]}"], default=None, help=help_text)
    if repeat:
        return click.Option([name, flag], multiple=True, metavar="TEXT", help=help_text)
    return click.Option([name, flag], metavar=_metavar(kind), help=help_text)


class BadSetting(click.ClickException):
    """Settings the model refused: one line each, naming the flag and the variable."""

    exit_code = 2


def _named(name: str) -> str:
    return f"{flag_of(name)} / {env_var_of(name)}"


def _complaint(error: Mapping[str, Any], flags: Mapping[str, object]) -> str:
    if not error["loc"]:  # a rule across settings: name those its message mentions
        reason = str(error["ctx"]["error"]) if "ctx" in error else error["msg"]
        named = [_named(n) for n in Settings.model_fields if re.search(rf"\b{n}\b", reason)]
        return f"{', '.join(named) or 'settings'}: {reason}"
    name = str(error["loc"][0])
    source = flag_of(name) if name in flags else "the environment"
    return f"{_named(name)}: {error['msg']} (got {error['input']!r} from {source})"


@contextmanager
def _hidden(variables: Iterable[str]) -> Iterator[None]:
    """The environment without ``variables`` while the block runs."""
    hidden = {name: os.environ.pop(name) for name in variables if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(hidden)


def load_settings(flags: Mapping[str, Any]) -> Settings:
    """The settings, from ``flags`` over the environment, or ``BadSetting``. A variable that a
    flag overrides is not read at all: a flag mends a malformed one, as it overrides a good one."""
    try:
        with _hidden(env_var_of(name) for name in flags):
            return Settings(**flags)
    except ValidationError as error:
        complaints = [_complaint(e, flags) for e in error.errors(include_url=False)]
        raise BadSetting("\nError: ".join(complaints)) from None  # click prefixes the first
    except SettingsError as error:  # a variable that is not even JSON, e.g. a list's
        found = re.search(r'field "(\w+)"', str(error))
        named = _named(found[1]) if found else "settings"
        raise BadSetting(f"{named}: the variable is not JSON ({error.__cause__})") from None
