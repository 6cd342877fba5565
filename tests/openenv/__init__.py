"""The OpenEnv server as a real process (comma_env.openenv)."""
