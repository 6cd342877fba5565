"""COMMA episodes for TRL's `GRPOTrainer(environment_factory=...)` (TRL 1.16).

    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=GRPOConfig(max_steps=100, ...),
                          environment_factory=tool_env_factory(["wire", "who"], seeds=range(100, 10_000),
                                                               group_size=8, partner="oracle_nl"))

The environment owns its tasks and its reward, as TRL's contract allows: without a
``train_dataset``, each ``reset`` draws a (puzzle, seed) from the factory's `TaskSampler`; with
one (`episode_dataset`), the row's columns choose the puzzle, seed and options. ``get_reward``
returns the episode's return. The model reads the rollout's prompt (`comma_env.protocol.prompts`):
``reset`` returns its first user message, each `send_message` result what the rollout's next
request adds, the solver's picture as a PIL image part when it sees the image view. The factory
pickles, as TRL's async GRPO trainer requires of it."""

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
    """Draws the (puzzle, seed) of episodes that no dataset row chooses, reproducibly from `seed`.

    A new task is drawn every `group_size` resets, so GRPO's group (``num_generations``
    rollouts, reset one after another) plays one instance. One sampler is shared by every
    environment a factory builds; it pickles with the factory (TRL's async trainer unpickles it
    once in its rollout process)."""

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
    method but ``reset``/``get_reward`` a tool).

    Args:
        puzzle: the puzzle of episodes no dataset row and no `tasks` choose.
        role: the learner's role (``"solver"`` or ``"expert"``).
        partner: the partner (see `SingleRoleEnv`).
        episode_log: a list every scored episode is appended to, for audits and replays.
        tasks: draws the tasks of rows without ``puzzle``/``seed`` (default: `puzzle`, seeds 100 and up).
        **env_options: `SingleRoleEnv` options (``solver_view="text"``, ``max_turns``, rewards...)."""

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
        """Start an episode: the row's ``puzzle`` and ``seed`` (drawn from `tasks` when absent)
        and its option columns (`ROW_OPTIONS`). Returns the rollout's first user message; when the
        row's `prompt` has no system message (TRL's placeholder row, no dataset), the system
        prompt comes first in it (without a `prompt`, the caller sends the system message)."""
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
    """The ``environment_factory`` argument: builds `CommaToolEnv(**settings)` sharing one
    `TaskSampler(puzzles, seeds, seed, group_size)` (set `group_size` to ``num_generations``
    when training without a dataset). A `functools.partial`, so it pickles when its settings do."""
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


def evaluate(model: Any, tokenizer: Any, puzzles: Sequence[str], seeds: Sequence[int], max_turns: int = 4,
             max_new_tokens: int = 96, instruction: str | None = None, **settings: Any) -> dict[str, Any]:
    """Play each (puzzle, seed) greedily in the training's tool protocol (a reply without a tool
    call ends the episode), batching generation across running episodes; returns success rate
    and mean return per puzzle and overall, and the episodes."""
    import torch

    rows = list(episode_dataset(puzzles, seeds, instruction))
    envs = [CommaToolEnv(**settings) for _ in rows]
    chats: list[list[dict[str, Any]]] = []
    for row, env in zip(rows, envs, strict=True):
        first = env.reset(**row)
        chats.append([row["prompt"][0], {"role": "user", "content": first}])
    active = list(range(len(rows)))
    model.eval()
    for _ in range(max_turns):
        if not active:
            break
        prompts = [tokenizer.apply_chat_template(chats[i], tools=[envs[i].send_message], add_generation_prompt=True,
                                                 tokenize=False) for i in active]
        batch = tokenizer(prompts, return_tensors="pt", padding=True, add_special_tokens=False)
        with torch.no_grad():
            out = model.generate(**batch, max_new_tokens=max_new_tokens, do_sample=False)
        still = []
        for k, i in enumerate(active):
            parsed = _parse_reply(tokenizer, out[k, batch["input_ids"].shape[1]:].tolist(),
                                  batch["input_ids"][k][batch["attention_mask"][k].bool()].tolist(), envs[i])
            calls = [c for c in parsed.get("tool_calls") or [] if c.get("function", {}).get("name") == "send_message"]
            chats[i].append({"role": "assistant", "content": parsed.get("content") or "", "tool_calls": calls or None})
            if not calls:  # a plain answer ends the episode unplayed, as in training
                continue
            arguments = calls[0]["function"].get("arguments") or {}
            message = arguments.get("message", "") if isinstance(arguments, dict) else str(arguments)
            chats[i].append({"role": "tool", "name": "send_message", "content": envs[i].send_message(message)})
            if not envs[i].done:
                still.append(i)
        active = still
    episodes = []
    for row, env in zip(rows, envs, strict=True):
        episodes.append({"puzzle": row["puzzle"], "seed": row["seed"], "return": env.episode_return,
                         "success": bool((env.info.get("episode") or {}).get("success")), "messages": env.messages})
        env._close()
    return summarize(episodes)


def _parse_reply(tokenizer: Any, ids: list[int], prompt_ids: list[int], env: CommaToolEnv) -> dict[str, Any]:
    """The assistant message in `ids` (generated after `prompt_ids`), parsed as in training by
    TRL's `parse_response`: a malformed or truncated tool call falls back to plain text."""
    from trl.chat_template_utils import parse_response

    stop = {tokenizer.eos_token_id, tokenizer.pad_token_id}
    end = next((n + 1 for n, t in enumerate(ids) if t in stop), len(ids))  # up to the first end token
    return parse_response(tokenizer, ids[:end], prefix=prompt_ids, tools=[env.send_message])


def summarize(episodes: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Success rate and mean return, overall and per puzzle."""
    def stats(group: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        n = max(len(group), 1)
        return {"episodes": len(group), "success_rate": sum(e["success"] for e in group) / n,
                "mean_return": sum(float(e["return"]) for e in group) / n}

    result: dict[str, Any] = {"all": stats(episodes), "episodes": list(episodes)}
    for puzzle in sorted({e["puzzle"] for e in episodes}):
        result[puzzle] = stats([e for e in episodes if e["puzzle"] == puzzle])
    return result
