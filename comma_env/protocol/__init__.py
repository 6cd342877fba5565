"""The turn protocol every puzzle shares: the AEC environment (`core`), the puzzle interface,
spaces, text and prompts, metrics, rewards, the simulated clock and the shipped files."""
