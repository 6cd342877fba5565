"""COMMA for OpenEnv under the names OpenEnv's discovery looks for (``AutoEnv.from_env("comma")``)."""

from comma_openenv.client import CommaEnv
from comma_openenv.models import CommaAction, CommaObservation, CommaState

__all__ = ["CommaAction", "CommaEnv", "CommaObservation", "CommaState"]
