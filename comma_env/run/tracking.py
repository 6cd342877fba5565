"""A rollout's results sent to an experiment tracker when asked (``logger=trackio|wandb``): the
metrics as one logged step and the results table as a table (trackio and W&B are imported only here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

COLUMNS = ("puzzle", "n", "sr", "psr", "mistakes", "turns", "tokens", "efficiency", "errors")


def table(results: dict[str, Any]) -> list[list[Any]]:
    """The results table: one row per puzzle, then the overall row (`COLUMNS`)."""
    rows = [*(results.get("puzzles") or {}).items(), ("overall", results["overall"])]
    return [[name, *(stats.get(column) for column in COLUMNS[1:])] for name, stats in rows]


def metrics(results: dict[str, Any]) -> dict[str, float]:
    """``<puzzle or overall>/<metric>`` for every number of the table."""
    return {f"{row[0]}/{column}": float(value) for row in table(results)
            for column, value in zip(COLUMNS[1:], row[1:], strict=True) if isinstance(value, (int, float))}


def log_results(logger: str, project: str, results: dict[str, Any], out_dir: Path) -> None:
    """Log the metrics and the table of `results` to `logger` as one run named after `out_dir`."""
    if logger == "none":  # `comma_env.run.plan` allows only none, trackio and wandb
        return
    config = {k: v for k, v in results.get("meta", {}).items() if k != "provenance"}
    data = table(results)
    if logger == "trackio":
        import trackio

        trackio.init(project=project, name=out_dir.name, config=config)
        trackio.log({**metrics(results), "results": trackio.Table(columns=list(COLUMNS), data=data)})
        trackio.finish()
    else:
        import wandb

        run = wandb.init(project=project, name=out_dir.name, dir=str(out_dir), config=config)
        run.log({**metrics(results), "results": wandb.Table(columns=list(COLUMNS), data=data)})
        run.finish()
