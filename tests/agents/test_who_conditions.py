"""Advice conditional on Who's display: the word a condition quotes or writes in capitals is compared with the
display as printed, for every word the display can show (YES and NO are words there, not findings)."""

from __future__ import annotations

import pytest

from comma_env.agents.natural.conditions import holds
from comma_env.puzzles.who import DISPLAY_WORDS
from comma_env.rl.single_role import SingleRoleEnv

FORMS = ('the display says "{}"', "the display says {}", "the display shows '{}'", "the display reads {}")
EMPTY = ("the display is empty", "the display says nothing", "there's nothing on the display")


@pytest.mark.parametrize("display", DISPLAY_WORDS)
def test_a_condition_on_the_display_holds_exactly_when_it_shows_that_word(display):
    seen = {"display_text": display, "button_labels": {"top_left": "LIKE"}, "module_disarmed": False}
    wrong = [(form.format(word), result) for word in DISPLAY_WORDS if word for form in FORMS
             if (result := holds(form.format(word), seen)) is not (word == display)]
    wrong += [(form, result) for form in EMPTY if (result := holds(form, seen)) is not (display == "")]
    assert not wrong


def _seed_showing(env: SingleRoleEnv, display: str) -> int:
    return next(seed for seed in range(2000) if env.reset(seed=seed) and env.aec.unwrapped.puzzle.display == display)


@pytest.mark.parametrize("display", ["NO", "YES", "THEY'RE", "SAYS", "UR"])
def test_the_solver_carries_out_the_branch_the_display_settles(display):
    env = SingleRoleEnv("who", role="expert", partner="oracle_nl")
    seed = _seed_showing(env, display)
    labels = env.aec.unwrapped.puzzle.visible_state()["button_labels"]
    other = next(word for word in DISPLAY_WORDS if word and word != display)
    for said, place in ((f'If the display says "{display}", press {labels["top_left"]}; otherwise press '
                         f'{labels["bottom_right"]}.', "top_left"),
                        (f"If the display says {other}, press {labels['top_left']}. Otherwise press "
                         f"{labels['bottom_right']}.", "bottom_right")):
        env.reset(seed=seed)
        info = env.step(said)[-1]
        assert info["partner_understood"]["actions"] == [f"press_{place}"], (said, info["partner_understood"])
