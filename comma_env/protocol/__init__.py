"""The turn protocol every puzzle shares: the AEC environment (`core`), the puzzle base
class (`puzzle`), spaces, cleaning agent text and finding its action lines (`text`), prompts
and the quoting of agent text (`prompts`), metrics, rewards, the simulated clock, and the
files that ship with the package (`resources`), and the order-enforcing wrapper ``env()``
returns (`order`)."""
