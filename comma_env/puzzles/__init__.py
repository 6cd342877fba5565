"""Puzzle rules: one module per puzzle, each a `comma_env.puzzle.Puzzle` subclass."""
