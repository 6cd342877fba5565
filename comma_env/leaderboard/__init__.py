"""A leaderboard that replays every submitted episode, so a submission cannot claim a score its
transcripts do not earn: ``python -m comma_env.leaderboard SUBMISSION... --out SITE``."""
