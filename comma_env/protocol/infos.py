"""The infos `CommaEnv` hands each agent after every step, and the episode summary at the end."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from comma_env.protocol import views
from comma_env.protocol.contracts import (
    DialogueEntry,
    EpisodeSummary,
    ExecutedAction,
    ExpertInfo,
    SolverInfo,
    TurnRecordDict,
)
from comma_env.protocol.puzzle import Puzzle

if TYPE_CHECKING:
    from comma_env.privacy import ConversationLeaks

SOLVER = "solver"
EXPERT = "expert"


class EpisodeInfos:
    """`CommaEnv`'s infos and summary, written from the episode state the environment keeps."""

    puzzle_cls: ClassVar[type[Puzzle]]
    agents: list[str]
    infos: dict[str, dict[str, Any]]
    seed_used: int | None
    turn: int
    mistakes: int
    best_progress: float
    solved_at_turn: int | None
    leaked: list[str]
    episode_return: float
    end_reason: str | None
    max_turns: int
    max_mistakes: int
    memory: str
    solver_view: str
    manual: str
    _turns: list[TurnRecordDict]
    _solver_dialogue: list[DialogueEntry]
    _expert_dialogue: list[DialogueEntry]
    _last_actions: list[ExecutedAction]
    _last_feedback: list[str]
    _mistake_pairs: dict[tuple[str, str], int]
    _leaks: ConversationLeaks

    def _puzzle(self) -> Puzzle:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def _refresh_infos(self) -> None:
        puzzle = self._puzzle()
        solver_info = SolverInfo(
            progress=float(self.best_progress),
            success=bool(puzzle.solved),
            mistakes=int(self.mistakes),
            turn=int(self.turn),
            privacy_leaks=list(self.leaked),
            valid_actions=list(puzzle.valid_actions()),
            executed=list(self._last_actions),
            feedback=list(self._last_feedback),
            dialogue=views.dialogue_window(self._solver_dialogue, SOLVER, self.memory),
            task=self.puzzle_cls.task_prompt,
            solver_view=self.solver_view,
            description=self.describe() if self.solver_view == "text" else None,
        )
        if self.puzzle_cls.audio_samples:
            solver_info["audio_description"] = puzzle.audio_description()
        # the expert's info holds only what the expert may know (no strikes, no wrong PIN)
        expert_dialogue = views.dialogue_window(self._expert_dialogue, EXPERT, self.memory)
        expert_info = ExpertInfo(turn=int(self.turn), dialogue=expert_dialogue, manual=self.manual)
        done = self.end_reason is not None
        if done:
            summary = self.episode_summary()
            solver_info["episode"] = summary
            expert_info["episode"] = summary.copy()
        # AECEnv types infos as plain dicts; the contracts say which keys they hold
        infos = {SOLVER: cast("dict[str, Any]", solver_info), EXPERT: cast("dict[str, Any]", expert_info)}
        self.infos = {agent: infos[agent] for agent in self.agents}

    @property
    def leak_unsure(self) -> list[str]:
        """Private fields the detector could not rule out (docs/privacy.md); never a leaked one."""
        return list(self._leaks.unsure)

    def episode_summary(self) -> EpisodeSummary:
        """The paper's per-episode metrics (section 4.2) that the environment knows (no tokens)."""
        puzzle = self._puzzle()
        repeated = sum(count - 1 for count in self._mistake_pairs.values() if count > 1)
        return {
            "puzzle": self.puzzle_cls.name,
            "seed": self.seed_used,
            "success": bool(puzzle.solved),
            "progress": float(self.best_progress),
            "mistakes": int(self.mistakes),
            "turns": int(self.solved_at_turn if self.solved_at_turn is not None else self.max_turns),
            "turns_played": int(self.turn),
            "solved_at_turn": self.solved_at_turn,
            "end_reason": self.end_reason,
            "privacy_leaks": list(self.leaked),
            "privacy_unsure": self.leak_unsure,
            "leaked": bool(self.leaked),
            "repetition_loop": repeated > 0,
            "repeated_mistakes": int(repeated),
            "actions_executed": sum(len(t["actions"]) for t in self._turns),
            "max_turns": self.max_turns,
            "max_mistakes": self.max_mistakes,
            "memory": self.memory,
            "return": float(self.episode_return),
        }
