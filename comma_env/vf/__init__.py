"""COMMA for verifiers (v1 API, verifiers 0.4): `CommaTaskset` and `CommaEnv` (docs/training.md).

verifiers finds them by the plugin id ``comma-vf`` (the package envs/comma_vf re-exports them):

    vf-eval comma-vf --env.taskset.puzzle wire --env.learner solver --env.partner oracle_nl \\
        -m MODEL --client.base-url http://127.0.0.1:8000/v1 -n 10 -r 4

Named ``vf`` so it never shadows the library; verifiers is imported with this package."""

from comma_env.vf.environment import CommaData, CommaEnv, CommaEnvConfig, CommaTask, CommaTaskset, CommaTasksetConfig

__all__ = ["CommaData", "CommaEnv", "CommaEnvConfig", "CommaTask", "CommaTaskset", "CommaTasksetConfig"]
