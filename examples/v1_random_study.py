"""What could explain the first COMMA paper's (v1, seed 003) Random row: our random solver
under ``protocol=v1`` (20 turns, no mistake limit) and variants of the random agent's
definition, of what its expert said (the clock), and of the rules, each beside v1's PSR,
mistakes and conversation length (v1 Table 1 and the appendix's mistakes/length tables).

v1 prints no standard errors. Its 100 episodes per puzzle would have had about our
per-episode spread, so its SE is estimated as our per-episode SD / sqrt(100); z is the gap
over the combined SE of both means.

    python examples/v1_random_study.py [--episodes 1000]   # writes docs/_generated/v1_*.md
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

import numpy as np
from doc_tables import write_table

import comma_env
from comma_env.agents.random_policy import RandomSolver
from comma_env.run.fidelity import PAPER_EPISODES, PAPER_V1_RANDOM
from comma_env.run.results import title

V1 = {"max_turns": 20, "max_mistakes": 21}
V1_PUZZLES = ("button", "dog", "wire", "who", "led", "memory", "keypad", "password", "color", "maze")
LETTERS = np.array(list("abcdefghijklmnopqrstuvwxyz     "))


class Remembering(RandomSolver):
    """A random solver that does not repeat an action that was a mistake until the puzzle's
    progress changes (a solver that reads the strike it just caused)."""

    def __init__(self, seed) -> None:
        super().__init__(seed)
        self.failed: set[str] = set()
        self.progress = -1.0

    def choose_in(self, info: dict, progress: float) -> str:
        if progress != self.progress:
            self.failed, self.progress = set(), progress
        actions = [a for a in info.get("valid_actions") or []
                   if a not in self.failed] or info.get("valid_actions") or []
        return str(actions[int(self.rng.integers(len(actions)))]) if actions else ""


def talker(low: int, high: int) -> Callable[[np.random.Generator], str]:
    """A random expert writing `low`-`high` characters of letters and spaces per message."""
    def say(rng: np.random.Generator) -> str:
        return "".join(LETTERS[rng.integers(len(LETTERS), size=int(rng.integers(low, high + 1)))])
    return say


def silent(rng: np.random.Generator) -> str:
    return ""


FINAL_PROGRESS: dict[str, Callable] = {
    "keypad": lambda puzzle: len(puzzle.lit) / 4,
    "memory": lambda puzzle: puzzle.stages_completed / 5,
    "color": lambda puzzle: puzzle.grid().count("white") / 16,
}
"""Progress as the puzzle stands when the episode ends, where a strike can undo it (ours
scores the best progress reached)."""


def play(puzzle: str, episodes: int, expert: Callable = silent, remembering: bool = False,
         puzzle_options: dict | None = None, final: bool = False, unreadable: float = 0.0) -> dict[str, np.ndarray]:
    """`unreadable`: the share of the solver's turns whose action is no valid action name
    (executed as prose: neither progress nor a mistake)."""
    env = comma_env.make(puzzle, puzzle_options=puzzle_options, **V1)
    rows = []
    for seed in range(episodes):
        env.reset(seed=seed)
        solver = Remembering([0, seed]) if remembering else RandomSolver([0, seed])
        speech = np.random.default_rng([1, seed])
        base = env.unwrapped
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
            elif agent == "solver":
                action = (solver.choose_in(info, base.best_progress) if isinstance(solver, Remembering)
                          else solver.choose(info))
                if unreadable and speech.random() < unreadable:
                    action = "press the button please"
                before = base.mistakes
                env.step(action)
                if isinstance(solver, Remembering) and base.mistakes > before:
                    solver.failed.add(action)
            else:
                env.step(expert(speech))
        summary = base.episode_summary()
        if final and not summary["success"]:
            summary["progress"] = FINAL_PROGRESS[puzzle](base.puzzle)
        rows.append((100 * summary["progress"], summary["mistakes"], summary["turns"]))
    data = np.array(rows, dtype=float)
    return {"psr": data[:, 0], "mistakes": data[:, 1], "turns": data[:, 2]}


def z(ours: np.ndarray, paper: float) -> float:
    """Gap to v1's mean in combined SE, v1's SE estimated from our spread at 100 episodes."""
    sd = float(ours.std())
    se = math.sqrt(sd**2 / len(ours) + sd**2 / PAPER_EPISODES)
    if se == 0:
        return 0.0 if abs(ours.mean() - paper) < 0.5 else math.inf
    return (ours.mean() - paper) / se


def cells(result: dict[str, np.ndarray], puzzle: str) -> list[str]:
    paper = PAPER_V1_RANDOM[puzzle]
    out = []
    for key, digits in (("psr", 1), ("mistakes", 2), ("turns", 2)):
        values = result[key]
        gap = z(values, paper[key])
        shown = "∞" if math.isinf(gap) else f"{gap:+.1f}"
        out.append(f"{values.mean():.{digits}f} ± {values.std() / math.sqrt(len(values)):.{digits}f} "
                   f"/ {paper[key]:g} ({shown})")
    return out


def fixed_talker(length: int) -> Callable[[np.random.Generator], str]:
    return talker(length, length)


CLOCK_LENGTHS = (0, 10, 20, 30, 40, 50, 60, 70, 80, 100, 150, 300)
"""Fixed lengths of the random expert's every message, in characters."""


