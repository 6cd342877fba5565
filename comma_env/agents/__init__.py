"""Policies that play COMMA: random baseline, scripted oracle, LLM chat policies, humans.

They live in ``comma_env.agents``, so they do not collide with the unrelated
``openai-agents`` package, whose import name is ``agents``. The deprecated top-level
``agents`` alias of this package gives way to that package when both are installed.
"""

from comma_env.agents.base import Player, Policy, Reply

__all__ = ["Player", "Policy", "Reply"]
