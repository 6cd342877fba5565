"""The turn protocol every puzzle shares: the AEC environment (`core`), the puzzle base
class (`puzzle`), spaces, quoting of agent text (`text`), prompts, metrics, rewards, the
simulated clock, and the files that ship with the package (`resources`)."""
