"""Puzzle rules: one module per puzzle, each a `comma_env.protocol.puzzle.Puzzle` subclass."""
