"""The leaderboard (comma_env.leaderboard): untrusted submissions, every episode replayed, ranks, the site."""
