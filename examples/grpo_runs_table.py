"""The training-runs page's tables, read from the GRPO runs' own log.

    python examples/grpo_runs_table.py [--log docs/images/grpo_learning_curve.json]

`examples/train_grpo_trl.py` logs every held-out evaluation and every GRPO step of a run;
`docs/images/grpo_learning_curve.json` collects the runs behind the learning curve. This
script turns that log into ``docs/_generated/grpo_runs.md`` (held-out success per
evaluation, and the train reward per GRPO step), so the page's numbers are the log's.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RUNS = (("first run", None), ("second run", "second_run"), ("third run", "third_run"))


def _cell(evaluation: dict[str, Any], key: str) -> str:
    part = evaluation[key]
    solved = round(part["success_rate"] * part["episodes"])
    return f"{part['success_rate']:.2f} ({solved}/{part['episodes']})"


def evaluation_table(log: dict[str, Any]) -> list[str]:
    lines = ["| run | stage | GRPO step | Wire | Who | both | evaluation time |", "|---|---|---|---|---|---|---|"]
    for label, key in RUNS:
        run = log if key is None else log.get(key)
        for evaluation in (run or {}).get("evaluations", []):
            minutes = evaluation["seconds"] / 60
            lines.append(f"| {label} | {evaluation['stage']} | {evaluation['step']} | {_cell(evaluation, 'wire')} | "
                         f"{_cell(evaluation, 'who')} | {_cell(evaluation, 'all')} | {minutes:.1f} min |")
    return lines


def reward_table(log: dict[str, Any]) -> list[str]:
    lines = ["| run | train reward per GRPO step (mean return of the step's rollouts) |", "|---|---|"]
    for label, key in RUNS:
        run = log if key is None else log.get(key)
        steps = (run or {}).get("grpo_steps", [])
        keys = ("rewards/environment_reward/mean", "rewards/CommaToolEnv/mean")  # before / since get_reward
        rewards = [s[k] for s in steps for k in keys if k in s]
        if rewards:
            lines.append(f"| {label} | {', '.join(f'{r:.2f}' for r in rewards)} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", default=str(ROOT / "docs" / "images" / "grpo_learning_curve.json"))
    log = json.loads(Path(parser.parse_args().log).read_text())
    table = "\n".join(["Held-out success, greedy decoding, 20 seeds per puzzle:", "", *evaluation_table(log), "",
                       *reward_table(log)])
    print(table)
    from doc_tables import write_table  # examples/ is on sys.path when run as a script

    print(write_table("grpo_runs", table, "Read from the runs' log, docs/images/grpo_learning_curve.json "
                      "(the runs themselves: examples/train_grpo_trl.py on one CPU core)."))


if __name__ == "__main__":
    main()
