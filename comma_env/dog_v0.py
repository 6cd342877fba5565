"""
# Dog (COMMA v1)

| Import             | `from comma_env import dog_v0`                       |
|--------------------|------------------------------------------------------|
| Creation           | `make("aec", "comma/dog-v0")`                        |
| Actions            | Text: a message; lines `submit`, `wait N`            |
| Parallel API       | No                                                   |
| Agents             | `agents= ['solver', 'expert']`                       |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text) |
| Expert observation | Dict(text): manual and dialogue                      |
| Skills             | MG (multimodal grounding), RT (real-time reaction)   |
| Steps              | single step                                          |
| v1 paper random PSR| 100 (20 turns, no mistake limit: `protocol=v1`)      |

A park picture shows 0 to 5 dogs and a countdown timer. The solver must press `submit` when
the last digit of the time left equals the number of dogs. A submit at another moment is a
strike. The countdown runs on the simulated clock (`comma_env.protocol.clock`): every message costs
time, `wait N` lets N seconds pass, and at 0:00 the episode ends as failed (`time_up`).

Progress is 1 when the module is disarmed, else 0. Reward is the shared increase in progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `timer`: the countdown as shown, `M:SS`
- `dogs`: one entry per dog, `{"coat", "pose", "facing"}` (0 to 5 entries)
- `dog_places`: where each dog is drawn, `[cell of the 3x2 grid, x jitter, y jitter, size]`
  (drawing only: left out of written descriptions)
- `module_disarmed`: whether the module is disarmed (its lamp is lit)
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.dog import SPEC


class raw_env(CommaEnv):
    """The COMMA Dog puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
