"""Two learners: a learning expert and a learning solver trained together from scratch.

Every other learner of these examples trains against a scripted partner. Here both roles of
the AEC environment are played by numpy REINFORCE policies that share the episode's reward
and must agree on how to talk, a Lewis signalling game inside a COMMA puzzle:

- the **solver** (`LinearSolverPolicy`, text view, ``two_stage=True``) chooses each turn
  whether to describe what it sees (``I see:`` plus the written description) or to act,
  from what it said last (nothing yet, a description, an action) and never from the
  expert's word; when it acts, it picks one valid action by the expert's last message,
  read as words paired with each action's attributes;
- the **expert** (`LinearExpertPolicy`) says one word of a fixed vocabulary of nonsense
  symbols (``"ba"``, ``"ko"``...). It reads only its own AEC info, the manual and the
  dialogue: it reads the solver's last message as a description, applies the manual's rules
  to it (`Puzzle.expert_advice`, the rules the manual states, as the scripted expert applies
  them) and scores each symbol by features of (advised action, symbol). It never sees the
  image, the state, the feedback or the solver's observation (tested).

Neither starts with a meaning for any symbol: which symbol names which action is settled by
the two policies during training (`protocol` reads it back). What makes that settle
reliably, whatever the training seed (the two-stage solver, the mistake penalty phased in,
each role's credit), is explained at `make_pair` and `train_pair`. The message space is one
symbol per expert turn, so the pair suits puzzles whose advice is one action at a time
(Wire, Who).
`train_two_learners.py`, beside this file, draws the curves and prints conversations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import comma_env
from comma_env.protocol.core import EXPERT, SOLVER
from comma_env.protocol.text import DESCRIPTION_HEADER, parse_description

from linear_policy import LinearSoftmaxPolicy, LinearSolverPolicy, Step, _hash

VOCABULARY = ("ba", "ko", "mi", "tu", "ze", "ra", "lo", "pi", "su", "ne", "fa", "gu")
"""The expert's symbols: no English meaning, no digit, no colour, nothing an action name holds."""

EXPERT_INFO_KEYS = frozenset({"turn", "dialogue", "manual", "episode"})
"""All the expert may read (its AEC info; ``episode`` only once the episode is over)."""

MISTAKE_WARMUP = 1000
"""Training episodes over which `train_pair` phases in the environment's mistake penalty."""

Advice = Callable[[dict[str, Any], dict[str, Any]], list[str]]


def last_solver_message(dialogue: list[dict[str, str]]) -> str:
    """The solver's latest message, if the expert has not answered it yet ("" otherwise)."""
    if dialogue and dialogue[-1]["speaker"] == SOLVER:
        return dialogue[-1]["text"]
    return ""


@dataclass
class LinearExpertPolicy(LinearSoftmaxPolicy):
    """The expert: one symbol of `vocabulary` per turn, scored by what the manual advises for
    what the solver described.

    Args:
        manual_rules: the manual's rules as a function ``(seen, notes) -> actions``
            (``puzzle_cls.expert_advice``); it receives only what the solver's message says.
        vocabulary: the symbols it may say.
    """

    manual_rules: Advice | None = None
    vocabulary: tuple[str, ...] = VOCABULARY
    notes: dict[str, Any] = field(default_factory=dict)

    def candidates(self, info: dict[str, Any]) -> list[str]:
        return list(self.vocabulary)

    def new_episode(self) -> None:
        self.notes = {}  # the manual's stage notes (Memory) belong to one episode

    def meaning(self, info: dict[str, Any]) -> str:
        """What the expert wants to convey: the first action the manual advises for the
        solver's last message, or ``"none"`` when that message is not a description it can
        read (the solver typed an action, or wrote nothing)."""
        if set(info) - EXPERT_INFO_KEYS:
            raise ValueError(f"the expert may read only {sorted(EXPERT_INFO_KEYS)}, got {sorted(info)}")
        message = last_solver_message(info.get("dialogue") or [])
        _, described, body = message.partition(DESCRIPTION_HEADER)
        if not described or self.manual_rules is None:
            return "none"
        try:
            advice = self.manual_rules(parse_description(body), self.notes)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError):
            return "none"  # a description the rules cannot use
        return advice[0] if advice else "none"

    def features(self, info: dict[str, Any]) -> list[np.ndarray]:
        meaning = self.meaning(info)
        # one feature per (meaning, symbol): no parts of action names shared between meanings,
        # which would pull "bottom left" and "bottom right" towards one symbol
        return [np.array([_hash(f"{meaning}|{symbol}", self.dims)], dtype=np.int64) for symbol in self.vocabulary]


