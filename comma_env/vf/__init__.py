"""COMMA for verifiers (v1 API, verifiers 0.4): `CommaTaskset` and `CommaEnv`, found by the plugin id
``comma-vf`` (envs/comma_vf); named ``vf`` so it never shadows the library."""

from comma_env.vf.environment import CommaData, CommaEnv, CommaEnvConfig, CommaTask, CommaTaskset, CommaTasksetConfig

__all__ = ["CommaData", "CommaEnv", "CommaEnvConfig", "CommaTask", "CommaTaskset", "CommaTasksetConfig"]
