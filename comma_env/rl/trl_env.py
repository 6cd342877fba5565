"""COMMA episodes for TRL's `GRPOTrainer(environment_factory=tool_env_factory(...))` (TRL 1.16): the
model reads the rollout's own prompt and ``get_reward`` returns the episode's return."""

from __future__ import annotations

import functools
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from comma_env.protocol import prompts
from comma_env.protocol.core import SOLVER

IMAGE_URL = "comma-env:image"
"""Stands for the picture in the rendered messages until it is handed to TRL as a PIL image."""
ROW_OPTIONS = ("solver_view", "max_turns", "puzzle_options")
"""Dataset columns that are environment options of the row's episode."""


class TaskSampler:
    """Draws the (puzzle, seed) of episodes no dataset row chooses, reproducibly: a new task every
    `group_size` resets, so a GRPO group plays one instance."""

    def __init__(self, puzzles: Iterable[str] = ("wire",), seeds: Sequence[int] = range(100, 100_000),
                 seed: int = 0, group_size: int = 1) -> None:
        self.puzzles = [puzzles] if isinstance(puzzles, str) else list(puzzles)
        if not self.puzzles or not len(seeds) or group_size < 1:
            raise ValueError("TaskSampler needs puzzles, seeds and a group_size of at least 1")
        self.seeds = seeds
        self.group_size = group_size
        self._rng = random.Random(seed)
        self._draws = 0
        self._task = (self.puzzles[0], int(seeds[0]))
        self._lock = threading.Lock()

    def draw(self) -> tuple[str, int]:
        """The next reset's (puzzle, seed)."""
        with self._lock:
            if self._draws % self.group_size == 0:
                self._task = (self._rng.choice(self.puzzles), int(self._rng.choice(self.seeds)))
            self._draws += 1
            return self._task

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_lock"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


