"""COMMA single-role episodes served over OpenEnv (the ``openenv`` extra): `CommaEnvironment`, one
episode per WebSocket session (``python -m comma_env.openenv``), and its client `CommaEnvClient`."""

from comma_env.openenv.client import CommaEnvClient, decode_image
from comma_env.openenv.environment import CommaEnvironment
from comma_env.openenv.models import CommaAction, CommaObservation, CommaState

__all__ = ["CommaAction", "CommaEnvClient", "CommaEnvironment", "CommaObservation", "CommaState", "decode_image"]