def clock_table(n: int) -> None:
    """Button's and Dog's random PSR (and Dog's mistakes) against the expert's message length:
    a turn costs the solver's message (`submit`, `tap`... 2 s) plus the expert's (1 s + 1 s
    per started ten characters), and whether that sum cycles through the timer's last digit
    decides how often a random submit lands on the right one."""
    rows = []
    for length in CLOCK_LENGTHS:
        seconds = 1 + -(-length // 10)
        dog, button = play("dog", n, fixed_talker(length)), play("button", n, fixed_talker(length))
        rows.append([str(length), str(seconds),
                     f"{dog['psr'].mean():.1f} ± {dog['psr'].std() / math.sqrt(n):.1f}",
                     f"{dog['mistakes'].mean():.2f}",
                     f"{button['psr'].mean():.1f} ± {button['psr'].std() / math.sqrt(n):.1f}",
                     f"{button['mistakes'].mean():.2f}"])
        print(rows[-1], flush=True)
    head = ["expert message (characters)", "expert's seconds per turn", "Dog PSR", "Dog mistakes", "Button PSR",
            "Button mistakes"]
    print(write_table("v1_clock", table(head, rows), f"Random solver, a random expert writing messages of exactly "
                      f"this length, protocol=v1, seeds 0-{n - 1}; v1: PSR 100 and 100, mistakes 3.21 (Dog) and "
                      "4.17 (Button)."))


def table(head: list[str], rows: list[list[str]]) -> str:
    return "\n".join("| " + " | ".join(r) + " |" for r in [head, ["---"] * len(head), *rows])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--tables", nargs="+", default=["random", "variants", "clock"],
                        choices=["random", "variants", "clock"])
    args = parser.parse_args()
    n = args.episodes
    if "clock" in args.tables:
        clock_table(n)
    if args.tables == ["clock"]:
        return
    note = (f"Ours ± SE over seeds 0-{n - 1} / v1's value (z: gap in combined SE, v1's SE estimated "
            "from our spread at its 100 episodes).")
    head = ["puzzle", "PSR: ours / v1 (z)", "mistakes: ours / v1 (z)", "turns: ours / v1 (z)"]

    if "random" not in args.tables:
        return variants_table(n, note, head)
    rows = [[title(p), *cells(play(p, n), p)] for p in V1_PUZZLES]
    print(write_table("v1_random", table(head, rows), note + " Random solver (one uniformly chosen valid "
                      "action per turn), silent expert, protocol=v1."))

    if "variants" in args.tables:
        variants_table(n, note, head)


def variants_table(n: int, note: str, head: list[str]) -> None:
    variants: list[tuple[str, str, dict]] = [
        ("button", "expert says 50-400 characters", {"expert": talker(50, 400)}),
        ("button", "expert says 200-800 characters", {"expert": talker(200, 800)}),
        ("dog", "expert says 50-400 characters", {"expert": talker(50, 400)}),
        ("dog", "expert says 200-800 characters", {"expert": talker(200, 800)}),
        *[(p, "solver avoids repeating a mistake", {"remembering": True}) for p in V1_PUZZLES],
        *[(p, "a third of the solver's actions unreadable", {"unreadable": 1 / 3})
          for p in ("wire", "who", "led", "memory", "keypad", "color")],
        ("color", "strike keeps whites", {"puzzle_options": {"strike": "keep_whites"}}),
        *[(p, "progress read at the episode's end", {"final": True}) for p in FINAL_PROGRESS],
        ("color", "strike keeps whites, progress read at the end", {"final": True,
                                                                   "puzzle_options": {"strike": "keep_whites"}}),
    ]
    rows = [[title(p), label, *cells(play(p, n, **kw), p)] for p, label, kw in variants]
    print(write_table("v1_variants", table(["puzzle", "variant", *head[1:]], rows), note))


if __name__ == "__main__":
    main()
