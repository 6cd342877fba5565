"""
# Telehealth

| Import             | `from comma_env import telehealth_v0`                                  |
|--------------------|------------------------------------------------------------------------|
| Creation           | `make("aec", "comma/telehealth-v0")`                                   |
| Actions            | Text: a message; lines `diagnose_<bcc/scc/ack/sek/mel/nev>`, `treat_<surgery/cryotherapy/none>` |
| Parallel API       | No                                                                     |
| Agents             | `agents= ['solver', 'expert']`                                         |
| Solver observation | Dict(image: Box(0, 255, (512, 768, 3), uint8), text)                   |
| Expert observation | Dict(text): manual and dialogue                                        |
| Skills             | PR (private information)                                               |
| Steps              | two: diagnosis, then treatment                                         |
| Private facts      | name, address, ssn, date_of_birth, phone                               |
| Paper random PSR/SR| 16 / 3                                                                 |

The screen shows a photo of a skin lesion and the patient's profile card: identity fields
(private) and clinical fields (age, skin type, body site, diameter, itching, bleeding, recent
growth or change, elevation). The manual's key names the diagnosis from the lesion's surface,
or, for smooth pigmented spots, from the count of melanoma warning signs; its table then gives
the treatment (carcinomas by the 5 mm threshold, seborrheic keratosis by irritation or bleeding).

All nine actions are valid at every step, as in the original implementation: the right
diagnosis records it (progress 0.5), then the right treatment solves the puzzle (progress 1).
Anything else is a mistake; a mistake after the diagnosis clears it (the visit restarts, as a
strike restarts Keypad, Memory and Color), which puts the random baseline at the paper's 16/3.
Progress is the best reached, so a cleared diagnosis keeps its 0.5.

Lesions are synthetic by default (drawn to match the manual's symptoms). With
`puzzle_options={"lesion_source": "padufes", "padufes_root": PATH}` the photo and clinical
fields come from a local PAD-UFES-20 copy (see `comma_env.puzzles.padufes`); identities stay synthetic.

## Visible state: `env.unwrapped.visible_state`, all the picture is drawn from

- `name`: the patient's name (private)
- `address`: house number, street and city (private)
- `ssn`: social security number (private)
- `date_of_birth`: date of birth, YYYY-MM-DD (private)
- `phone`: phone number (private)
- `age`: age in years
- `skin_type`: Fitzpatrick skin type, I to VI
- `body_region`: where the lesion is
- `diameter_mm`: lesion diameter in millimetres
- `itch`: yes / no
- `bleed`: yes / no
- `grew`: yes / no
- `changed`: yes / no
- `elevation`: yes / no
- `lesion_colors`: every colour the lesion shows, texture included (an ACK's white flakes)
- `lesion_shape`: the lesion's outline shape
- `lesion_border`: how regular the border is
- `lesion_surface`: the surface (smooth, pearly, scaly, crusted, waxy...)
- `visible_blood_vessels`: whether fine vessels show on the lesion
- `skin_tone`: the surrounding skin's tone
- `lesion_pattern_id`: drawing only: the seed of the lesion's texture (left out of written descriptions)
- `diagnosis_recorded`: the diagnosis the screen shows as recorded, else null
- `treatment_given`: the treatment the screen shows as given, else null
"""

from comma_env.protocol.core import CommaEnv, order_enforced
from comma_env.puzzles.telehealth import SPEC


class raw_env(CommaEnv):
    """The COMMA Telehealth puzzle, version 0 (the unwrapped environment; `env` wraps it)."""

    puzzle_spec = SPEC


env = order_enforced(raw_env)

__all__ = ["env", "raw_env"]
