"""AsymPuzl (Cadet, Koh and Chin, 2025): a two-agent shape-colour puzzle under information
asymmetry, as the PettingZoo AEC environment ``comma/asympuzl-v0`` (agents ``alice`` and
``bob``). `rules` holds the game, `env` the protocol, `prompts` what agents read, `drawing`
the image view of Alice's side."""

from comma_env.asympuzl.env import AsymPuzlEnv, env, raw_env, turn_limit
from comma_env.asympuzl.rules import COLOURS, FEEDBACK_MODES, SHAPES

__all__ = ["AsymPuzlEnv", "env", "raw_env", "turn_limit", "COLOURS", "FEEDBACK_MODES", "SHAPES"]
