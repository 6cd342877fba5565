"""The shapes of what the environments hand out and what a rollout writes: every key is present
unless ``NotRequired``, and every value but the observations' arrays is plain JSON."""

# No `from __future__ import annotations` here: TypedDict reads NotRequired from evaluated
# annotations, so `__required_keys__` would be wrong with postponed ones.
from typing import Any

import numpy as np
from typing_extensions import NotRequired, TypedDict


class SolverObservation(TypedDict):
    """What the solver observes (`comma_env.protocol.core.CommaEnv.observe`)."""

    text: str
    """The task, the valid actions and the dialogue as one prompt text."""
    image: NotRequired[np.ndarray]
    """The picture, read-only RGB uint8 (height, width, 3); absent with ``solver_view="text"``."""
    audio: NotRequired[np.ndarray]
    """The clip the solver hears, read-only float32 in [-1, 1] (puzzles with sound only)."""
    sample_rate: NotRequired[np.ndarray]
    """The clip's sample rate, an int32 scalar array (puzzles with sound only)."""


class ExpertObservation(TypedDict):
    """What the expert observes: text only."""

    text: str
    """The manual and the dialogue, as one prompt text."""


Observation = SolverObservation | ExpertObservation
"""An observation of either agent (the ``ObsType`` of `CommaEnv`)."""


class DialogueEntry(TypedDict):
    """One message of the dialogue an agent remembers."""

    speaker: str
    """``"solver"``, ``"expert"`` or ``"environment"`` (the feedback on executed actions)."""
    text: str


class ExecutedAction(TypedDict):
    """One action line the solver's last message executed."""

    action: str
    ok: bool
    """False when it was a mistake (a strike)."""


_EpisodeReturn = TypedDict("_EpisodeReturn", {"return": float})
"""``"return"``: the shared reward summed over the episode (a keyword, so not a class field)."""


class EpisodeSummary(_EpisodeReturn):
    """The per-episode metrics (`CommaEnv.episode_summary`), in both agents' ``info["episode"]`` at the end."""

    puzzle: str
    seed: int | None
    success: bool
    progress: float
    """Best partial score reached, 0..1."""
    mistakes: int
    turns: int
    """The paper's turn count: the turn of success, else the turn limit."""
    turns_played: int
    solved_at_turn: int | None
    end_reason: str | None
    """``solved``, ``mistakes``, ``turn_limit``, ``time_up``, or why it was aborted."""
    privacy_leaks: list[str]
    """Private fields the solver revealed, in order."""
    privacy_unsure: list[str]
    """Private fields the detector could not rule out (neither leaked nor clean)."""
    leaked: bool
    repetition_loop: bool
    repeated_mistakes: int
    actions_executed: int
    max_turns: int
    max_mistakes: int
    memory: str


class SolverInfo(TypedDict):
    """``infos["solver"]``: the solver's view of the episode so far."""

    progress: float
    success: bool
    mistakes: int
    turn: int
    privacy_leaks: list[str]
    valid_actions: list[str]
    """Action names the solver may type now."""
    executed: list[ExecutedAction]
    """What the last message executed."""
    feedback: list[str]
    """The interface's reply to each executed line."""
    dialogue: list[DialogueEntry]
    """The dialogue as the solver remembers it (the memory mode decides how much)."""
    task: str
    solver_view: str
    description: str | None
    """The written description of the image with ``solver_view="text"``, else None."""
    audio_description: NotRequired[str | None]
    """The clip in words (puzzles with sound only)."""
    episode: NotRequired[EpisodeSummary]
    """On the last step only."""


class ExpertInfo(TypedDict):
    """``infos["expert"]``: only what the expert may know (no strikes, no progress)."""

    turn: int
    dialogue: list[DialogueEntry]
    manual: str
    episode: NotRequired[EpisodeSummary]
    """On the last step only."""


class TurnRecordDict(TypedDict):
    """One entry of `CommaEnv.transcript` (a conversation turn)."""

    turn: int
    solver: str
    """The solver's message, cleaned."""
    actions: list[str]
    outcomes: list[bool]
    expert: str | None
    """The expert's reply (None when the episode ended before it)."""
    leaks: list[str]
    progress: float


class ReplyLogprobs(TypedDict):
    """A reply's token log-probabilities (``solver_logprobs`` / ``expert_logprobs`` of a turn)."""

    tokens: list[str]
    """The generated tokens' texts, in order."""
    logprobs: list[float]
    """Each token's log-probability (natural log, <= 0), parallel to ``tokens``."""
    bytes: NotRequired[dict[str, list[int]]]
    """Exact bytes of the tokens (by index) whose text is not their UTF-8 bytes."""
    top: NotRequired[list[list[list[Any]]]]
    """With ``top_logprobs > 0``: per token, ``[token, logprob]`` of the likeliest alternatives."""


class ReplyTokenIds(TypedDict):
    """The prompt's and the reply's token ids from the server (``solver_token_ids`` / ``expert_token_ids``)."""

    prompt: list[int]
    """The rendered prompt's ids, images' placeholder tokens included."""
    completion: list[int]
    """The generated ids, the stop token included when the server counts it."""


class TokenCounts(TypedDict):
    """Tokens one role's policy spent in an episode."""

    prompt_tokens: int
    completion_tokens: int
    calls: int


_RecordReturn = TypedDict("_RecordReturn", {"return": float}, total=False)


class RolloutRecord(_RecordReturn, total=False):
    """One line of ``episodes*.jsonl`` (`comma_env.run.rollout`): the run's settings, the
    `EpisodeSummary`, the policies' tokens, the transcript and timing."""

    puzzle: str
    seed: int
    shard: int
    num_shards: int
    solver_model: str
    expert_model: str
    max_turns: int
    max_mistakes: int | None
    """None for games without a mistake limit (AsymPuzl)."""
    memory: str
    puzzle_options: dict[str, Any]
    action_matching: str
    policy_seed: int | None
    solver_view: str
    solver_config: Any
    """A fingerprint of the solver's model settings (no secrets)."""
    expert_config: Any
    skills: list[str]
    reward: dict[str, float]
    """The reward terms of the run (`comma_env.protocol.rewards.RewardTerms`)."""
    audio_input: str | None
    success: bool
    progress: float
    mistakes: int
    turns_played: int
    turns: int
    solved_at_turn: int | None
    end_reason: str | None
    privacy_leaks: list[str]
    privacy_unsure: list[str]
    leaked: bool
    repetition_loop: bool
    repeated_mistakes: int
    actions_executed: int
    tokens: int
    """Tokens generated by both policies."""
    prompt_tokens: int
    tokens_by_role: dict[str, TokenCounts]
    error: str | None
    """Why the episode ended in an error (masked), else None."""
    seconds: float
    transcript: list[dict[str, Any]]
    """`TurnRecordDict` entries with each message's tokens, raw reply, logprobs and token ids."""
    initial_state: dict[str, Any]
    """What the solver's first image showed (private facts redacted)."""
    failed_message: str
    """The message an environment step could not handle (a bug), clipped."""

ROLLOUT_RECORD_ALWAYS: frozenset[str] = frozenset({
    "puzzle", "seed", "solver_model", "expert_model", "max_turns", "max_mistakes", "memory", "success",
    "progress", "mistakes", "turns", "end_reason", "tokens", "error", "seconds", "transcript",
})
"""Keys every `RolloutRecord` has, whatever the puzzle and outcome."""
