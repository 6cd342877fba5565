"""The training adapters: single-role envs, groups, vector envs, export, TRL (comma_env.rl)."""
