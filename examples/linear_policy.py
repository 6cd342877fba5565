"""A small numpy solver policy trained with REINFORCE through `SingleRoleEnv`.

It exists to show (and test) that the single-role environment carries a learning signal: a
policy that knows nothing about the puzzles learns, from reward alone, to describe what it
sees first and then to act on the natural-language expert's answer.

Each turn the policy chooses one message among candidates: the templated *description*
(``I see:`` plus the written description of its view, ``solver_view="text"``) or one valid
action line. Scores are linear in hashed sparse features of (expert's last message,
candidate): pairs of message words with the candidate's attributes (the words of its action
name, its index counted from either end, and what the description says about it: the
colour of wire 3, the label of the top-left button), plus "the message quotes or names this
candidate's attribute" and whether the expert has spoken yet. Nothing maps "third" to 3 or
"upper" to "top" in advance: those weights are learnt.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from comma_env.protocol.text import DESCRIPTION_HEADER, parse_description

DESCRIBE = "<describe>"
_WORD = re.compile(r"[a-z0-9']+|\"[^\"]*\"")
STOPWORDS = frozenset(
    "a an the to for of is it its that this what you your me i my we and or then now just so be "
    "with after see let know how goes okay according manual thanks helps got tell please from "
    "in on at by want go".split()
)
"""Function words left out of the message features (they carry no reference)."""


def _hash(text: str, dims: int) -> int:
    return zlib.crc32(text.encode("utf-8")) % dims


def last_expert_message(info: dict[str, Any]) -> str:
    for entry in reversed(info.get("dialogue") or []):
        if entry["speaker"] == "expert":
            return entry["text"]
        if entry["speaker"] == "solver":
            return ""
    return ""


def message_words(message: str) -> list[str]:
    words = []
    for token in _WORD.findall(message.lower()):
        if token.startswith('"'):
            words.append("q:" + token.strip('"'))
        elif token not in STOPWORDS:
            words.append(token)
    return words


def candidate_attributes(action: str, actions: list[str], seen: dict[str, Any]) -> list[str]:
    """What the solver can say about one action: its name's words, its index from both ends,
    and the values the description gives for it (list element by index, dict value by key)."""
    parts = action.split("_")
    attributes = ["w:" + p for p in parts]
    index = actions.index(action)
    attributes += [f"i:{index + 1}", f"e:{len(actions) - index}"]
    number = int(parts[-1]) if parts[-1].isdigit() else None
    key = "_".join(parts[1:])
    for value in seen.values():
        if isinstance(value, list) and number is not None and 1 <= number <= len(value):
            if not isinstance(value[number - 1], (list, dict)):
                attributes.append("v:" + str(value[number - 1]).lower())
        elif isinstance(value, dict) and key in value and not isinstance(value[key], (list, dict)):
            attributes.append("v:" + str(value[key]).lower())
    return attributes


@dataclass
class LinearSoftmaxPolicy:
    """Softmax over candidate messages with linear scores on hashed features, trained with
    REINFORCE (AdaGrad steps, entropy bonus). Subclasses say what the candidates are and
    which features each has (`candidates`, `features`, `message`)."""

    dims: int = 2**16
    learning_rate: float = 0.1
    entropy_bonus: float = 0.02
    seed: int = 0
    discount: float = 1.0
    """How much a reward still counts, per later message of this policy, for the messages
    before it: 1 credits each message with the sum of all rewards from it to the end (the
    reward-to-go), 0 with its own reward only."""
    weights: np.ndarray = field(init=False)
    squared: np.ndarray = field(init=False)
    baselines: dict[Hashable, float] = field(init=False)
    rng: np.random.Generator = field(init=False)
    updates: int = field(default=0, init=False)
    """How many times `reinforce` has run (one episode each in the trainers here)."""

    def __post_init__(self) -> None:
        self.weights = np.zeros(self.dims)
        self.squared = np.zeros(self.dims)  # AdaGrad: frequent, uninformative pairs learn slower
        self.baselines: dict[Hashable, float] = {}  # running mean credited reward per turn (or per key)
        self.rng = np.random.default_rng(self.seed)

    def candidates(self, info: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def features(self, info: dict[str, Any]) -> list[np.ndarray]:
        """One array of hashed feature indices per candidate."""
        raise NotImplementedError

    @staticmethod
    def message(candidate: str, info: dict[str, Any]) -> str:
        return candidate

    # -- acting -------------------------------------------------------------------------------
    def probabilities(self, rows: list[np.ndarray]) -> np.ndarray:
        scores = np.array([self.weights[row].sum() for row in rows])
        scores -= scores.max()
        exp = np.exp(scores)
        return exp / exp.sum()

    def greedy_choice(self, probs: np.ndarray) -> int:
        """The candidate a greedy policy picks: the most probable."""
        return int(np.argmax(probs))

    def act(self, info: dict[str, Any], greedy: bool = False) -> tuple[str, list[np.ndarray], int]:
        rows = self.features(info)
        probs = self.probabilities(rows)
        choice = self.greedy_choice(probs) if greedy else int(self.rng.choice(len(rows), p=probs))
        return self.message(self.candidates(info)[choice], info), rows, choice

    # -- learning -------------------------------------------------------------------------------
    def gradient(self, rows: list[np.ndarray], choice: int, advantage: float) -> tuple[np.ndarray, np.ndarray]:
        """The ascent direction of one step, as (feature indices, values) with repeats: the
        advantage times grad log pi(choice) = phi(choice) - E_pi[phi], plus the entropy bonus
        times grad H."""
        coefficients = self._softmax_coefficients(self.probabilities(rows), choice, advantage)
        return np.concatenate(rows), np.repeat(coefficients, [len(row) for row in rows])

    def _softmax_coefficients(self, probs: np.ndarray, choice: int | None, advantage: float) -> np.ndarray:
        """Per candidate, the ascent coefficient of its score in a softmax: advantage *
        d log pi(choice) (nothing when `choice` is None: no candidate of it was taken) plus the
        entropy bonus times dH (keeps exploring)."""
        log_probs = np.log(np.maximum(probs, 1e-12))
        entropy = -float((probs * log_probs).sum())
        coefficients = -self.entropy_bonus * probs * (log_probs + entropy)
        if choice is not None:
            coefficients -= advantage * probs
            coefficients[choice] += advantage
        return coefficients

    def reinforce(self, steps: Iterable[tuple[list[np.ndarray], int, float]]) -> None:
        """One REINFORCE update: `gradient` of each step, weighted by its advantage (the third
        element), applied with AdaGrad."""
        for rows, choice, advantage in steps:
            indices, values = self.gradient(rows, choice, advantage)
            if not len(indices):
                continue
            # the gradient is 0 outside the features these candidates have: update only those
            # (the same sums, in the same order, as a dense gradient; a fraction of the time)
            touched, where = np.unique(indices, return_inverse=True)
            gradient = np.zeros(len(touched))
            np.add.at(gradient, where, values)
            self.squared[touched] += gradient**2
            self.weights[touched] += self.learning_rate * gradient / (np.sqrt(self.squared[touched]) + 1e-8)
        self.updates += 1

    def advantages(self, steps: list[Step], keys: Sequence[Hashable] | None = None) -> list[Step]:
        """(rows, choice, reward) of one episode's turns -> (rows, choice, credited reward minus
        a running mean); the means are updated.

        The credited reward is the reward-to-go, discounted by `discount` per later step. The
        running mean is kept per turn, or per entry of `keys` (one per step) when given: a
        baseline for what the policy read at that step rather than for when it spoke."""
        rewards = [reward for _, _, reward in steps]
        if self.discount == 1.0:
            to_go = np.cumsum(rewards[::-1])[::-1]
        else:
            to_go = np.zeros(len(rewards))
            running = 0.0
            for index in range(len(rewards) - 1, -1, -1):
                running = rewards[index] + self.discount * running
                to_go[index] = running
        keys = list(range(len(steps))) if keys is None else list(keys)
        updates = []
        for (rows, choice, _), value, key in zip(steps, to_go, keys, strict=True):
            baseline = self.baselines.get(key, 0.0)
            updates.append((rows, choice, float(value) - baseline))
            self.baselines[key] = baseline + 0.05 * (float(value) - baseline)
        return updates


def said_last(info: dict[str, Any]) -> str:
    """What the solver's own latest message was: ``"nothing"`` (it has not spoken yet),
    ``"described"`` or ``"acted"``. Read from its dialogue, which holds its own messages."""
    for entry in reversed(info.get("dialogue") or []):
        if entry["speaker"] == "solver":
            return "described" if entry["text"].startswith(DESCRIPTION_HEADER) else "acted"
    return "nothing"


def _sigmoid(margin: float) -> float:
    return float(0.5 * (1.0 + np.tanh(0.5 * margin)))  # 1 / (1 + e^-margin), without overflow


@dataclass
class LinearSolverPolicy(LinearSoftmaxPolicy):
    """The solver: describe what it sees, or type one valid action."""

    describe_reads_words: bool = True
    """Whether describing is scored by the message's words too (the scripted expert asks for
    a description in words); False scores it only by whether the expert has spoken."""

    two_stage: bool = False
    """Choose in two stages instead of one softmax over all candidates: first whether to
    describe or to act (a logistic *gate* on the describe score against one act score), then
    which action (a softmax over the actions' scores, trained only by the actions taken).
    The gate reads what the solver itself said last (nothing yet, a description, an action)
    instead of whether the expert has spoken. A greedy two-stage solver describes when the
    gate gives describing more than one half, otherwise types its best action. The entropy
    bonus applies to each stage."""

    # -- features ---------------------------------------------------------------------------
    def candidates(self, info: dict[str, Any]) -> list[str]:
        return [DESCRIBE, *info.get("valid_actions", [])]

    def features(self, info: dict[str, Any]) -> list[np.ndarray]:
        """One array of hashed feature indices per candidate. Every action's row starts with
        the same act feature (the two-stage gate's act score)."""
        message = last_expert_message(info)
        words = message_words(message)
        context = said_last(info) if self.two_stage else ("spoke" if message else "silent")
        actions = list(info.get("valid_actions", []))
        seen = parse_description(info.get("description") or "")
        rows = []
        for candidate in [DESCRIBE, *actions]:
            if candidate == DESCRIBE:
                keys = [f"D|{context}"] + ([f"D|{w}" for w in words] if self.describe_reads_words else [])
            else:
                attributes = candidate_attributes(candidate, actions, seen)
                keys = [f"A|{context}"]
                keys += [f"{w}|{a}" for w in words for a in attributes]
                # the message says one of the candidate's attributes (its number, colour, label,
                # position word): one weight per attribute family, so it is learnt fast
                plain = {w[2:] if w.startswith("q:") else w for w in words}
                keys += [f"match|{a[:2]}" for a in attributes if a[2:] in plain]
            rows.append(np.array([_hash(k, self.dims) for k in keys], dtype=np.int64))
        return rows

    @staticmethod
    def message(candidate: str, info: dict[str, Any]) -> str:
        if candidate == DESCRIBE:
            return f"{DESCRIPTION_HEADER}\n{info.get('description') or ''}"
        return candidate

    # -- the two-stage choice -----------------------------------------------------------------
    def _gate_margin(self, rows: list[np.ndarray]) -> float:
        """Describe score minus act score (the act feature heads every action's row)."""
        return float(self.weights[rows[0]].sum() - self.weights[rows[1][0]])

    def probabilities(self, rows: list[np.ndarray]) -> np.ndarray:
        if not self.two_stage:
            return super().probabilities(rows)
        if len(rows) == 1:
            return np.ones(1)
        describe = _sigmoid(self._gate_margin(rows))
        return np.concatenate([[describe], (1.0 - describe) * super().probabilities(rows[1:])])

    def greedy_choice(self, probs: np.ndarray) -> int:
        if not self.two_stage or len(probs) == 1:
            return super().greedy_choice(probs)
        return 0 if probs[0] > 0.5 else 1 + int(np.argmax(probs[1:]))

    def gradient(self, rows: list[np.ndarray], choice: int, advantage: float) -> tuple[np.ndarray, np.ndarray]:
        if not self.two_stage:
            return super().gradient(rows, choice, advantage)
        if len(rows) == 1:  # nothing to choose
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        margin = self._gate_margin(rows)
        describe = _sigmoid(margin)
        # the gate: d log p(choice) / d margin is 1 - p (described) or -p (acted); the gate's
        # entropy has d H / d margin = -margin p (1 - p)
        gate = advantage * ((1.0 - describe) if choice == 0 else -describe)
        gate -= self.entropy_bonus * describe * (1.0 - describe) * margin
        # the action: its softmax learns from the actions taken; the entropy bonus always applies
        coefficients = self._softmax_coefficients(super().probabilities(rows[1:]), choice - 1 if choice > 0 else None,
                                                  advantage)
        indices = np.concatenate([rows[0], rows[1][:1], *rows[1:]])
        values = np.concatenate([np.full(len(rows[0]), gate), [-gate],
                                 np.repeat(coefficients, [len(row) for row in rows[1:]])])
        return indices, values


Step = tuple[list[np.ndarray], int, float]
"""Features of every candidate, the chosen index, and the reward that followed."""


def run_episode(env: Any, policy: LinearSolverPolicy, seed: int,
                greedy: bool = False) -> tuple[float, bool, list[Step]]:
    """Play one episode of a solver-role `SingleRoleEnv`; returns (return, success, steps)."""
    _, info = env.reset(seed=seed)
    steps: list[Step] = []
    total = 0.0
    while True:
        message, rows, choice = policy.act(info, greedy=greedy)
        _, reward, terminated, truncated, info = env.step(message)
        steps.append((rows, choice, float(reward)))
        total += reward
        if terminated or truncated:
            return total, bool(info["episode"]["success"]), steps


def evaluate(env: Any, policy: LinearSolverPolicy, seeds: Iterable[int], greedy: bool = True) -> float:
    """Success rate over `seeds`."""
    results = [run_episode(env, policy, seed, greedy=greedy)[1] for seed in seeds]
    return float(np.mean(results))


def train(env: Any, policy: LinearSolverPolicy, seeds: Iterable[int], on_episode: Any = None) -> list[float]:
    """REINFORCE on rewards-to-go with a running-mean baseline per turn; returns each
    episode's return."""
    returns: list[float] = []
    for n, seed in enumerate(seeds):
        total, success, steps = run_episode(env, policy, seed)
        policy.reinforce(policy.advantages(steps))
        returns.append(total)
        if on_episode is not None:
            on_episode(n, seed, total, success)
    return returns
