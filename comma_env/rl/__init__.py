"""Training adapters: one role of a COMMA puzzle as a Gymnasium environment, batched group
rollouts for GRPO-style trainers, and trajectory export.

    from comma_env.rl import SingleRoleEnv
    env = SingleRoleEnv("wire", role="solver", partner="oracle_nl", solver_view="text")
    gymnasium.make("comma/Wire-solver-v0", partner="oracle")
    gymnasium.make_vec("comma/Wire-solver-v0", num_envs=8, vectorization_mode="async")   # see vector.py

verifiers: `comma_env.vf.load_environment`; token-level rows: `comma_env.rl.tokens`.
"""

from __future__ import annotations

from comma_env.rl.groups import GroupedEpisodes, group_schedule
from comma_env.rl.registration import gym_id, gym_ids
from comma_env.rl.single_role import SingleRoleEnv

__all__ = ["GroupedEpisodes", "SingleRoleEnv", "group_schedule", "gym_id", "gym_ids"]
