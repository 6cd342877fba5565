"""`CommaEnvClient`: OpenEnv's WebSocket `EnvClient` typed for the COMMA server; each client is one
server session."""

from __future__ import annotations

import base64
import io
from typing import Any

import numpy as np
from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from comma_env.openenv.models import CommaAction, CommaObservation, CommaState


class CommaEnvClient(EnvClient[CommaAction, CommaObservation, CommaState]):
    """The typed OpenEnv client of `python -m comma_env.openenv`."""

    def _step_payload(self, action: CommaAction) -> dict[str, Any]:
        return {"message": action.message}

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[CommaObservation]:
        observation = CommaObservation(**payload.get("observation", {}), reward=payload.get("reward"),
                                       done=bool(payload.get("done", False)))
        return StepResult(observation=observation, reward=payload.get("reward"), done=observation.done)

    def _parse_state(self, payload: dict[str, Any]) -> CommaState:
        return CommaState(**payload)


def decode_image(observation: CommaObservation) -> np.ndarray | None:
    """The solver's image as uint8 HxWx3, or None in the text view."""
    if not observation.image_png:
        return None
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(base64.b64decode(observation.image_png))).convert("RGB"))
