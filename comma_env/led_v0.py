"""
# LED

| Import             | `from comma_env import led_v0`                                             |
|--------------------|----------------------------------------------------------------------------|
| Creation           | `make("aec", "comma/led-v0")`                                              |
| Actions            | Text: a message; lines `press_top_left` .. `press_bottom_right` (four buttons)  |
| Parallel API       | No                                                                         |
| Agents             | `agents= ['solver', 'expert']`                                             |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text)                       |
| Expert observation | Dict(text): manual and dialogue                                            |
| Skills             | MR (memory recall), MSR (multi-step reasoning)                             |
| Steps              | 2 to 5 stages, one press each                                              |
| Paper random PSR/SR| 32 / 14                                                                    |

The module shows one coloured LED per stage (2 to 5, uniformly) along the top, the current
stage number in a display at the top left, and four buttons in a 2x2 grid, each with a
letter. The LED colour of the current stage gives a multiplier (red 2, green 3, blue 4,
yellow 5, purple 6, orange 7). With A=0 ... Z=25, a button is correct when its letter's
value times the multiplier, modulo 26, equals the value of the letter on the diagonally
opposite button. Each stage has four distinct letters and one or (in about 8% of stages)
two correct buttons; the letters change when a stage is cleared.

A wrong press is a mistake and the stage stays. All four buttons are always pressable.
Progress is stages cleared / stages. Reward is the shared increase in progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `stage_number`: the stage number shown in the top left
- `led_colors_left_to_right`: colour of each stage LED (2 to 5), first stage on the left
- `completed_stages`: how many stages are done (their LEDs are marked)
- `button_letters`: the letter on each of the four buttons by position
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.led import SPEC


class raw_env(CommaEnv):
    """The COMMA LED puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
