"""Policies that play COMMA: random baseline, scripted oracle, LLM chat policies, humans
(``comma_env.agents``, not ``agents``, which the ``openai-agents`` package takes)."""
