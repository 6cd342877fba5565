"""The verifiers plugin ``comma-vf``: `vf-eval comma-vf` imports this module and takes the
`Taskset` and `Env` it exports (comma_env.vf holds them)."""

from comma_env.vf import CommaEnv, CommaTaskset

__all__ = ["CommaEnv", "CommaTaskset"]
