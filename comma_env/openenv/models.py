"""The wire types of the COMMA OpenEnv server (pydantic, after OpenEnv's `Action` /
`Observation` / `State`), so any OpenEnv client can drive a session."""

from __future__ import annotations

from typing import Any

from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field


class CommaAction(Action):
    """The learning role's message. Any text is a legal action (bad input is normal input)."""

    message: str = Field(default="", description="The message this role sends; action names on lines of their own")


class CommaObservation(Observation):
    """What the learning role sees after a reset or a step (details of a failure only in the server's log)."""

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
