"""
# Keypad

| Import             | `from comma_env import keypad_v0`                                          |
|--------------------|----------------------------------------------------------------------------|
| Creation           | `make("aec", "comma/keypad-v0")`                                           |
| Actions            | Text: a message; lines `press_top_left` .. `press_bottom_right` (four buttons)  |
| Parallel API       | No                                                                         |
| Agents             | `agents= ['solver', 'expert']`                                             |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text)                       |
| Expert observation | Dict(text): manual and dialogue                                            |
| Skills             | MG (multimodal grounding), MSR (multi-step reasoning)                      |
| Steps              | four presses                                                               |
| Paper random PSR/SR| 18 / 1                                                                     |

The module shows four buttons in a 2x2 grid, each with a symbol drawn from a pool of 24.
The manual lists six columns of seven symbols; exactly one column holds all four symbols
of an instance (any two columns share at most two symbols), and the buttons must be
pressed in the order their symbols take in that column, top to bottom. The expert knows the
symbols only by name, the solver only by sight, and actions name grid positions: the pair
has to ground the symbols together.

A correct press lights its button. A wrong press is a mistake and turns every light off,
so the sequence restarts. All four buttons stay pressable; pressing a lit one again is out
of order and is a mistake too. Progress is the longest correct prefix reached so far,
divided by 4. Reward is the shared increase in progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `button_symbols`: the symbol on each of the four buttons by position
- `lit_buttons`: positions of the buttons lit by correct presses so far (not their order)
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.keypad import SPEC


class raw_env(CommaEnv):
    """The COMMA Keypad puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
