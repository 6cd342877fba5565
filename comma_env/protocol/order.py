"""PettingZoo's call-order checks at the cost of an attribute read.

`pettingzoo.utils.wrappers.OrderEnforcingWrapper` answers ``env.agent_selection``,
``env.rewards``, ``env.infos`` and the rest through ``__getattr__``: Python first fails the
normal lookup, then the wrapper tests the name and forwards it. ``env.last()`` makes five such
reads and ``agent_iter`` two more per turn, which cost a random-play AEC loop about a fifth of
its turns per second. `OrderEnforced` is that wrapper (a subclass: ``isinstance`` checks,
`str`, every error before ``reset`` and the warning after the end are the same) with those
attributes as properties and ``last`` and ``step`` forwarded in one call.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.env import ActionType, AgentID, ObsType
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

__all__ = ["OrderEnforced"]


def _forwarded(name: str, guarded: bool) -> property:
    """A read of the wrapped env's `name`; before ``reset`` an AttributeError when `guarded`,
    worded as PettingZoo's wrapper words it."""
    if guarded:
        def read(self: OrderEnforced) -> Any:
            if not self._has_reset:
                raise AttributeError(f"{name} cannot be accessed before reset")
            return getattr(self.env, name)
    else:
        def read(self: OrderEnforced) -> Any:
            return getattr(self.env, name)
    read.__name__ = name
    read.__doc__ = f"The wrapped environment's ``{name}``."
    return property(read)


class OrderEnforced(OrderEnforcingWrapper[AgentID, ObsType, ActionType]):
    """`OrderEnforcingWrapper` whose per-turn reads are properties (see the module docstring)."""

    agent_selection = _forwarded("agent_selection", guarded=True)
    agents = _forwarded("agents", guarded=True)
    num_agents = _forwarded("num_agents", guarded=True)
    rewards = _forwarded("rewards", guarded=True)
    terminations = _forwarded("terminations", guarded=True)
    truncations = _forwarded("truncations", guarded=True)
    infos = _forwarded("infos", guarded=True)
    _cumulative_rewards = _forwarded("_cumulative_rewards", guarded=False)

    def last(self, observe: bool = True) -> tuple[ObsType | None, float, bool, bool, dict[str, Any]]:
        """The wrapped env's ``last`` (after ``reset``, this wrapper's `observe` is its)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action: ActionType) -> None:
        """PettingZoo's checks, then the wrapped env's ``step`` called directly."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def __str__(self) -> str:
        """The wrapped env's name, as PettingZoo's wrapper prints itself."""
        return str(self.env) if hasattr(self, "metadata") else repr(self)
