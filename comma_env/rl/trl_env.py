"""COMMA episodes for TRL's `GRPOTrainer(environment_factory=...)`.

    trainer = GRPOTrainer(model=model, processing_class=tokenizer, args=GRPOConfig(...),
                          train_dataset=episode_dataset(["wire", "who"], seeds=range(100, 164)),
                          reward_funcs=[environment_reward],
                          environment_factory=tool_env_factory(partner="oracle_nl", solver_view="text"))

The model reads the rollout's prompt: the row's system message, ``reset``'s first user
message, and each `send_message` result is what the rollout's next request adds. The reward is
the episode's return; a completion that never calls the tool is played as one plain message."""

from __future__ import annotations

import concurrent.futures
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from comma_env.protocol import prompts
from comma_env.protocol.core import SOLVER

IMAGE_URL = "comma-env:image"
"""Stands for the picture in the rendered messages until it is handed to TRL as a PIL image."""


class CommaToolEnv:
    """One single-role COMMA episode driven through a `send_message` tool (TRL makes every public
    method but ``reset``/``get_reward`` a tool).

    Args:
        puzzle: the default puzzle; a dataset row's ``puzzle`` column overrides it.
        role: the learner's role (``"solver"`` or ``"expert"``).
        partner: the partner (see `SingleRoleEnv`).
        vision: show the solver its image with each state (VLMs; image view).
        episode_log: a list every scored episode is appended to, for audits and replays.
        **env_options: `SingleRoleEnv` options (``solver_view="text"``, ``max_turns``, rewards...)."""

    def __init__(self, puzzle: str = "wire", role: str = SOLVER, partner: Any = "oracle_nl", vision: bool = False,
                 episode_log: list[dict[str, Any]] | None = None, **env_options: Any) -> None:
        self.puzzle = puzzle
        self.role = role
        self.partner = partner
        self.vision = vision
        self.env_options = env_options
        self.episode_log = episode_log
        self._envs: dict[str, Any] = {}
        self.env: Any = None
        self.seed: int | None = None
        self.messages: list[str] = []
        self.episode_return = 0.0
        self.done = True
        self.info: dict[str, Any] = {}

    def _env(self, puzzle: str) -> Any:
        if puzzle not in self._envs:  # one SingleRoleEnv per puzzle, reused across episodes
            from comma_env.rl import SingleRoleEnv

            self._envs[puzzle] = SingleRoleEnv(puzzle, role=self.role, partner=self.partner, **self.env_options)
        return self._envs[puzzle]

    def reset(self, puzzle: str | None = None, seed: int | None = None, **columns: Any) -> str | list[dict[str, Any]]:
        """Start the episode of this dataset row; returns the rollout's first user message
        (the system message is the dataset row's)."""
        self.env = self._env(str(puzzle or self.puzzle))
        self.seed = None if seed is None else int(seed)
        obs, self.info = self.env.reset(seed=self.seed)
        self.messages = []
        self.episode_return = 0.0
        self.done = False
        return self._content(self._rendered(obs)[1:], obs)

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

    def _rendered(self, obs: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The messages the rollout would send the learner now."""
        url = IMAGE_URL if self.vision and obs.get("image") is not None else None
        return self.env.raw.messages(self.role, obs, self.info, url)

    def _content(self, messages: list[dict[str, Any]], obs: Mapping[str, Any]) -> str | list[dict[str, Any]]:
        """The content of `messages` (user messages after merging: normally one) as TRL takes
        it: a string, or parts with the picture as a PIL image where the rollout attaches it."""
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

    def _owes_plain_answer(self, final_text: str | None) -> bool:
        """Whether `final_text` is still to be played: the episode runs and nothing was sent."""
        return self.env is not None and not self.messages and not self.done and final_text is not None

    def _play_plain_answer(self, final_text: str | None) -> None:
        """If no message was sent yet, send `final_text` (the model's plain answer) as the message."""
        if self._owes_plain_answer(final_text):
            self.send_message(str(final_text))

    def _finish(self, final_text: str | None = None) -> float:
        """Score the episode once: if no message was sent yet, `final_text` (the model's plain
        answer) is sent as the message. Returns the episode return and logs the episode."""
        self._play_plain_answer(final_text)
        episode = dict(self.info.get("episode") or {})
        if self.episode_log is not None and self.env is not None:
            self.episode_log.append({"puzzle": self.env.puzzle, "seed": self.seed, "messages": list(self.messages),
                                     "return": self.episode_return, "success": bool(episode.get("success")),
                                     "done": self.done})
        return self.episode_return

    def _close(self) -> None:
        """Close the puzzle environments (private: TRL turns public methods into tools)."""
        for env in self._envs.values():
            env.close()
        self._envs.clear()


def tool_env_factory(**settings: Any) -> Callable[[], CommaToolEnv]:
    """The ``environment_factory`` argument: a callable building `CommaToolEnv(**settings)`."""
    return functools.partial(CommaToolEnv, **settings)


def _last_text(completion: Any) -> str | None:
    """The text of the model's last assistant message (conversational or plain completion)."""
    if isinstance(completion, str):
        return completion
    for message in reversed(list(completion or [])):
        if message.get("role") == "assistant":
            content = message.get("content")
            if isinstance(content, list):
                content = "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content or "")
    return None


def environment_reward(completions: Sequence[Any], environments: Sequence[CommaToolEnv], **_: Any) -> list[float]:
    """GRPO reward function: each rollout's episode return; plain answers still to be played are
    played at once, one thread per rollout."""
    texts = [_last_text(completion) for completion in completions]
    if len(environments) != len(texts):
        raise ValueError(f"{len(texts)} completions but {len(environments)} environments")
    plain = [(env, text) for env, text in zip(environments, texts, strict=True) if env._owes_plain_answer(text)]
    if len(plain) > 1:
        with concurrent.futures.ThreadPoolExecutor(len(plain), thread_name_prefix="comma-env-reward") as pool:
            list(pool.map(lambda pair: pair[0]._play_plain_answer(pair[1]), plain))
    return [env._finish(text) for text, env in zip(texts, environments, strict=True)]


def episode_dataset(puzzles: Iterable[str], seeds: Iterable[int], instruction: str | None = None,
                    role: str = SOLVER) -> Any:
    """A `datasets.Dataset` with one row per (puzzle, seed): a conversational ``prompt`` (the role's
    system prompt, or `instruction`), ``puzzle`` and ``seed``."""
    from datasets import Dataset

    system = instruction or prompts.system_prompt(role)
    rows = [{"prompt": [{"role": "system", "content": system}, {"role": "user", "content": ""}],
             "puzzle": p, "seed": int(s)} for s in seeds for p in puzzles]
    return Dataset.from_list(rows)


def evaluate(model: Any, tokenizer: Any, puzzles: Sequence[str], seeds: Sequence[int], max_turns: int = 4,
             max_new_tokens: int = 96, instruction: str | None = None, **settings: Any) -> dict[str, Any]:
    """Play each (puzzle, seed) greedily in the training's tool protocol, batching generation across
    running episodes; returns success rate and mean return per puzzle and overall, and the episodes."""
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
            if not calls:
                envs[i]._finish(parsed.get("content") or "")  # a plain answer is the (last) message
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
