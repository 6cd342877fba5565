"""Natural-language wording for the scripted oracle (`agents.oracle`, style "natural"):
prose descriptions (`prose`), per-puzzle directions and their understanding
(`phrasebooks`), and the small shared vocabulary (`words`)."""
