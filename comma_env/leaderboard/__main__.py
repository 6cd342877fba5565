"""``python -m comma_env.leaderboard``: see `comma_env.leaderboard.cli`."""

import sys

from comma_env.leaderboard.cli import main

if __name__ == "__main__":
    sys.exit(main())
