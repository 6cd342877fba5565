"""``python -m comma_env.rollout [overrides]``: run episodes and write the paper's tables
(the pipeline is `comma_env.run`)."""

from __future__ import annotations

from typing import Any

__all__ = ["main", "run"]


def main() -> None:
    """The command line (`comma_env.run.cli.main`): ``--help`` and configuration errors
    answer before Hydra and the run's modules are imported."""
    from comma_env.run.cli import main as cli_main

    cli_main()


def run(cfg: Any, quiet: bool = False) -> dict[str, Any]:
    """Run a rollout from a config (`comma_env.run.rollout.run`), loading the pipeline on first use."""
    from comma_env.run import rollout

    return rollout.run(cfg, quiet=quiet)


if __name__ == "__main__":
    # an importable module's `main`: Hydra's launchers pickle the task function, and cloudpickle
    # copies a __main__ function by value with everything it reaches
    from comma_env.run.cli import main as cli_main

    cli_main()
