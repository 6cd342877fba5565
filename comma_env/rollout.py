"""``python -m comma_env.rollout [overrides]``: run episodes and write the paper's tables.

The command's name is part of the contract; the pipeline lives in `comma_env.run`
(`comma_env.run.rollout` holds `run`, `plan` and the Hydra entry point)."""

from __future__ import annotations

from comma_env.run.rollout import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    # Run the importable module's `main`, not a `__main__` copy's: Hydra's launchers
    # (joblib, submitit, Ray) pickle the task function, and cloudpickle copies a __main__
    # function by value with everything it reaches, but an importable module's by reference.
    main()
