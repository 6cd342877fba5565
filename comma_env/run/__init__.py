"""The run pipeline behind ``python -m comma_env.rollout``."""
