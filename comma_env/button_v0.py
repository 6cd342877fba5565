"""
# Button (COMMA v1)

| Import             | `from comma_env import button_v0`                    |
|--------------------|------------------------------------------------------|
| Creation           | `make("aec", "comma/button-v0")`                     |
| Actions            | Text: a message; lines `tap`, `hold`, `release`, `wait N` |
| Parallel API       | No                                                   |
| Agents             | `agents= ['solver', 'expert']`                       |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text) |
| Expert observation | Dict(text): manual and dialogue                      |
| Skills             | RT (real-time reaction)                              |
| Steps              | one (tap) or two (hold, release)                     |
| v1 paper random PSR| 100 (20 turns, no mistake limit: `protocol=v1`)      |

A coloured, labelled button, a light strip and a countdown timer. The manual's first table
(button colour and label) says whether to `tap` the button or `hold` it; a held button lights
the strip, and the second table (strip colour) names the digit the timer must show, in any
position, when the button is released. A wrong tap or hold is a strike (the button springs
back); a release at the wrong moment is a strike and the button stays held. The countdown
runs on the simulated clock (`comma_env.protocol.clock`): every message costs time, `wait N` lets N
seconds pass, and at 0:00 the episode ends as failed (`time_up`).

Progress is 0.5 while correctly held, 1 when disarmed. Reward is the shared increase in progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `button_color`: the button's colour (red, blue, yellow, white, black)
- `button_label`: the word on the button (ABORT, DETONATE, HOLD, PRESS)
- `button_held`: whether the button is held down
- `strip_color`: the light strip's colour while held, `"off"` otherwise
- `timer`: the countdown as shown, `M:SS`
- `module_disarmed`: whether the module is disarmed (its lamp is lit)
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.button import SPEC


class raw_env(CommaEnv):
    """The COMMA Button puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
