"""``python -m comma_env.merge OUT_DIR [...]``: recompute the tables over a run's shard files
(or several runs). The implementation is `comma_env.run.merge`."""

from __future__ import annotations

import sys

from comma_env.run.merge import main, merge

__all__ = ["main", "merge"]

if __name__ == "__main__":
    sys.exit(main())
