"""
# Lamps

| Import             | `import lamps_v0`                                    |
|--------------------|------------------------------------------------------|
| Creation           | `make("aec", "comma/lamps-v0")`                      |
| Actions            | Text: a message; lines `press_lamp_1` .. `press_lamp_4` |
| Agents             | `agents= ['solver', 'expert']`                       |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text) |
| Expert observation | Dict(text): manual and dialogue                      |
| Skills             | MG (multimodal grounding)                            |
| Steps              | single step                                          |

## Visible state

- `lamps_lit`: for lamps 1 to 4 from the left, whether each is lit
- `pressed_lamp`: the lamp pressed correctly, or null
"""

from comma_env.protocol.core import CommaEnv, order_enforced

from lamps import SPEC


class raw_env(CommaEnv):
    """The Lamps puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)
