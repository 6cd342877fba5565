"""Frozen lists and dicts (`comma_env.protocol.frozen`): what a drawing may keep results on."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from comma_env.protocol.frozen import FrozenDict, FrozenList, freeze

VALUE = {"dogs": [{"coat": "brown", "pose": "lying"}], "places": [[3, -0.05, 0.01, 0.8]], "shape": (1, [2])}

LIST_CHANGES: list[Callable[[Any], Any]] = [
    lambda x: x.append(1), lambda x: x.extend([1]), lambda x: x.insert(0, 1), lambda x: x.pop(),
    lambda x: x.remove(x[0]), lambda x: x.clear(), lambda x: x.sort(), lambda x: x.reverse(),
    lambda x: x.__setitem__(0, 1), lambda x: x.__setitem__(slice(0, 1), [1]), lambda x: x.__delitem__(0),
    lambda x: x.__iadd__([1]), lambda x: x.__imul__(2),
]
DICT_CHANGES: list[Callable[[Any], Any]] = [
    lambda x: x.__setitem__("coat", "black"), lambda x: x.__delitem__("coat"), lambda x: x.clear(),
    lambda x: x.pop("coat"), lambda x: x.popitem(), lambda x: x.setdefault("new", 1),
    lambda x: x.update(coat="black"), lambda x: x.__ior__({"coat": "black"}),
]


def test_freeze_keeps_the_value_and_refuses_every_change() -> None:
    frozen = freeze(VALUE)
    assert frozen == VALUE and json.dumps(frozen, sort_keys=True) == json.dumps(VALUE, sort_keys=True)
    assert type(frozen) is FrozenDict and type(frozen["dogs"]) is FrozenList and type(frozen["dogs"][0]) is FrozenDict
    assert type(frozen["shape"]) is tuple and type(frozen["shape"][1]) is FrozenList
    places = frozen["places"][0]
    for change in LIST_CHANGES:
        with pytest.raises(TypeError, match="cannot be changed"):
            change(places)
    dog = frozen["dogs"][0]
    for change in DICT_CHANGES:
        with pytest.raises(TypeError, match="cannot be changed"):
            change(dog)
    assert frozen == VALUE  # every refusal left it as it was
    edited = list(places)  # the way to edit: a plain copy
    edited[0] = 4
    assert edited != places and type(places[:1]) is list


def test_copies_and_pickles_are_frozen_and_start_without_a_memo() -> None:
    frozen = freeze(VALUE)
    frozen["places"].memo = ("derived",)
    assert freeze([1]).memo is None
    for twin in (copy.deepcopy(frozen), pickle.loads(pickle.dumps(frozen))):
        assert twin == VALUE and type(twin) is FrozenDict and type(twin["places"]) is FrozenList
        assert twin["places"] is not frozen["places"] and twin["places"].memo is None
    shallow = copy.copy(frozen["places"])
    assert type(shallow) is FrozenList and shallow == frozen["places"] and shallow.memo is None
    assert shallow[0] is frozen["places"][0]
    assert repr(freeze([{"a": 1}])) == "FrozenList([FrozenDict({'a': 1})])"
