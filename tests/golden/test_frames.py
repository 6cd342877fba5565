"""The solver's pictures, pixel for pixel as recorded (tests/golden/record.py frames): the
first picture of seeds 0..99 of every puzzle, and every picture along recorded episodes."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.golden.frames import episode_hashes, first_hashes

DATA = Path(__file__).resolve().parents[1] / "data" / "golden"
GOLDEN = json.loads(gzip.decompress((DATA / "frames.json.gz").read_bytes()))


@pytest.mark.parametrize("puzzle", sorted(GOLDEN["first"]))
def test_first_pictures_are_the_recorded_ones(puzzle):
    assert first_hashes(puzzle, range(100)) == GOLDEN["first"][puzzle]


@pytest.mark.parametrize("puzzle", sorted({episode["puzzle"] for episode in GOLDEN["episodes"]}))
def test_pictures_along_recorded_episodes_are_the_recorded_ones(puzzle):
    episodes = [episode for episode in GOLDEN["episodes"] if episode["puzzle"] == puzzle]
    assert episodes
    for episode in episodes:
        assert episode_hashes(episode) == episode["hashes"], (episode["run"], episode["seed"])
