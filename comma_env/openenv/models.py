"""The wire types of the COMMA OpenEnv server: one message in, one observation out.

Pydantic models after openenv-core's `Action` / `Observation` / `State`, so any OpenEnv
client (ours in `client.py`, TRL's, torchforge's, a plain WebSocket) can drive a session.
"""

from __future__ import annotations

from typing import Any

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field


class CommaAction(Action):
    """The learning role's message. Any text is a legal action (bad input is normal input)."""

    message: str = Field(default="", description="The message this role sends; action names on lines of their own")


class CommaObservation(Observation):
    """What the learning role sees after a reset or a step.

    ``text`` is the role's AEC text observation (the plain text of the prompt the rollout
    sends a chat model in that role); ``messages`` the chat messages to add to the learner's
    conversation (after a reset the rollout's whole prompt; after a step what the rollout's
    next request adds after the learner's message; once the episode is over, how it ended:
    `comma_env.protocol.prompts`), with the picture as an ``image_url`` part holding
    ``image_png`` as a data URL; ``image_png`` the solver's picture as a base64 PNG (image
    view only); ``info`` that role's AEC info, made JSON-safe (so it never holds more than the
    role's own info). ``error`` explains an action that was not played (no episode yet,
    episode already over), or says that the environment failed and ended the episode
    (details in the server's log, never sent to the client).
    """

    text: str = Field(default="", description="The role's text observation")
    messages: list[dict[str, Any]] = Field(default_factory=list,
                                           description="Chat messages to add to the learner's conversation")
    image_png: str | None = Field(default=None, description="Base64 PNG of the solver's image (image view)")
    partner_message: str | None = Field(default=None, description="The partner's reply to the last message")
    info: dict[str, Any] = Field(default_factory=dict, description="The role's info, JSON-safe")
    error: str | None = Field(default=None, description="Why the action was not played, if it was not")


class CommaState(State):
    """Session state: which episode is being played, and its summary once it ended."""

    puzzle: str = ""
    role: str = ""
    seed: int | None = None
    done: bool = False
    episode_return: float = 0.0
    episode: dict[str, Any] | None = None
