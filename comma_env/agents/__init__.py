"""Policies that play COMMA: random baseline, scripted oracle, LLM chat policies, humans.

The import name ``agents`` is the one from the project's layout; note that the unrelated
``openai-agents`` package uses it too, so do not install both in one environment.
"""

from comma_env.agents.base import Player, Policy, Reply

__all__ = ["Player", "Policy", "Reply"]
