"""Natural-language wording for the scripted oracle (`comma_env.agents.oracle`, style "natural"):
prose descriptions (`prose`), per-puzzle directions and their understanding
(`phrasebooks`), and the small shared vocabulary (`words`)."""
