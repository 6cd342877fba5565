"""``python -m comma_env.rollout [overrides]``: run episodes and write the paper's tables.

The command's name is part of the contract; the pipeline lives in `comma_env.run`
(`comma_env.run.rollout` holds `run`, `plan` and the Hydra entry point)."""

from __future__ import annotations

from typing import Any

__all__ = ["main", "run"]


def __getattr__(name: str) -> Any:
    """`main` and `run` load the pipeline when first used, so ``--help`` and configuration
    errors answer before Hydra and the run's modules are imported (`comma_env.run.cli`)."""
    if name in __all__:
        from comma_env.run import rollout

        return getattr(rollout, name)
    raise AttributeError(f"module 'comma_env.rollout' has no attribute {name!r}")


if __name__ == "__main__":
    # Run an importable module's `main`, not a `__main__` copy's: Hydra's launchers
    # (joblib, submitit, Ray) pickle the task function, and cloudpickle copies a __main__
    # function by value with everything it reaches, but an importable module's by reference.
    from comma_env.run.cli import main as cli_main

    cli_main()
