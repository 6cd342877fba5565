"""
# Sound (COMMA v1)

| Import             | `from comma_env import sound_v0`                     |
|--------------------|------------------------------------------------------|
| Creation           | `make("aec", "comma/sound-v0")`                      |
| Actions            | Text: a message; lines `press_dollar`, `press_star`, `press_ampersand`, `press_hash` |
| Parallel API       | No                                                   |
| Agents             | `agents= ['solver', 'expert']`                       |
| Solver observation | Dict(image: Box(0, 255, (512, 512, 3), uint8), text, audio, sample_rate)  |
| Audio              | audio: Box(-1, 1, (32000,), float32); sample_rate: Box(16000, 16000, (), int32)  |
| Expert observation | Dict(text): manual and dialogue                      |
| Skills             | MG (grounding, in sound rather than image)           |
| Steps              | four (one per symbol)                                |
| v1 paper random PSR| none (Sound has no row in the v1 tables)             |

The module plays a two-second clip, synthesised per instance from one of twelve sound
signatures (engine, birdsong, siren, dripping tap, ...). The expert's manual lists each
sound, what it sounds like, and its four-symbol code over `$ * & #`; the solver enters the
code on the keypad. A wrong symbol is a strike and clears the entry. The solver observes
the clip as a float32 waveform and its sample rate (in both solver views); `info["solver"]
["audio_description"]` holds it in words for solvers that cannot hear, and the written
description of `solver_view="text"` includes it. `render_mode="rgb_array"` shows the module.

Progress is the longest correct prefix entered / 4. Reward is the shared increase in progress.

## Visible state

`env.unwrapped.visible_state` is the complete, JSON-serialisable truth of what the solver
perceives: the picture is drawn from it alone, plus the clip in words, which is heard, not
drawn.

- `sound_heard`: what the clip sounds like, in words (not drawn)
- `code_entered`: the symbols on the display, from `$ * & #` (up to 4)
- `module_disarmed`: whether the module is disarmed (its lamp is lit)
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.sound import SPEC


class raw_env(CommaEnv):
    """The COMMA Sound puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
