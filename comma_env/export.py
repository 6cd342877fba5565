"""``python -m comma_env.export OUT_DIR --format sft|rl``: rollout episodes as chat-format
JSONL for training (the implementation is `comma_env.rl.export`)."""

from __future__ import annotations

import sys

from comma_env.rl.export import export, main

__all__ = ["export", "main"]

if __name__ == "__main__":
    sys.exit(main())
