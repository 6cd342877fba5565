"""Each puzzle's facts live in its spec, and everything else derives from it."""

from __future__ import annotations

import inspect
import re

import gymnasium
import numpy as np
import pettingzoo
import pytest
from pettingzoo.env_registry.registration import aec_registry

import comma_env
from comma_env import registry
from comma_env.protocol import puzzle, spec
from comma_env.protocol.resources import manuals_dir
from comma_env.protocol.spec import PaperRandom, PuzzleSpec
from comma_env.run import fidelity, results
from tests.support.registered import puzzles


def test_every_puzzle_has_a_spec() -> None:
    package = {name for name, s in registry.SPECS.items() if s.suite != "extra"}  # docs may register an example
    assert package == {*registry.COMMA_PUZZLES, *registry.V1_PUZZLES, *registry.GAMES}
    assert len(registry.COMMA_PUZZLES) == 10 and registry.V1_PUZZLES == ("button", "dog", "sound")
    assert registry.GAMES == ("asympuzl",)
    assert registry.paper_order() == results.PAPER_ORDER
    assert sorted(registry.paper_order()) == sorted(registry.COMMA_PUZZLES)


def test_frame_size_is_defined_once() -> None:
    assert puzzle.Puzzle.image_size is spec.FRAME_SIZE


@pytest.mark.parametrize("name", puzzles())
def test_rules_class_takes_its_facts_from_the_spec(name: str) -> None:
    s = registry.SPECS[name]
    rules = s.rules
    assert rules is not None and rules.spec is s
    assert (rules.name, rules.title, rules.skills) == (s.name, s.title, s.skills)
    for attribute in ("name", "title", "skills"):  # written once: in the spec, not in the class body
        assert not re.search(rf"^    {attribute} = ", inspect.getsource(rules), flags=re.M)
    assert (manuals_dir() / str(s.manual)).is_file()
    width, height = rules.image_size  # the drawing draws pictures of the rules' size
    assert np.asarray(s.load_drawing()(rules(np.random.default_rng(0)).visible_state())).shape == (height, width, 3)
    assert results.title(name) == registry.TITLES[name] == s.title


@pytest.mark.parametrize("name", puzzles())
def test_raw_env_is_a_class_statement(name: str) -> None:
    module = registry.env_module(name)
    source = inspect.getsource(module.raw_env)
    assert source.startswith("class raw_env(CommaEnv):")
    assert module.raw_env.__module__ == module.__name__ == registry.puzzle_spec(name).env_module
    assert module.raw_env.puzzle_spec is registry.SPECS[name]
    assert module.env.__module__ == module.__name__


@pytest.mark.parametrize("name", puzzles())
def test_facts_table_matches_the_spec(name: str) -> None:
    s = registry.SPECS[name]
    doc = registry.env_module(name).__doc__ or ""
    assert f"# {s.title}" in doc and f"comma/{name}-v{s.version}" in doc
    assert all(skill in doc for skill in s.skills)
    published = re.search(r"\| Paper random PSR/SR\s*\|\s*(\S+) / (\S+)\s*\|", doc)
    if s.paper_random is None:
        assert published is None
    else:
        assert published is not None
        assert (float(published[1]), float(published[2])) == (s.paper_random.psr, s.paper_random.sr)


@pytest.mark.parametrize("name", puzzles(lambda s: s.phrasebook))
def test_phrasebook_is_named_by_the_spec(name: str) -> None:
    from comma_env.agents.natural.phrasebooks.base import Phrasebook, phrasebook

    rules = registry.SPECS[name].rules
    assert rules is not None
    assert isinstance(phrasebook(rules), Phrasebook)


def test_fidelity_tables_derive_from_the_specs() -> None:
    for name, s in registry.SPECS.items():
        if s.paper_random is not None:
            assert fidelity.PAPER_RANDOM[name] == (s.paper_random.psr, s.paper_random.sr)
            assert fidelity.PAPER_RANDOM_SE[name] == (s.paper_random.psr_se, s.paper_random.sr_se)
        else:
            assert name not in fidelity.PAPER_RANDOM
        if s.paper_v1_random is not None:
            row = s.paper_v1_random
            assert fidelity.PAPER_V1_RANDOM[name] == {"psr": row.psr, "mistakes": row.mistakes, "turns": row.turns}
            assert fidelity.PAPER_V1_RANDOM_PSR[name] == row.psr
    assert set(fidelity.PAPER_V1_RANDOM) == {name for name, s in registry.SPECS.items() if s.paper_v1_random}
    assert set(fidelity.PAPER_RANDOM) == set(registry.COMMA_PUZZLES)
    assert set(fidelity.PAPER_HUMAN_GPT4O) == set(registry.COMMA_PUZZLES)
    # the paper's overall random row is the mean of its columns, up to the columns' rounding
    from comma_env.run.published import TABLE_1_PSR, TABLE_3_SR

    for index, table in enumerate((TABLE_1_PSR, TABLE_3_SR)):
        column_mean = sum(v[index] for v in fidelity.PAPER_RANDOM.values()) / 10
        assert abs(column_mean - next(r for r in table if r.model == "Random").overall[0]) <= 0.5


def test_registered_ids_come_from_the_specs() -> None:
    for name, s in registry.SPECS.items():
        assert registry.env_id(name) == s.env_id
        assert s.env_id in aec_registry
    env = pettingzoo.make("aec", "comma/wire-v0")
    assert type(env.unwrapped) is comma_env.wire_v0.raw_env
    gym_env = gymnasium.make("comma/Wire-solver-v0")
    gym_env.close()


def test_a_spec_rejects_bad_facts() -> None:
    with pytest.raises(ValueError, match="unknown skills"):
        PuzzleSpec(name="x", title="X", skills=("XX",), rules=None, drawing="m:a", manual=None)
    with pytest.raises(ValueError, match="module:attribute"):
        PuzzleSpec(name="x", title="X", skills=(), rules=None, drawing="nocolon", manual=None)
    with pytest.raises(TypeError, match="Puzzle subclass"):
        PuzzleSpec(name="x", title="X", skills=(), rules=int, drawing="m:a", manual=None)
    with pytest.raises(ValueError, match="already has a spec"):
        PuzzleSpec(name="wire2", title="W", skills=(), rules=registry.SPECS["wire"].rules, drawing="m:a", manual=None)
    assert PaperRandom(1, 2, 3, 4).sr == 2
    with pytest.raises(KeyError, match="unknown puzzle"):
        registry.env_module("nope")
