"""COMMA single-role episodes served over OpenEnv (the ``openenv`` extra).

    python -m comma_env.openenv puzzle=wire role=solver partner=oracle port=8000

serves `CommaEnvironment` (one episode per WebSocket session); `CommaEnvClient` is its client."""

from comma_env.openenv.client import CommaEnvClient, decode_image
from comma_env.openenv.environment import CommaEnvironment
from comma_env.openenv.models import CommaAction, CommaObservation, CommaState

__all__ = ["CommaAction", "CommaEnvClient", "CommaEnvironment", "CommaObservation", "CommaState", "decode_image"]
