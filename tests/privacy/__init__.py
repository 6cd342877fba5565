"""The leak detector (comma_env.privacy)."""
