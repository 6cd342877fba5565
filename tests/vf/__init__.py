"""The verifiers environment through vf-eval (comma_env.vf)."""
