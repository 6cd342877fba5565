"""Each puzzle's rules against its manual (comma_env.puzzles)."""