@dataclass
class PairEpisode:
    """One episode of the pair: its return and success, each role's steps, the conversation
    and what the expert meant at each of its turns."""

    total: float
    success: bool
    steps: dict[str, list[Step]]
    conversation: list[tuple[str, str]]
    meanings: list[str]


def make_pair_env(puzzle: str, **options: Any) -> Any:
    """The AEC environment both learners play: text view (the solver reads the written
    description), ``mistake_penalty=1`` unless given."""
    options.setdefault("solver_view", "text")
    options.setdefault("mistake_penalty", 1.0)
    return comma_env.make(puzzle, **options).unwrapped


def make_pair(puzzle: str, seed: int = 0, learning_rate: float = 0.3,
              entropy_bonus: float = 0.05) -> tuple[LinearSolverPolicy, LinearExpertPolicy]:
    """An untrained solver and expert for `puzzle`; the expert gets the manual's rules.

    - The solver chooses in two stages (`LinearSolverPolicy.two_stage`): whether to describe
      or act, from what it said last and from no word of the expert's, then which action,
      from the expert's word. In one softmax over "describe" and the actions, describing
      again (never a strike) scores above the average guess after a symbol that means
      nothing yet, so the solver soon stops acting after that symbol, and a symbol it never
      acts on never comes to mean anything: a pair could end with one advised action it
      never takes. A gate that cannot see the symbol acts after every symbol alike.
    - The solver's rewards count `discount` = 0.9 per later message of its own: asking
      again and acting later is then worth a little less than acting now, so once the code
      works the gate settles on acting after an answer instead of drifting between the two
      (a greedy solver whose gate tips towards describing describes until time runs out).
    - The expert's symbol is credited with the reward of the solver's next message only
      (``discount=0``): the solver reads only the expert's latest message, so that reply is
      the symbol's whole direct effect; later rewards follow other symbols. `train_pair`
      keeps the expert's baseline per meaning.
    """
    rules = comma_env.make(puzzle).unwrapped.puzzle_cls.expert_advice
    solver = LinearSolverPolicy(learning_rate=learning_rate, entropy_bonus=entropy_bonus, seed=seed,
                                describe_reads_words=False, two_stage=True, discount=0.9)
    expert = LinearExpertPolicy(learning_rate=learning_rate, entropy_bonus=entropy_bonus, seed=seed + 1,
                                manual_rules=rules, discount=0.0)
    return solver, expert


def play_pair(env: Any, solver: LinearSolverPolicy, expert: LinearExpertPolicy, seed: int,
              greedy: bool = False, mistake_weight: float = 1.0) -> PairEpisode:
    """One episode of the AEC env with each policy acting on its own role's info only.

    The steps carry the rewards the policies learn from: the environment's, except that a
    strike costs `mistake_weight` times the environment's mistake penalty (`train_pair`
    phases the penalty in). The episode's return and success are the environment's."""
    env.reset(seed=seed)
    expert.new_episode()
    steps: dict[str, list[Step]] = {SOLVER: [], EXPERT: []}
    conversation: list[tuple[str, str]] = []
    meanings: list[str] = []
    rewards: list[tuple[str, float]] = []
    while env.end_reason is None:
        agent = env.agent_selection
        info = env.infos[agent]  # that role's own view: the expert's holds turn, dialogue, manual
        if agent == EXPERT:
            meanings.append(expert.meaning(info))
        message, rows, choice = (solver if agent == SOLVER else expert).act(info, greedy=greedy)
        mistakes = env.mistakes
        env.step(message)
        steps[agent].append((rows, choice, 0.0))
        waived = (1.0 - mistake_weight) * env.reward_terms.mistake_penalty * (env.mistakes - mistakes)
        rewards.append((agent, float(env.rewards[agent]) + waived))
        conversation.append((agent, message))
    # each step's reward is everything the shared reward gained from that message to the next
    # message of the same role: the expert's word is paid by the solver's action that follows
    credited: dict[str, list[Step]] = {SOLVER: [], EXPERT: []}
    position = {SOLVER: 0, EXPERT: 0}
    for index, (agent, _) in enumerate(rewards):
        gain = rewards[index][1]
        for other_agent, reward in rewards[index + 1:]:
            if other_agent == agent:
                break
            gain += reward
        rows, choice, _ = steps[agent][position[agent]]
        credited[agent].append((rows, choice, gain))
        position[agent] += 1
    summary = env.episode_summary()
    return PairEpisode(float(summary["return"]), bool(summary["success"]), credited, conversation, meanings)


