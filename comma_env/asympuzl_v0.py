"""``comma/asympuzl-v0``: the versioned entry point of the AsymPuzl environment
(`comma_env.asympuzl`)."""

from comma_env.asympuzl.env import AsymPuzlEnv, env, raw_env, turn_limit

__all__ = ["AsymPuzlEnv", "env", "raw_env", "turn_limit"]
