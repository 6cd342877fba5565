"""
# Color

| Import             | `from comma_env import color_v0`                       |
|--------------------|--------------------------------------------------------|
| Creation           | `make("aec", "comma/color-v0")`                        |
| Actions            | Text: a message; lines `press_1_1` .. `press_4_4`      |
| Parallel API       | No                                                     |
| Agents             | `agents= ['solver', 'expert']`                         |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text)   |
| Expert observation | Dict(text): manual and dialogue                        |
| Skills             | MR (memory recall), MSR (multi-step reasoning)         |
| Steps              | 4 to 9 stages, one group of squares each               |
| Paper random PSR/SR| 6 / 0                                                  |

A 4x4 grid of red, blue, green, yellow and magenta squares. Stage 1 is the colour with the
fewest squares (ties: red, blue, green, yellow, magenta); every later group (a colour, the
topmost row or the leftmost column with coloured squares) comes from the manual's table,
keyed by the previously pressed group, which the image does not show, and the number of
white squares. Pressed squares turn white; the others are recoloured from the instance's
rng after every stage, so the group the table names always exists. `press_r_c` presses
row r, column c (1-based); all 16 stay valid, white or not. Pressing a white square does
nothing, whichever stage whitened it; a press of a coloured square outside the current group
is a mistake and restarts the module from its initial colours (the `strike` option's
default).

Progress is the best fraction of white squares reached. Reward is the shared increase in
progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `square_colors_by_row`: the colour of each square, four rows of four, top row first (white once pressed)
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.color import SPEC


class raw_env(CommaEnv):
    """The COMMA Color puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
