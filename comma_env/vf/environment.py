"""COMMA on verifiers' v1 API: a taskset of puzzle instances and an `Env` whose learner is a verifiers
agent and whose other role is the configured partner inside a `SingleRoleEnv`."""

from __future__ import annotations

from typing import Any, Literal

import verifiers.v1 as vf

from comma_env.agents.chat import PngCache
from comma_env.protocol import prompts
from comma_env.rl.partners import make_partner
from comma_env.rl.registration import role_puzzles
from comma_env.rl.single_role import SingleRoleEnv


class CommaData(vf.TaskData):
    """One instance: the puzzle and the seed that draws it (the env writes the prompt)."""

    puzzle: str = "wire"
    seed: int = 0


class CommaTask(vf.Task[CommaData]):
    """A COMMA instance; its reward is recorded by `CommaEnv` from the episode itself."""


class CommaTasksetConfig(vf.TasksetConfig):
    """Which instances to play: ``--env.taskset.puzzle`` and seeds ``first``..``first+count-1``
    (the paper evaluates 0..99; train on others)."""

    puzzle: str = "wire"
    first: int = 0
    count: int = 100


class CommaTaskset(vf.Taskset[CommaTask, CommaTasksetConfig]):
    """The instances of one solver/expert puzzle."""

    def load(self) -> list[CommaTask]:
        if self.config.puzzle not in role_puzzles():
            raise ValueError(f"{self.config.puzzle!r} is not a solver/expert puzzle; "
                             f"choose from {', '.join(role_puzzles())}")
        first = self.config.first
        return [CommaTask(CommaData(idx=index, puzzle=self.config.puzzle, seed=first + index))
                for index in range(self.config.count)]


def chat_agent() -> vf.AgentConfig:
    """A tool-less chat agent (verifiers' ``null`` harness) run in a local subprocess."""
    return vf.AgentConfig(harness={"id": "null"}, runtime={"type": "subprocess"})


class CommaEnvConfig(vf.EnvConfig):
    """The two agents and the game's settings (``--env.learner``, ``--env.partner``, ...)."""

    solver: vf.AgentConfig = chat_agent()
    expert: vf.AgentConfig = chat_agent()
    learner: Literal["solver", "expert"] = "solver"
    """The role the evaluated (or trained) model plays."""
    partner: str = "oracle_nl"
    """The other role: a ``conf/model`` name (``oracle_nl``, ``oracle``, ``random``, ``openai_compat``...)."""
    partner_overrides: dict[str, Any] = {}
    """Fields of the partner's model config (``api_base``, ``name``...)."""
    options: dict[str, Any] = {}
    """`SingleRoleEnv` options: ``solver_view``, ``max_turns``, reward options..."""


class CommaEnv(vf.Env[CommaEnvConfig]):
    """One episode per task: the learner's agent talks, the partner answers inside the game."""

    async def setup(self, agents: Any) -> None:
        idle = "expert" if self.config.learner == "solver" else "solver"
        getattr(agents, idle).trainable = False  # the partner is played by a comma_env policy

    async def run(self, task: CommaTask, agents: Any) -> None:
        role = self.config.learner
        partner, _ = make_partner(self.config.partner, dict(self.config.partner_overrides) or None)
        game = SingleRoleEnv(task.data.puzzle, role=role, partner=partner, **self.config.options)
        pngs = PngCache()

        async def shown(observation: dict[str, Any], info: dict[str, Any]) -> list[dict[str, Any]]:
            image = observation.get("image")
            return game.raw.messages(role, observation, info, await pngs.data_url(image) if image is not None else None)

        try:
            observation, info = await game.areset(seed=task.data.seed)
            system, *opening = await shown(observation, info)
            own = type(task)(task.data.model_copy(update={"prompt": None, "system_prompt": system["content"]}),
                             task.config)
            total = 0.0
            summary: dict[str, Any] = {}
            async with getattr(agents, role).interaction(own) as chat:
                segment = await chat.turn(opening)
                while not segment.terminated:
                    observation, reward, terminated, truncated, info = await game.astep(segment.last_reply)
                    total += reward
                    if terminated or truncated:
                        summary = info.get("episode") or {}
                        break
                    segment = await chat.turn(prompts.after_own_message(await shown(observation, info)))
            trace = chat.trace
            trace.record_reward("episode_return", total)
            trace.record_metrics({"success": float(bool(summary.get("success"))),
                                  "progress": float(summary.get("progress") or 0.0),
                                  "mistakes": float(summary.get("mistakes") or 0),
                                  "leaks": float(len(summary.get("privacy_leaks") or [])),
                                  "leaks_unsure": float(len(summary.get("privacy_unsure") or []))})
        finally:
            game.close()
            await partner.aclose()
