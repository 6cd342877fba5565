"""
# Password

| Import             | `from comma_env import password_v0`                                   |
|--------------------|-----------------------------------------------------------------------|
| Creation           | `make("aec", "comma/password-v0")`                                    |
| Actions            | Text: a message; lines `cycle_up_1`..`cycle_up_5`, `cycle_down_1`..`cycle_down_5`, `submit` |
| Parallel API       | No                                                                    |
| Agents             | `agents= ['solver', 'expert']`                                        |
| Solver observation | Dict(image: Box(0, 255, (384, 512, 3), uint8), text)                  |
| Expert observation | Dict(text): manual and dialogue                                       |
| Skills             | MG (multimodal grounding), MSR (multi-step reasoning)                 |
| Steps              | single step (one correct submit solves it)                            |
| Paper random PSR/SR| 0 / 0                                                                 |

Five letter windows each cycle through three alphabetically consecutive letters (never
running past Z); the button above a window shows the next letter, wrapping from the last of
the three back to the first, and the button below goes the other way. Exactly one
combination of the available letters spells one of the manual's 35 words: generation picks
the word uniformly, then uniformly among the cycle choices that allow no other listed word.

The image shows only the current letter of each window, so the solver must cycle the
windows to learn what else they offer. Every window starts on a letter other than the
password's, so nothing is formed at the start (this keeps the random baseline at the
paper's 0 / 0). Submitting any other word is a mistake; cycling never is.

Progress is 1 when the password is submitted, else 0. Reward is the shared increase in progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `letters_shown_left_to_right`: the letter each of the five positions shows now
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.password import SPEC


class raw_env(CommaEnv):
    """The COMMA Password puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
