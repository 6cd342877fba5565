"""The policies: scripted, LLM over HTTP, human, judges (comma_env.agents)."""