def train_pair(env: Any, solver: LinearSolverPolicy, expert: LinearExpertPolicy, seeds: Iterable[int],
               on_episode: Callable[[int, PairEpisode], None] | None = None,
               mistake_warmup: int = MISTAKE_WARMUP) -> list[float]:
    """REINFORCE for both policies on the shared reward; returns each episode's return.

    - Credit: each role's rewards-to-go, discounted by its policy's `discount` (see
      `make_pair`), minus a running mean: per turn for the solver, per meaning (the advice
      the expert is conveying) for the expert. Late turns happen mostly in episodes that
      went wrong, so a per-turn mean paid whatever symbol was said late.
    - The mistake penalty is phased in over the pair's first `mistake_warmup` episodes
      (counted by ``solver.updates``, so training in several calls continues the schedule):
      in the rewards the policies learn from, a strike costs a share
      ``min(1, episodes / mistake_warmup)`` of the environment's penalty. While no symbol
      means anything, an action is a guess that mostly earns a strike, and describing until
      the turns run out earns none (return 0): under the full penalty from the start, the
      solver learns to stop acting before a code can form. With the penalty phased in,
      guesses are worth making while the code forms, and the penalty teaches care once it
      has. The environment's rewards and the returns reported are left as they are.
    """
    returns = []
    for n, seed in enumerate(seeds):
        weight = min(1.0, solver.updates / mistake_warmup) if mistake_warmup > 0 else 1.0
        episode = play_pair(env, solver, expert, seed, mistake_weight=weight)
        solver.reinforce(solver.advantages(episode.steps[SOLVER]))
        expert.reinforce(expert.advantages(episode.steps[EXPERT], keys=episode.meanings))
        returns.append(episode.total)
        if on_episode is not None:
            on_episode(n, episode)
    return returns


def evaluate_pair(env: Any, solver: LinearSolverPolicy, expert: LinearExpertPolicy, seeds: Iterable[int],
                  greedy: bool = True) -> float:
    """Success rate over `seeds`."""
    return float(np.mean([play_pair(env, solver, expert, seed, greedy=greedy).success for seed in seeds]))


def protocol(env: Any, solver: LinearSolverPolicy, expert: LinearExpertPolicy,
             seeds: Iterable[int]) -> dict[str, Counter]:
    """The code the pair settled on, read from greedy episodes: for each meaning (advised
    action) the symbols the expert said, and for each symbol the actions the solver typed
    right after it."""
    said: dict[str, Counter] = {}
    for seed in seeds:
        episode = play_pair(env, solver, expert, seed, greedy=True)
        expert_turns = iter(episode.meanings)
        for index, (agent, message) in enumerate(episode.conversation):
            if agent != EXPERT:
                continue
            meaning = next(expert_turns)
            reply = episode.conversation[index + 1][1] if index + 1 < len(episode.conversation) else "(end)"
            reply = "(describes)" if reply.startswith(DESCRIPTION_HEADER) else reply
            said.setdefault(meaning, Counter())[f"{message} -> {reply}"] += 1
    return said
