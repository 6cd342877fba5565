"""`conforms(value, hint)`: a value has the type a contract of `comma_env.protocol.contracts`
gives it (TypedDicts key by key, unions, lists, dicts, numbers)."""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin, get_type_hints

from typing_extensions import is_typeddict


def conforms(value: Any, hint: Any, where: str = "value") -> None:
    """Raise AssertionError (naming the path) when `value` does not have type `hint`."""
    origin = get_origin(hint)
    if hint is Any:
        return
    if is_typeddict(hint):
        assert isinstance(value, dict), f"{where}: {type(value).__name__}, not a dict"
        hints = get_type_hints(hint)
        missing = set(hint.__required_keys__) - set(value)
        unknown = set(value) - set(hints)
        assert not missing, f"{where}: missing {sorted(missing)}"
        assert not unknown, f"{where}: keys the contract does not list: {sorted(unknown)}"
        for key, item in value.items():
            conforms(item, _strip(hints[key]), f"{where}[{key!r}]")
        return
    if origin in (Union, types.UnionType):
        errors = []
        for option in get_args(hint):
            try:
                conforms(value, option, where)
                return
            except AssertionError as error:
                errors.append(str(error))
        raise AssertionError(f"{where}: {value!r:.80} matches none of {hint}: {errors}")
    if hint is type(None) or hint is None:
        assert value is None, f"{where}: {value!r:.80} is not None"
        return
    if origin is list:
        assert isinstance(value, list), f"{where}: {type(value).__name__}, not a list"
        for index, item in enumerate(value):
            conforms(item, get_args(hint)[0], f"{where}[{index}]")
        return
    if origin is dict:
        assert isinstance(value, dict), f"{where}: {type(value).__name__}, not a dict"
        key_type, value_type = get_args(hint)
        for key, item in value.items():
            conforms(key, key_type, f"{where} key")
            conforms(item, value_type, f"{where}[{key!r}]")
        return
    if hint is float:
        assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{where}: {value!r} is not a number"
        return
    if hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r} is not an int"
        return
    assert isinstance(value, hint), f"{where}: {type(value).__name__}, not {hint}"


def _strip(hint: Any) -> Any:
    """``NotRequired[X]`` -> ``X`` (get_type_hints keeps the qualifier on some Pythons)."""
    while get_origin(hint) is not None and getattr(get_origin(hint), "_name", "") in ("NotRequired", "Required"):
        hint = get_args(hint)[0]
    return hint
