"""comma_env.protocol: the turn protocol, the game protocol, prompts, texts, spaces, metrics."""
