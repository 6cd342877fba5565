"""
# Who

| Import             | `from comma_env import who_v0`                                  |
|--------------------|-----------------------------------------------------------------|
| Creation           | `make("aec", "comma/who-v0")`                                   |
| Actions            | Text: a message; lines `press_top_left` .. `press_bottom_right` |
| Parallel API       | No                                                              |
| Agents             | `agents= ['solver', 'expert']`                                  |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text)            |
| Expert observation | Dict(text): manual and dialogue                                 |
| Skills             | MG (multimodal grounding)                                       |
| Steps              | single step                                                     |
| Paper random PSR/SR| 44 / 44                                                         |

The module shows a display with one word (or nothing) and six buttons in three rows of two,
each with a word label. The display word tells which button's label to read (step 1); that
label selects a priority list of words, and the correct button is the one whose label comes
first in it (step 2). The six actions are `press_top_left`, `press_top_right`,
`press_middle_left`, `press_middle_right`, `press_bottom_left`, `press_bottom_right`.

The display word is drawn uniformly from the 28 step-1 entries (an empty display is one of
them); the six labels are six distinct words out of the 28 step-2 labels. Every step-2 list
contains its own label, so every instance has exactly one answer. A wrong press is a
mistake and changes nothing, so the random baseline may repeat it (success about
1 - (5/6)^3 = 42%).

Progress is 1 when the right button is pressed, else 0. Reward is the shared increase in
progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `display_text`: the word (possibly empty) on the display
- `button_labels`: label of each button by position (top_left ... bottom_right)
- `module_disarmed`: whether the module shows as disarmed
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.who import SPEC


class raw_env(CommaEnv):
    """The COMMA Who puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
