"""
# Maze

| Import             | `from comma_env import maze_v0`                                                        |
|--------------------|----------------------------------------------------------------------------------------|
| Creation           | `make("aec", "comma/maze-v0")`                                                         |
| Actions            | Text: a message; lines `move_forward`, `move_backward`, `turn_left`/`turn_right`, `press_button`|
| Parallel API       | No                                                                                     |
| Agents             | `agents= ['solver', 'expert']`                                                         |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text)                                   |
| Expert observation | Dict(text): manual and dialogue                                                        |
| Skills             | MG (multimodal grounding), MSR (multi-step reasoning)                                  |
| Steps              | multi-step: reach the goal square (0.5), press the button there (1.0)                  |
| Paper random PSR/SR| 0 / 3                                                                                  |

A 9 x 9 grid of white floor and dark wall squares (rows and columns numbered from 1 at the
top left), generated as a perfect maze over the 25 squares with odd row and column numbers.
The torus lies on the middle square (5, 5); its colour picks the goal sphere (green -> blue,
blue -> red, red -> green, yellow -> yellow). Four spheres (blue, red, green, yellow) sit on
distinct odd/odd squares other than the middle one and the mouse's start. The grey mouse
starts on such a square facing up, right, down or left.

`move_forward` / `move_backward` step one square along / against the facing (the facing
stays); `turn_left` / `turn_right` rotate a quarter turn on the spot. A move into a wall or
off the grid is a mistake and the mouse stays. `press_button` solves the module on the goal
square and is a mistake anywhere else. Every action is always listed as valid.

The goal is at least 10 actions (moves and turns) from the start, so the random baseline
(one action per turn, 10 turns) can at best stand on it at the last turn and never solve it
(the paper prints 0 / 3, see the fidelity page). Progress is 0.5 once the
mouse has stood on the goal square (kept if it leaves) and 1.0 when the button is pressed
there. Reward is the shared increase in the best progress.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `maze_rows_top_to_bottom`: the 9x9 maze as rows of `maze_legend` characters, top row first
- `maze_legend`: what each character of the rows means (floor, wall)
- `mouse_row_column`: the mouse's cell, 1-based row then column
- `mouse_facing`: the direction the mouse faces (up, down, left, right)
- `sphere_row_column_by_color`: the cell of each coloured sphere
- `torus_color`: the colour of the torus in the middle
- `torus_row_column`: the torus's cell
- `button_pressed`: whether the button has been pressed
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.maze import SPEC


class raw_env(CommaEnv):
    """The COMMA Maze puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
