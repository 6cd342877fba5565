"""Policies that play COMMA: random baseline, scripted oracle, LLM chat policies, humans.

They live in ``comma_env.agents``, so they do not collide with the unrelated ``openai-agents``
package, whose import name is ``agents``. The interface they implement (`Policy`, `Player`,
`Reply`) is `comma_env.protocol.policy`: the environments' own adapters hold partners through it.
"""
