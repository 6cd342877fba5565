"""
# Wire

| Import             | `from comma_env import wire_v0`                      |
|--------------------|------------------------------------------------------|
| Creation           | `make("aec", "comma/wire-v0")`                       |
| Actions            | Text: a message; lines `cut_wire_1` .. `cut_wire_N`  |
| Parallel API       | No                                                   |
| Agents             | `agents= ['solver', 'expert']`                       |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text) |
| Expert observation | Dict(text): manual and dialogue                      |
| Skills             | MG (multimodal grounding)                            |
| Steps              | single step                                          |
| Paper random PSR/SR| 57 / 57                                              |

The module shows 3 to 6 coloured wires, numbered from the top, and a serial number. The
manual picks the one wire to cut from the wire count, the colours and their order, and the
parity of the serial number's last digit. Cutting any other wire is a mistake; wires stay
selectable, so the random baseline may repeat a wrong cut.

Progress is 1 when the right wire is cut, else 0. Reward is the shared increase in progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `wire_colors_top_to_bottom`: colour of each wire, top wire first (3 to 6 entries)
- `serial_number`: the serial number printed on the module
- `cut_wires`: 1-based numbers of the wires already cut
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.wire import SPEC


class raw_env(CommaEnv):
    """The COMMA Wire puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
