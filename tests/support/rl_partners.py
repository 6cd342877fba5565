"""Partner policies for the RL tests: a slow one (to show overlap) and one that fails."""

from __future__ import annotations

import asyncio

from comma_env.protocol.policy import Player, Policy, Reply


class SlowPolicy(Policy):
    """Every reply takes `delay` seconds (an LLM partner's latency, without the server)."""

    name = "slow"

    def __init__(self, delay: float = 0.2, reply: str = "Describe it, please.") -> None:
        self.delay = delay
        self.reply = reply

    def player(self, role, env, seed):
        policy = self

        class Slow(Player):
            needs_observation = False

            async def act(self, observation, info):
                await asyncio.sleep(policy.delay)
                return Reply(policy.reply)

        return Slow()
