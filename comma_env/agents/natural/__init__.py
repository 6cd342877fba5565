"""The plain English of the scripted partners (`comma_env.agents.oracle`, style "natural"): a phrasebook
per puzzle (`phrasebooks`), the belief that never guesses (`belief`) and the shared readers."""
