"""A leaderboard that checks its entries: ``python -m comma_env.leaderboard SUBMISSION... --out SITE``.

Every submitted episode is replayed through the environment (the report's replay) and its
recomputed outcome compared with the record, so a submission cannot claim a score its
transcripts do not earn.

- `comma_env.leaderboard.submission`: reading a run folder as untrusted input (limits, no
  symlinks followed, every unusable line reported with its file and line).
- `comma_env.leaderboard.verify`: the replay of every episode and its differences from the record.
- `comma_env.leaderboard.protocol`: whether a submission ran under the paper's protocol.
- `comma_env.leaderboard.stats`: the paper's metrics, paired tests on shared episodes, shared ranks.
- `comma_env.leaderboard.board`: entries, ranks and comparisons.
- `comma_env.leaderboard.site`: the static site and ``leaderboard.json``.
- `comma_env.leaderboard.cli`: the command line.

The site needs Jinja2 (the ``web`` extra).
"""
