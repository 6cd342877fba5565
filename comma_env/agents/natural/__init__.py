"""The plain English of the scripted partners (`comma_env.agents.oracle`, style "natural"): one
phrasebook per puzzle (`phrasebooks`), the belief that never guesses (`belief`), and the shared
readers of numbers, colours, labels, symbols, positions and moments they are built from."""