class CommaToolEnv:
    """One single-role COMMA episode driven through a `send_message` tool (TRL makes every public
    method but ``reset``/``get_reward`` a tool); `episode_log` collects every scored episode."""

    def __init__(self, puzzle: str = "wire", role: str = SOLVER, partner: Any = "oracle_nl",
                 episode_log: list[dict[str, Any]] | None = None, tasks: TaskSampler | None = None,
                 **env_options: Any) -> None:
        self.role = role
        self.partner = partner
        self.env_options = env_options
        self.episode_log = episode_log
        self.tasks = tasks or TaskSampler([puzzle])
        self._envs: dict[str, Any] = {}
        self.env: Any = None
        self.seed: int | None = None
        self.messages: list[str] = []
        self.episode_return = 0.0
        self.done = True
        self.scored = True
        self.info: dict[str, Any] = {}

    def _env(self, puzzle: str, options: Mapping[str, Any]) -> Any:
        key = repr((puzzle, sorted(options.items())))
        if key not in self._envs:  # one SingleRoleEnv per puzzle and options, reused across episodes
            from comma_env.rl import SingleRoleEnv

            self._envs[key] = SingleRoleEnv(puzzle, role=self.role, partner=self.partner, **options)
        return self._envs[key]

    def reset(self, prompt: Sequence[Mapping[str, Any]] | None = None, puzzle: str | None = None,
              seed: int | None = None, **columns: Any) -> str | list[dict[str, Any]]:
        """Start the row's episode (`tasks` draws a missing ``puzzle``/``seed``); returns the rollout's
        first user message, after the system prompt when the row's `prompt` has none (TRL's placeholder)."""
        if puzzle is None or seed is None:
            drawn_puzzle, drawn_seed = self.tasks.draw()
            puzzle, seed = puzzle or drawn_puzzle, drawn_seed if seed is None else seed
        options = dict(self.env_options)
        options.update({k: v for k, v in columns.items() if k in ROW_OPTIONS and v is not None})
        self.env = self._env(str(puzzle), options)
        self.seed = int(seed)
        obs, self.info = self.env.reset(seed=self.seed)
        self.messages = []
        self.episode_return = 0.0
        self.done = False
        self.scored = False
        rendered = self._rendered(obs)
        has_system = prompt is None or any(m.get("role") == "system" for m in prompt)
        return self._content(rendered[1:] if has_system else rendered, obs)

    def send_message(self, message: str) -> str | list[dict[str, Any]]:
        """Send one message to your partner in the puzzle game.

        To act on the puzzle, write the exact name of an action on a line of its own; every
        other line is passed on to your partner.

        Args:
            message: Your message: what you see or ask, and action names (one per line) to act.

        Returns:
            What happened: the feedback on your actions, your partner's reply, and whether the game is over.
        """
        if self.env is None or self.done:
            return f"{prompts.EPISODE_OVER}; no more messages are played."
        obs, reward, terminated, truncated, self.info = self.env.step(str(message))
        self.messages.append(str(message))
        self.episode_return += float(reward)
        self.done = bool(terminated or truncated)
        if self.done:
            return prompts.closing_message(self.info, self.role)
        return self._content(prompts.after_own_message(self._rendered(obs)), obs)

    def get_reward(self) -> float:
        """The episode's return (TRL calls this once per finished rollout); logs the episode once."""
        if not self.scored and self.episode_log is not None and self.env is not None:
            episode = dict(self.info.get("episode") or {})
            self.episode_log.append({"puzzle": self.env.puzzle, "seed": self.seed, "messages": list(self.messages),
                                     "return": self.episode_return, "success": bool(episode.get("success")),
                                     "done": self.done})
        self.scored = True
        return self.episode_return

    def _rendered(self, obs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The messages the rollout would send the learner now (the picture whenever the view has one)."""
        url = IMAGE_URL if obs.get("image") is not None else None
        return self.env.raw.messages(self.role, obs, self.info, url)

    def _content(self, messages: list[dict[str, Any]], obs: Mapping[str, Any]) -> str | list[dict[str, Any]]:
        """The content of `messages` (a system message, if any, then user messages: normally one)
        as TRL takes it: a string, or parts with the picture as a PIL image where the rollout attaches it."""
        contents = [message["content"] for message in messages]
        if all(isinstance(content, str) for content in contents):
            return "\n\n".join(contents)
        from PIL import Image

        parts: list[dict[str, Any]] = []
        for content in contents:
            for part in [{"type": "text", "text": content}] if isinstance(content, str) else content:
                if part.get("type") == "image_url":
                    parts.append({"type": "image", "image": Image.fromarray(obs["image"])})
                else:
                    parts.append({"type": "text", "text": str(part.get("text", ""))})
        return parts

    def _close(self) -> None:
        """Close the puzzle environments (private: TRL turns public methods into tools)."""
        for env in self._envs.values():
            env.close()
        self._envs.clear()


def tool_env_factory(puzzles: Iterable[str] = ("wire",), seeds: Sequence[int] = range(100, 100_000), seed: int = 0,
                     group_size: int = 1, **settings: Any) -> Callable[[], CommaToolEnv]:
    """The ``environment_factory``: `CommaToolEnv(**settings)` sharing one `TaskSampler` (set `group_size`
    to ``num_generations`` without a dataset); a `functools.partial`, so it pickles."""
    return functools.partial(CommaToolEnv, tasks=TaskSampler(puzzles, seeds, seed, group_size), **settings)


def episode_dataset(puzzles: Iterable[str], seeds: Iterable[int], instruction: str | None = None,
                    role: str = SOLVER, **options: Any) -> Any:
    """A `datasets.Dataset` with one row per (puzzle, seed): a conversational ``prompt`` (the role's
    system prompt, or `instruction`), ``puzzle``, ``seed`` and a column per option (`ROW_OPTIONS`)."""
    from datasets import Dataset

    unknown = set(options) - set(ROW_OPTIONS)
    if unknown:
        raise ValueError(f"episode_dataset options are {ROW_OPTIONS}, not {sorted(unknown)}")
    system = instruction or prompts.system_prompt(role)
    rows = [{"prompt": [{"role": "system", "content": system}, {"role": "user", "content": ""}],
             "puzzle": p, "seed": int(s), **options} for s in seeds for p in puzzles]
    return Dataset.from_list(rows)
