"""AsymPuzl's metrics (paper section 3): completion rate C (the share of puzzles solved
within T turns) and turns to completion, from the rollout's episode records."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from comma_env.protocol.metrics import mean, standard_error

SETTING_KEYS = ("n", "distractors", "distractor_side", "feedback", "view", "max_turns", "memory",
                "success_check", "partner_feedback")


def completion_metrics(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Completion rate (%, ± SE), mean turns to completion of the solved episodes, the
    completion turn of each episode (None: not solved) and malformed updates per agent."""
    solved = [1.0 if r.get("success") else 0.0 for r in records]
    turns = [float(r["solved_at_turn"]) for r in records if r.get("success") and r.get("solved_at_turn")]
    malformed = {agent: mean([float((r.get("malformed_updates") or {}).get(agent, 0)) for r in records])
                 for agent in ("alice", "bob")}
    settings = sorted({tuple((k, r.get(k)) for k in SETTING_KEYS) for r in records}, key=str)
    return {
        "episodes": len(records),
        "completion_rate": 100.0 * mean(solved),
        "completion_rate_se": 100.0 * standard_error(solved),
        "turns_to_completion": mean(turns) if turns else None,
        "turns_to_completion_se": standard_error(turns) if turns else None,
        "completion_turns": [r.get("solved_at_turn") if r.get("success") else None for r in records],
        "malformed_updates": malformed,
        "settings": [dict(s) for s in settings],
    }


def render_markdown(metrics: Mapping[str, Any]) -> list[str]:
    """The AsymPuzl section of results.md."""
    turns = metrics["turns_to_completion"]
    settings = "; ".join(", ".join(f"{k}={v}" for k, v in s.items()) for s in metrics["settings"])
    return ["## AsymPuzl", "", f"Settings: {settings}", "",
            "| episodes | completion rate (%) | turns to completion (solved) "
            "| malformed updates per episode (alice / bob) |",
            "|---|---|---|---|",
            f"| {metrics['episodes']} | {metrics['completion_rate']:.1f} ± {metrics['completion_rate_se']:.1f} | "
            + (f"{turns:.2f} ± {metrics['turns_to_completion_se']:.2f}" if turns is not None else "-")
            + f" | {metrics['malformed_updates']['alice']:.2f} / {metrics['malformed_updates']['bob']:.2f} |", ""]
