"""`CommaEnv`: the client class name OpenEnv's discovery derives from the manifest's ``name: comma``."""

from comma_env.openenv.client import CommaEnvClient
from comma_openenv.models import CommaAction, CommaObservation, CommaState


class CommaEnv(CommaEnvClient):
    """`comma_env.openenv.CommaEnvClient` as ``AutoEnv.from_env("comma", base_url=...)`` returns it."""


__all__ = ["CommaAction", "CommaEnv", "CommaObservation", "CommaState"]
