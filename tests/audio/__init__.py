"""The sound clips (comma_env.audio)."""
