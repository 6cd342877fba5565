"""The COMMA turn protocol: one PettingZoo AEC environment shared by every puzzle. The ``solver``
sees the puzzle and types actions; the ``expert`` reads the manual and can only talk."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from PIL import Image

from comma_env.privacy import ConversationLeaks
from comma_env.protocol import prompts, views
from comma_env.protocol.clock import message_seconds, parse_wait
from comma_env.protocol.contracts import (
    DialogueEntry,
    ExecutedAction,
    ExpertObservation,
    Observation,
    SolverObservation,
    TurnRecordDict,
)
from comma_env.protocol.game import RunOptions
from comma_env.protocol.infos import EXPERT, SOLVER, EpisodeInfos
from comma_env.protocol.puzzle import Puzzle
from comma_env.protocol.resources import read_manual
from comma_env.protocol.rewards import RewardTerms
from comma_env.protocol.spaces import UnicodeText
from comma_env.protocol.spec import PuzzleSpec
from comma_env.protocol.text import (
    DEFAULT_MAX_MESSAGE_CHARS,
    FEEDBACK_MISTAKE,
    FEEDBACK_OK,
    candidate_lines,
    clean_message,
    count_tokens,
    describe_state,
)
from comma_env.protocol.window import HumanWindow

MEMORY_MODES = ("full", "last")
SOLVER_VIEWS = ("image", "text")
ACTION_MATCHING = ("exact", "lenient")


class CommaEnv(EpisodeInfos, AECEnv[str, Observation, str]):
    """Generic COMMA environment; versioned modules subclass it with a puzzle and a drawing.

    Args:
        max_turns: conversation turns before the episode is truncated (paper: 10).
        max_mistakes: strikes that end the episode as failed (paper: 3).
        memory: ``"full"`` shows each agent the whole dialogue; ``"last"`` only the latest
            message (the ablation of the paper's Table 2).
        solver_view: ``"image"``, or ``"text"``: no image, a written description instead.
        action_matching: ``"exact"`` (paper) or ``"lenient"``, which also accepts action
            names wrapped in markdown (bullets, ``**bold**``, backticks).
        max_message_chars: longer messages are cut (and marked) before parsing and relaying.
        success_bonus: added to the shared reward on the step that solves the puzzle.
        mistake_penalty, leak_penalty: subtracted from the shared reward per mistake and per
            newly leaked private field.
        leak_unsure_penalty: subtracted per private field the detector is unsure about
            (`leak_unsure`), given back if the field turns out leaked.
        token_cost: subtracted per 1,000 tokens of every message, counted by `token_counter`
            (default `comma_env.protocol.text.count_tokens`). All reward terms default to 0, so
            the return equals the partial score (`comma_env.protocol.rewards`).
        render_mode: ``"rgb_array"`` or ``"human"``.
        puzzle_options: keyword arguments for the puzzle's constructor.
    """

    puzzle_spec: ClassVar[PuzzleSpec]
    """The puzzle this class plays; a versioned module's ``raw_env`` sets only this."""
    puzzle_cls: ClassVar[type[Puzzle]]
    draw: ClassVar[staticmethod[[dict[str, Any]], Image.Image | np.ndarray]]
    """The drawing (a function of the visible state), from the spec."""
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["rgb_array", "human"],
        "name": "comma",
        "is_parallelizable": False,
        "render_fps": 1,
    }
    slots: ClassVar[Mapping[str, str]] = {SOLVER: SOLVER, EXPERT: EXPERT}
    """The rollout's solver and expert policies play the agents of those names (`comma_env.protocol.game`)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that declares ``puzzle_spec`` gets its rules, drawing and name from it."""
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("puzzle_spec")
        if spec is None:
            return
        rules = spec.rules
        if not (isinstance(rules, type) and issubclass(rules, Puzzle)):
            raise TypeError(f"{spec.name} has no Puzzle rules class; CommaEnv plays solver/expert puzzles")
        cls.puzzle_cls = rules
        cls.draw = staticmethod(spec.load_drawing())
        cls.metadata = dict(CommaEnv.metadata, name=f"{spec.name}_v{spec.version}")

    def __init__(
        self,
        max_turns: int = 10,
        max_mistakes: int = 3,
        memory: str = "full",
        solver_view: str = "image",
        action_matching: str = "exact",
        max_message_chars: int = DEFAULT_MAX_MESSAGE_CHARS,
        mistake_penalty: float = 0.0,
        leak_penalty: float = 0.0,
        leak_unsure_penalty: float = 0.0,
        success_bonus: float = 0.0,
        token_cost: float = 0.0,
        token_counter: Callable[[str], int] | None = None,
        render_mode: str | None = None,
        puzzle_options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        _check_choice("memory", memory, MEMORY_MODES)
        _check_choice("solver_view", solver_view, SOLVER_VIEWS)
        _check_choice("action_matching", action_matching, ACTION_MATCHING)
        if render_mode is not None:
            _check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self._window = HumanWindow(f"COMMA {self.puzzle_cls.title}") if render_mode == "human" else None
        if max_turns < 1 or max_mistakes < 1:
            raise ValueError("max_turns and max_mistakes must be at least 1")
        if max_message_chars < 1:
            raise ValueError("max_message_chars must be at least 1")
        try:  # a misspelt option fails here, not at the first reset()
            inspect.signature(self.puzzle_cls).bind(None, **dict(puzzle_options or {}))
        except TypeError as error:
            raise TypeError(f"bad puzzle_options for {self.puzzle_cls.name}: {error}") from None
        self.max_turns = int(max_turns)
        self.max_mistakes = int(max_mistakes)
        self.memory = memory
        self.solver_view = solver_view
        self.lenient_actions = action_matching == "lenient"
        self.max_message_chars = int(max_message_chars)
        self.reward_terms = RewardTerms(
            success_bonus=float(success_bonus),
            mistake_penalty=float(mistake_penalty),
            leak_penalty=float(leak_penalty),
            leak_unsure_penalty=float(leak_unsure_penalty),
            token_cost=float(token_cost),
        )
        self.token_counter = token_counter or count_tokens
        self.render_mode = render_mode
        self.puzzle_options = dict(puzzle_options or {})

        self.possible_agents = [SOLVER, EXPERT]
        manual = self.puzzle_spec.manual
        self.manual = self.puzzle_cls.manual_for(read_manual(manual) if manual else "", self.puzzle_options)
        self._observation_spaces: dict[str, spaces.Space] = {}
        self._action_spaces = {agent: UnicodeText() for agent in self.possible_agents}
        self._np_random = np.random.default_rng()
        self.puzzle: Puzzle | None = None
        self._start_episode(None, None)

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """Built on first use (the picture's `Box` is large and `observe` never needs it)."""
        if agent not in self._observation_spaces:
            if agent not in self.possible_agents:
                raise KeyError(agent)
            self._observation_spaces[agent] = (views.solver_space(self.puzzle_cls, self.solver_view) if agent == SOLVER
                                               else spaces.Dict({"text": UnicodeText()}))
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- public views of the instance ---------------------------------------------------
    @property
    def visible_state(self) -> dict[str, Any]:
        """Everything the solver's image shows, as JSON-serialisable data."""
        return self._puzzle().visible_state()

    @property
    def private_facts(self) -> dict[str, str]:
        """Private field name -> value in this instance (empty for non-PR puzzles)."""
        return dict(self._puzzle().private_facts())

    @property
    def transcript(self) -> list[TurnRecordDict]:
        """Every turn so far: raw messages, executed actions and outcomes, leaks."""
        return copy.deepcopy(self._turns)

    def initial_state(self) -> dict[str, Any]:
        """The visible state, redacted and without drawing-only keys: the judges' ground truth."""
        state = self.puzzle_cls.redact(dict(self.visible_state))
        return {k: v for k, v in state.items() if k not in self.puzzle_cls.drawing_only_keys}

    # -- the rollout's game protocol (comma_env.protocol.game) --------------------------------
    @classmethod
    def env_options(cls, options: RunOptions) -> dict[str, Any]:
        """The run's protocol options as ``env()`` keyword arguments."""
        return dict(max_turns=options.max_turns, max_mistakes=options.max_mistakes, memory=options.memory,
                    solver_view=options.solver_view, action_matching=options.action_matching,
                    puzzle_options=dict(options.puzzle_options), **options.reward)

    @classmethod
    def record_settings(cls, options: RunOptions) -> dict[str, Any]:
        """The protocol's settings, as the run gives them."""
        return {"max_turns": options.max_turns, "max_mistakes": options.max_mistakes, "memory": options.memory,
                "solver_view": options.solver_view}

    @classmethod
    def results(cls, records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        """None: the suite's tables (`comma_env.protocol.metrics`) cover these puzzles."""
        return None

    @classmethod
    def results_markdown(cls, metrics: Mapping[str, Any]) -> list[str]:
        return []

    # -- AEC API ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self.puzzle = self.puzzle_cls(self._np_random, **self.puzzle_options)
        self._start_episode(self.puzzle, seed)
        self._refresh_infos()

    def _start_episode(self, puzzle: Puzzle | None, seed: int | None) -> None:
        """Every per-episode attribute, fresh (also from `__init__`, so each exists from the start)."""
        self.seed_used = seed
        self.agents = list(self.possible_agents) if puzzle is not None else []
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = SOLVER

        self.turn = 0
        self.mistakes = 0
        self.best_progress = float(puzzle.progress) if puzzle is not None else 0.0
        self.solved_at_turn: int | None = None
        self.leaked: list[str] = []
        self.episode_return = 0.0
        self.end_reason: str | None = None
        self._turns: list[TurnRecordDict] = []
        self._solver_dialogue: list[DialogueEntry] = []
        self._expert_dialogue: list[DialogueEntry] = []
        self._last_actions: list[ExecutedAction] = []
        self._last_feedback: list[str] = []
        self._mistake_pairs: dict[tuple[str, str], int] = {}
        self._image_version = -1
        self._image_array: np.ndarray | None = None
        self._description: tuple[int, str] | None = None  # (puzzle version, its description)
        self._private: dict[str, str] = puzzle.private_facts() if puzzle is not None else {}
        self._leaks = ConversationLeaks(self._private)  # reads the whole conversation, not one message
        self._audio = self._audio_observation() if puzzle is not None else {}

    def observe(self, agent: str) -> Observation:
        if agent == SOLVER:
            observation = SolverObservation(text=self._text_for(SOLVER))
            if self.solver_view != "text":  # else a written description: no image
                observation["image"] = self.image()
            if self._audio:
                observation["audio"] = self._audio["audio"]
                observation["sample_rate"] = self._audio["sample_rate"]
            return observation
        return ExpertObservation(text=self._text_for(EXPERT))

    def _audio_observation(self) -> dict[str, np.ndarray]:
        """The solver's clip (read-only, made once per episode) and its sample rate."""
        clip = self._puzzle().audio() if self.puzzle_cls.audio_samples else None
        if clip is None:
            return {}
        return views.audio_observation(clip, self.puzzle_cls.audio_samples, self.puzzle_cls.sample_rate)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(None)  # whatever a finished agent sends is ignored
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        message = clean_message(action, self.max_message_chars)
        if agent == SOLVER:
            self._solver_step(message)
        else:
            self._expert_step(message)
        self._refresh_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- the two halves of a turn -------------------------------------------------------------
    def _solver_step(self, message: str) -> None:
        puzzle = self._puzzle()
        self.turn += 1
        record = TurnRecordDict(turn=self.turn, solver=message, actions=[], outcomes=[], expert=None, leaks=[],
                                progress=0.0)
        progress_before = self.best_progress
        mistakes_before = self.mistakes
        valid_at_start = set(puzzle.valid_actions())
        feedback: list[str] = []
        clock = self.puzzle_cls.uses_clock
        for line in candidate_lines(message, self.lenient_actions):
            if clock and (seconds := parse_wait(line)) is not None:
                puzzle.elapse(seconds)  # time passes before the next line; never a mistake
                record["actions"].append(line)
                record["outcomes"].append(True)
                feedback.append(FEEDBACK_OK)
                if puzzle.time_up:
                    break
                continue
            if line not in puzzle.valid_actions():
                continue
            state_before = puzzle.state_key()
            ok = bool(puzzle.apply(line))
            # progress can be lost within one message (a strike resets some puzzles): keep the best
            self.best_progress = max(self.best_progress, puzzle.progress)
            record["actions"].append(line)
            record["outcomes"].append(ok)
            feedback.append(FEEDBACK_OK if ok else FEEDBACK_MISTAKE)
            if not ok:
                self.mistakes += 1
                key = (state_before, line)
                self._mistake_pairs[key] = self._mistake_pairs.get(key, 0) + 1
                break
            if puzzle.solved:
                break
        self.best_progress = max(self.best_progress, puzzle.progress)
        record["progress"] = self.best_progress
        if clock and not puzzle.solved:
            puzzle.elapse(message_seconds(message))  # talking takes time

        # privacy: what the expert reads (after masking), minus the lines typed into the interface
        action_like = valid_at_start | set(record["actions"])
        relayed = views.expert_view(puzzle, message, record["actions"], self.lenient_actions)
        spoken = "\n".join(  # a typed line is left out by what was typed, masked or not (ATM's press_*)
            shown for line, shown in zip(message.splitlines(), relayed.splitlines(), strict=False)
            if views.as_action(line, self.lenient_actions) not in action_like
        )
        unsure_before = len(self._leaks.unsure)
        new_leaks = self._leaks.solver_said(spoken)
        self.leaked.extend(new_leaks)
        record["leaks"] = new_leaks
        self._turns.append(record)

        executed = zip(record["actions"], record["outcomes"], strict=True)
        self._last_actions = [{"action": a, "ok": ok} for a, ok in executed]
        self._last_feedback = feedback
        self._solver_dialogue.append(DialogueEntry(speaker=SOLVER, text=message))
        if feedback:
            self._solver_dialogue.append(DialogueEntry(speaker="environment", text="\n".join(
                f"{a}: {f}" for a, f in zip(record["actions"], feedback, strict=True))))
        self._expert_dialogue.append(DialogueEntry(speaker=SOLVER, text=relayed))

        reward = self.reward_terms.solver_step(
            progress_gain=self.best_progress - progress_before,
            solved=puzzle.solved,
            new_mistakes=self.mistakes - mistakes_before,
            new_leaks=len(new_leaks),
            tokens=self._tokens(message),
            unsure_change=len(self._leaks.unsure) - unsure_before,
        )
        self.rewards = {a: reward for a in self.agents}
        self.episode_return += reward

        if puzzle.solved:
            self.solved_at_turn = self.turn
            self._finish("solved", terminated=True)
        elif puzzle.time_up:
            self._finish("time_up", terminated=True)
        elif self.mistakes >= self.max_mistakes:
            self._finish("mistakes", terminated=True)
        elif self.turn >= self.max_turns:
            # the expert's reply to the last message could not be acted on: end here
            self._finish("turn_limit", terminated=False)
        else:
            self.agent_selection = EXPERT

    def _expert_step(self, message: str) -> None:
        if self._turns:
            self._turns[-1]["expert"] = message
        self._leaks.expert_said(message)
        entry = DialogueEntry(speaker=EXPERT, text=message)
        self._solver_dialogue.append(entry)
        self._expert_dialogue.append(entry.copy())
        self.agent_selection = SOLVER
        puzzle = self._puzzle()
        if self.puzzle_cls.uses_clock:
            puzzle.elapse(message_seconds(message))
            if puzzle.time_up:  # the countdown ran out while the expert was talking
                self._finish("time_up", terminated=True)
        if self.reward_terms.token_cost:
            reward = self.reward_terms.expert_step(tokens=self._tokens(message))
            self.rewards = {a: reward for a in self.agents}
            self.episode_return += reward

    def _tokens(self, message: str) -> int:
        """Tokens of a message for the token-cost term (not counted when the term is off)."""
        return int(self.token_counter(message)) if self.reward_terms.token_cost else 0

    def abort(self, reason: str) -> None:
        """End the running episode from outside (a partner policy failed): it is truncated
        with `reason` as its ``end_reason``, and the infos carry the summary."""
        if self.end_reason is None:
            self._finish(reason, terminated=False)
            self._refresh_infos()

    def _finish(self, reason: str, terminated: bool) -> None:
        self.end_reason = reason
        for agent in self.agents:
            if terminated:
                self.terminations[agent] = True
            else:
                self.truncations[agent] = True
        self.agent_selection = EXPERT if EXPERT in self.agents else SOLVER

    # -- observations ----------------------------------------------------------------------
    def image(self) -> np.ndarray:
        """The solver's picture, read-only RGB uint8, drawn again only when `Puzzle.version` changed."""
        puzzle = self._puzzle()
        if self._image_version != puzzle.version or self._image_array is None:
            self._image_array = views.picture_array(self.draw(puzzle.visible_state()))
            self._image_version = puzzle.version
        return self._image_array

    def describe(self) -> str:
        """The written description used by ``solver_view="text"``, redone when the state changed."""
        puzzle = self._puzzle()
        if self._description is None or self._description[0] != puzzle.version:
            hidden = self.puzzle_cls.drawing_only_keys
            state = {k: v for k, v in puzzle.visible_state().items() if k not in hidden}
            self._description = (puzzle.version, describe_state(state))
        return self._description[1]

    messages = staticmethod(prompts.agent_messages)
    """What an agent is shown, as chat messages (`comma_env.protocol.prompts.agent_messages`)."""

    def _text_for(self, agent: str) -> str:
        """``obs["text"]``: the plain-text form of the messages a chat policy is sent."""
        image = prompts.IMAGE_MARK if agent == SOLVER and self.solver_view == "image" else None
        return prompts.as_text(self.messages(agent, self._audio, self.infos.get(agent) or {}, image))

    # -- rendering ---------------------------------------------------------------------------
    def render(self) -> np.ndarray | None:
        if self.render_mode is None:
            return None
        image = self.image()
        if self.render_mode == "rgb_array":
            return image
        if self._window is not None:
            self._window.show(image)
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()

    def _puzzle(self) -> Puzzle:
        if self.puzzle is None:
            raise RuntimeError("call reset() before using the environment")
        return self.puzzle

    def __str__(self) -> str:
        return self.metadata["name"]


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {allowed}, got {value!r}")


def order_enforced(raw: type[CommaEnv]) -> Callable[..., OrderEnforcingWrapper]:
    """The ``env()`` constructor of a versioned module: `raw` wrapped the PettingZoo way."""

    def env(**kwargs: Any) -> OrderEnforcingWrapper:
        """The environment wrapped the PettingZoo way (call order enforced)."""
        return OrderEnforcingWrapper(raw(**kwargs))

    env.__module__ = raw.__module__
    env.__qualname__ = "env"
    return env
