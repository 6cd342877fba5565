"""
# Memory

| Import             | `from comma_env import memory_v0`                               |
|--------------------|-----------------------------------------------------------------|
| Creation           | `make("aec", "comma/memory-v0")`                                |
| Actions            | Text: a message; lines `press_position_1` .. `press_position_4` |
| Parallel API       | No                                                              |
| Agents             | `agents= ['solver', 'expert']`                                  |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text)            |
| Expert observation | Dict(text): manual and dialogue                                 |
| Skills             | MR (memory recall), MSR (multi-step reasoning)                  |
| Steps              | 5 stages                                                        |
| Paper random PSR/SR| 15 / 0                                                          |

The module shows a display with a number from 1 to 4, four buttons in a row labelled 1 to 4
in some order, and the current stage (1 to 5) with a light for each completed stage. At each
stage the manual names the button by position, by label, or by the position or label of the
button pressed in an earlier stage, so the players must remember every press of the run.

Each stage entry (the first stage, every advance, and every reset) draws a new display
number and a new label order from the instance's RNG, so an episode is a deterministic
function of the seed and the actions. A wrong press is a mistake and resets the module to
stage 1, forgetting the earlier presses.

Progress is the best number of stages completed in one run, divided by 5 (a reset does not
lower it); solved when all five are completed. Reward is the shared increase in progress.
The random baseline (one uniform press per turn, 10 turns, 3 mistakes) gives about 16 / 0.3.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `stage`: the current stage, 1 to 5
- `stages_completed`: stages done, shown by the stage indicator
- `display_number`: the number on the display, 1 to 4
- `button_labels_left_to_right`: the labels of the four buttons, leftmost first
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.memory import SPEC


class raw_env(CommaEnv):
    """The COMMA Memory puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
