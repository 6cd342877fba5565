"""The bar of the ten, for COMMA v1's Button, Dog and Sound: the shared conformance tests
(api_test, seed_test, registry, facts table, image checks, 10,000 garbage steps, the oracle
on seeds 0-99, the realistic pair without foresight, documented visible-state keys) run here
with `puzzle_name` bound to the v1 puzzles instead of the ten."""

from __future__ import annotations

import pytest

from comma_env.registry import V1_PUZZLES
from tests.agents.test_realistic import test_every_puzzle_solvable_without_foresight_within_ten_turns  # noqa: F401
from tests.registry.test_api import (  # noqa: F401  (collected here, with the fixture below)
    test_api_test,
    test_images_are_legible_size,
    test_registered_in_pettingzoo,
    test_same_seed_same_image_bytes,
    test_seed_test,
    test_the_picture_is_the_drawing_of_the_visible_state,
    test_versioned_module_has_facts_table,
    test_visible_state_is_json,
)
from tests.registry.test_garbage import test_ten_thousand_garbage_steps  # noqa: F401
from tests.registry.test_oracle import test_oracle_solves_seeds_0_to_99  # noqa: F401
from tests.registry.test_visible_state import test_visible_state_keys_are_documented_and_json  # noqa: F401


@pytest.fixture(params=V1_PUZZLES)
def puzzle_name(request: pytest.FixtureRequest) -> str:
    return request.param
