"""The wire types of `comma_env.openenv`, where OpenEnv's discovery imports them."""

from comma_env.openenv.models import CommaAction, CommaObservation, CommaState

__all__ = ["CommaAction", "CommaObservation", "CommaState"]
