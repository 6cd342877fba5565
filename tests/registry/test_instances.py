"""Which instance a seed gives never changes: seeds 0-299 are the paper's evaluation set, and
published numbers on them must stay comparable across versions. Speed work on generators
(Maze, Color, ...) must keep every rng draw; these digests of the visible state and the
private facts were taken before any such change."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from comma_env.registry import SPECS, env_module
from tests.support.registered import puzzles

SEEDS = range(300)
DIGESTS = {
    "wire": "a75553a4542aab1a07848c70c2fda2bef5640a577e3b17652ec38dc90fceaf50",
    "who": "9812a93a9eac6170b886a26e72f10d580a31d88e588a89239794ddcb5fe07557",
    "keypad": "8712822ec14f4d69004c56a33c211c86622a393729d9632344631b90e5e81997",
    "led": "28b53011e8a16925fe59ebac829e464c90569da32aab0f9c555ff1eb0b1ef187",
    "memory": "be0e31cb59140ad10afb22c1b05d1529010747f503dcb945b009ddf779ea256f",
    "password": "8cc3392988a584cda9fc85e2b31bdc52508196af5ff5257306177151607d4663",
    "maze": "d47e312cea9e4ed9ceef9fb5eef4338d5e8c8ac3ff22cdfceadc925c16c4ba8b",
    "color": "cee3a838c39832f1ede3126846e2d657e2a8099fae366ece40a3645ffccbe9b1",
    "atm": "3337e187e389d6606dc277d86312b627e570dcf5d7691e9bae60ce6a35421f4b",
    "telehealth": "e0f8fef418cc0fa940973f0daf6118926f436a3f1a7da4f1653cfedb3c15b96c",
    "button": "7146ceb1e16cde8d1145c7c2cab9452fbe8745d8478a709281cc8acacd644c3c",
    "dog": "18a6e0552a3540d82138c6457fc3e43f179a4687ab2d147fad4ce2dc0f61175f",
    # sound: the heartbeat's description now gives its real rate (clips and codes unchanged)
    "sound": "d54ed7ac84986bf05429320754a78bb92b091dccf9f04f028aecd6e00de4f65f",
}


def instances_digest(puzzle: str) -> str:
    """sha256 over seeds 0-299 of each new instance's visible state and private facts."""
    puzzle_cls = env_module(puzzle).raw_env.puzzle_cls
    digest = hashlib.sha256()
    for seed in SEEDS:
        instance = puzzle_cls(np.random.default_rng(seed))
        record = {"state": instance.visible_state(), "private": dict(instance.private_facts())}
        digest.update(json.dumps(record, sort_keys=True, default=str).encode())
    return digest.hexdigest()


def test_every_puzzle_of_the_papers_has_its_digest() -> None:
    """A puzzle added later (suite ``extra``) has no published numbers to keep comparable."""
    assert set(DIGESTS) == {name for name in puzzles() if SPECS[name].suite != "extra"}


@pytest.mark.parametrize("puzzle", puzzles(lambda spec: spec.name in DIGESTS))
def test_seeds_give_the_same_instances_as_before(puzzle: str) -> None:
    assert instances_digest(puzzle) == DIGESTS[puzzle]
