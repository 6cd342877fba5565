"""AsymPuzl as a PettingZoo AEC environment (``comma/asympuzl-v0``): each turn Alice acts, then Bob;
update lines change the agent's hypothesis and the rest is relayed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from comma_env.asympuzl import prompts, rules
from comma_env.asympuzl.drawing import draw_alice, image_size
from comma_env.asympuzl.metrics import completion_metrics, render_markdown
from comma_env.protocol.game import RunOptions
from comma_env.protocol.prompts import IMAGE_MARK, as_text
from comma_env.protocol.spaces import UnicodeText
from comma_env.protocol.text import clean_message

VIEWS = ("text", "image")
MEMORY = ("last", "full")
SUCCESS_CHECKS = ("end_of_turn", "immediate")
PARTNER_FEEDBACK = ("previous", "current")
DEFAULT_MAX_MESSAGE_CHARS = 20_000


def turn_limit(n: int, max_turns: int | None = None) -> int:
    """The paper's T = 3N unless `max_turns` is given."""
    return int(max_turns) if max_turns else 3 * int(n)


class AsymPuzlEnv(AECEnv):
    """Two agents with complementary clues rebuild a row of shape-colour pieces.

    Args:
        n: pieces in the puzzle (paper: 3, 5, 10, 20; default 5).
        distractors: extra pieces added to one agent's clues (paper: 0, 3, 5, 10).
        distractor_side: ``"alice"`` (inserted among her shapes, true order kept) or ``"bob"``.
        feedback: one of ``none, own, own-detailed, joint, both, both-detailed`` (paper's
            default: own-detailed).
        max_turns: turn limit T (default 3N).
        view: ``"text"`` (the paper) or ``"image"``: Alice's observation also holds a picture
            of her clues and hypothesis, and her text no longer lists the clues.
        memory: ``"last"`` (the paper: the latest message of each agent) or ``"full"``.
        success_check: ``"end_of_turn"`` (default) or ``"immediate"``, after Alice's move.
        partner_feedback: ``"previous"`` turn's (default) or ``"current"``, after Alice's move.
        max_message_chars: longer messages are cut (and marked) before parsing.
        render_mode: ``"rgb_array"`` returns Alice's picture.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "name": "asympuzl_v0",
                                          "is_parallelizable": False, "render_fps": 1}
    slots: ClassVar[Mapping[str, str]] = {"solver": "alice", "expert": "bob"}
    """In a rollout the solver policy plays Alice and the expert policy Bob."""
    messages = staticmethod(prompts.messages)

    def __init__(self, n: int = 5, distractors: int = 0, distractor_side: str = "alice",
                 feedback: str = "own-detailed", max_turns: int | None = None, view: str = "text",
                 memory: str = "last", max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
                 render_mode: str | None = None, success_check: str = "end_of_turn",
                 partner_feedback: str = "previous") -> None:
        super().__init__()
        rules.check_options(n, distractors, distractor_side, feedback)
        for name, value, allowed in (("view", view, VIEWS), ("memory", memory, MEMORY),
                                     ("success_check", success_check, SUCCESS_CHECKS),
                                     ("partner_feedback", partner_feedback, PARTNER_FEEDBACK)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if max_turns is not None and int(max_turns) < 1:
            raise ValueError("max_turns must be at least 1")
        if int(max_message_chars) < 1:
            raise ValueError("max_message_chars must be at least 1")
        self.n, self.distractors = int(n), int(distractors)
        self.distractor_side, self.feedback_mode = distractor_side, feedback
        self.max_turns = turn_limit(self.n, max_turns)
        self.view, self.memory, self.render_mode = view, memory, render_mode
        self.max_message_chars = int(max_message_chars)
        self.success_check, self.partner_feedback = success_check, partner_feedback
        self.possible_agents = list(rules.AGENTS)
        alice_clues = self.n + (self.distractors if distractor_side == "alice" else 0)
        alice_space: dict[str, spaces.Space] = {"text": UnicodeText()}
        if view == "image":
            width, height = image_size(alice_clues, self.n)
            alice_space["image"] = spaces.Box(0, 255, (height, width, 3), np.uint8)
        self._observation_spaces = {"alice": spaces.Dict(alice_space), "bob": spaces.Dict({"text": UnicodeText()})}
        self._action_spaces = {agent: UnicodeText() for agent in self.possible_agents}
        self._np_random = np.random.default_rng()
        self.instance: rules.Instance | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- AEC API ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.seed_used = seed
        self.instance = rules.generate(self._np_random, self.n, self.distractors, self.distractor_side)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_selection = "alice"
        self.turn = 0
        self.hypotheses: dict[str, list[rules.Slot]] = {a: rules.empty_hypothesis(self.n) for a in self.agents}
        self.feedback: dict[str, str] = {a: "" for a in self.agents}
        self.outcomes: dict[str, list[dict[str, str]]] = {a: [] for a in self.agents}
        self.malformed = {a: 0 for a in self.agents}
        self.dialogue: list[dict[str, str]] = []
        self.solved_at_turn: int | None = None
        self.end_reason: str | None = None
        self._turns: list[dict[str, Any]] = []
        self._image: tuple[tuple[Any, ...], np.ndarray] | None = None
        self._tasks = {a: prompts.task_prompt(a, self.n, self.max_turns, len(self.clues(a)), self.success_check)
                       for a in self.agents}
        self._refresh_infos()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(None)  # whatever a finished agent sends is ignored
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        raw = clean_message(action, self.max_message_chars)
        if agent == "alice":
            self.turn += 1
            self._turns.append({"turn": self.turn})
        result = rules.apply_updates(self.hypotheses[agent], raw)
        self.outcomes[agent] = result.outcomes
        self.malformed[agent] += result.malformed
        self.dialogue.append({"speaker": agent, "text": result.message})
        record = self._turns[-1]
        record[agent] = raw
        record[f"{agent}_updates"] = result.outcomes
        record[f"{agent}_hypothesis"] = [list(slot) for slot in self.hypotheses[agent]]
        wrong = self._wrong()
        if not wrong["alice"] and not wrong["bob"] and (agent == "bob" or self.success_check == "immediate"):
            self.solved_at_turn = self.turn
            self.rewards = {a: 1.0 for a in self.agents}
            self._finish("solved", terminated=True)
        elif agent == "bob":
            self.feedback = {a: rules.feedback_text(self.feedback_mode, a, wrong) for a in self.agents}
            record["feedback"] = dict(self.feedback)
            if self.turn >= self.max_turns:
                self._finish("turn_limit", terminated=False)
            else:
                self.agent_selection = "alice"
        else:
            if self.partner_feedback == "current" and self.feedback_mode in rules.PARTNER_MODES:
                # Bob reads feedback that already covers the hypothesis Alice has just set
                self.feedback["bob"] = rules.feedback_text(self.feedback_mode, "bob", wrong)
                record["bob_feedback"] = self.feedback["bob"]
            self.agent_selection = "bob"
        self._refresh_infos()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, Any]:
        picture = agent == "alice" and self.view == "image"
        text = as_text(self.messages(agent, {}, self._info(agent), IMAGE_MARK if picture else None))
        observation: dict[str, Any] = {"text": text}
        if picture:
            observation["image"] = self.image()
        return observation

    def render(self) -> np.ndarray | None:
        return self.image() if self.render_mode == "rgb_array" else None

    # -- views -----------------------------------------------------------------------------
    @property
    def visible_state(self) -> dict[str, Any]:
        """What Alice's picture shows: her clues and her working hypothesis."""
        inst = self._instance()
        return {"n": self.n, "clues": list(inst.alice_clues), "hypothesis": [list(s) for s in self.hypotheses["alice"]]}

    def image(self) -> np.ndarray:
        """Alice's picture (drawn again only when her hypothesis changed)."""
        key = tuple(self.hypotheses["alice"])
        if self._image is None or self._image[0] != key:
            picture = np.asarray(draw_alice(self.visible_state))
            picture.flags.writeable = False
            self._image = (key, picture)
        return self._image[1]

    @property
    def transcript(self) -> list[dict[str, Any]]:
        """Every turn: raw messages, update outcomes, hypotheses after each step, feedback."""
        return [dict(t) for t in self._turns]

    def initial_state(self) -> dict[str, Any]:
        """The instance: solution and both agents' clues (for records and judges)."""
        inst = self._instance()
        return {"n": self.n, "solution": [list(p) for p in inst.solution], "alice_clues": list(inst.alice_clues),
                "bob_clues": [list(p) for p in inst.bob_clues], "distractors": self.distractors,
                "distractor_side": self.distractor_side, "feedback": self.feedback_mode,
                "success_check": self.success_check, "partner_feedback": self.partner_feedback}

    def clues(self, agent: str) -> list[Any]:
        inst = self._instance()
        return list(inst.alice_clues) if agent == "alice" else [list(p) for p in inst.bob_clues]

    def task(self, agent: str) -> str:
        """`agent`'s standing instructions (the chat policy's system prompt)."""
        return self._tasks[agent]

    # -- the rollout's game protocol (comma_env.protocol.game) ---------------------------------
    @classmethod
    def env_options(cls, options: RunOptions) -> dict[str, Any]:
        """The game's own options, from ``puzzle_options``; COMMA's protocol options do not apply."""
        return dict(options.puzzle_options)

    @classmethod
    def record_settings(cls, options: RunOptions) -> dict[str, Any]:
        """The settings of a game built with the run's options (no mistake limit)."""
        game = cls(**cls.env_options(options))
        return {"max_turns": game.max_turns, "max_mistakes": None, "memory": game.memory, "solver_view": game.view,
                "success_check": game.success_check, "partner_feedback": game.partner_feedback}

    results = staticmethod(completion_metrics)
    """Completion rate and turns to completion (`comma_env.asympuzl.metrics`)."""
    results_markdown = staticmethod(render_markdown)

    def episode_summary(self) -> dict[str, Any]:
        """The per-episode record: success, turns, completion turn, malformed updates."""
        inst = self._instance()
        wrong = [len(rules.wrong_positions(self.hypotheses[a], inst.solution)) for a in rules.AGENTS]
        progress = float(np.mean([1.0 - n / len(inst.solution) for n in wrong]))
        success = self.end_reason == "solved"
        return {
            "puzzle": "asympuzl", "seed": self.seed_used, "success": success, "progress": progress,
            "mistakes": sum(self.malformed.values()), "malformed_updates": dict(self.malformed),
            "turns": self.solved_at_turn if success else self.max_turns, "turns_played": self.turn,
            "solved_at_turn": self.solved_at_turn, "end_reason": self.end_reason or "running",
            "n": self.n, "distractors": self.distractors, "distractor_side": self.distractor_side,
            "feedback": self.feedback_mode, "view": self.view, "max_turns": self.max_turns,
            "success_check": self.success_check, "partner_feedback": self.partner_feedback,
            "privacy_leaks": [], "privacy_unsure": [],
            "leaked": False, "repetition_loop": False, "repeated_mistakes": 0,
        }

    # -- internals -----------------------------------------------------------------------------
    def _instance(self) -> rules.Instance:
        if self.instance is None:
            raise RuntimeError("call reset() first")
        return self.instance

    def _wrong(self) -> dict[str, list[int]]:
        solution = self._instance().solution
        return {a: rules.wrong_positions(self.hypotheses[a], solution) for a in rules.AGENTS}

    def _seen_dialogue(self, agent: str) -> list[dict[str, str]]:
        """The messages `agent` remembers: all, or its own and its partner's latest."""
        if self.memory == "full":
            return [dict(e) for e in self.dialogue]
        latest = {entry["speaker"]: index for index, entry in enumerate(self.dialogue)}
        return [dict(self.dialogue[i]) for i in sorted(latest.values())]

    def _finish(self, reason: str, terminated: bool) -> None:
        self.end_reason = reason
        for agent in self.agents:
            (self.terminations if terminated else self.truncations)[agent] = True
        self.agent_selection = "alice"

    def _info(self, agent: str) -> dict[str, Any]:
        """What `agent` may know now (its info without the last step's ``episode``)."""
        return {
            "turn": self.turn, "max_turns": self.max_turns, "n": self.n, "role": agent,
            "task": self.task(agent), "clues": self.clues(agent),
            "hypothesis": [list(s) for s in self.hypotheses[agent]],
            "feedback": self.feedback[agent], "updates": list(self.outcomes[agent]),
            "dialogue": self._seen_dialogue(agent), "view": self.view,
        }

    def _refresh_infos(self) -> None:
        self.infos = {agent: self._info(agent) for agent in self.agents}
        if self.end_reason is not None:
            summary = self.episode_summary()
            for agent in self.agents:
                self.infos[agent]["episode"] = dict(summary)


raw_env = AsymPuzlEnv


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped the PettingZoo way (call order enforced)."""
    return OrderEnforcingWrapper(AsymPuzlEnv(**kwargs))
