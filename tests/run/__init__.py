"""The rollout, its outputs and its fidelity to the papers (comma_env.run)."""
