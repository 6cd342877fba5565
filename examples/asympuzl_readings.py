"""AsymPuzl under the paper's open readings: completion of baseline pairs for every feedback
mode x success check (end of turn / immediate) x partner feedback (previous / current).

Baselines (N = 5, T = 15, seeds 0..episodes-1):
- silent random: the rollout's random baseline (no update lines), 0 under every reading;
- guesser: in every message each agent sets every position its own feedback does not mark
  right (detailed modes: the listed wrong positions; Own/Both "correct": none; otherwise all)
  to a random piece it could hold (Bob: one of his pairs; Alice: her shape there with one of
  the puzzle's colours, as if Bob had listed them). It reads feedback only
  about itself, so partner feedback cannot move it, while the success check can;
- noisy guesser: the guesser, plus, in one message out of five, a line that redraws one
  uniformly chosen position (right or not): a pair that can undo a right hypothesis, which is where
  the success check matters;
- one_piece: the scripted piecemeal pair (`comma_env.agents.asympuzl`), feedback-blind.

    python examples/asympuzl_readings.py [--episodes 1000]   # writes docs/_generated/asympuzl_readings.md
"""

from __future__ import annotations

import argparse
import asyncio
import re

import numpy as np
from doc_tables import write_table

from comma_env.asympuzl.env import env as make_env
from comma_env.asympuzl.rules import FEEDBACK_MODES
from comma_env.protocol.metrics import mean, standard_error

_WRONG = re.compile(r"^Your hypothesis is not correct; wrong positions: ([\d, ]+)\.")


def open_positions(feedback: str, n: int) -> list[int]:
    """Positions the agent's own feedback leaves open (1-based)."""
    if feedback.startswith("Your hypothesis is correct."):
        return []
    match = _WRONG.match(feedback)
    return [int(p) for p in match.group(1).split(",")] if match else list(range(1, n + 1))


def guess(env, agent: str, rng: np.random.Generator, noisy: bool = False) -> str:
    base = env.unwrapped
    lines = []
    positions = open_positions(base.infos[agent]["feedback"], base.n)
    if noisy and rng.random() < 0.2:
        positions.append(int(rng.integers(base.n)) + 1)
    for position in positions:
        if agent == "bob":
            shape, colour = base.instance.bob_clues[int(rng.integers(len(base.instance.bob_clues)))]
        else:
            shape = base.instance.alice_clues[position - 1]
            colours = [c for _, c in base.instance.solution]
            colour = colours[int(rng.integers(len(colours)))]
        lines.append(f"set {position} {shape} {colour}")
    return "\n".join(lines) or "keeping my hypothesis"


def play(options: dict, seed: int, pair: str) -> dict:
    env = make_env(**options)
    env.reset(seed=seed)
    rng = np.random.default_rng([7, seed])
    players = None
    if pair == "one_piece":
        from comma_env.agents.asympuzl import AsymPuzlPairPolicy
        policy = AsymPuzlPairPolicy("one_piece")
        players = {agent: policy.player(agent, env, seed) for agent in ("alice", "bob")}
    mid_turn = 0
    for agent in env.agent_iter():
        _, _, terminated, truncated, info = env.last(observe=players is not None)
        if terminated or truncated:
            env.step(None)
            continue
        if pair == "silent":
            action = ""
        elif pair in ("guesser", "noisy guesser"):
            action = guess(env, agent, rng, noisy=pair == "noisy guesser")
        else:
            assert players is not None  # pair == "one_piece"
            action = asyncio.run(players[agent].act(env.observe(agent), info)).text
        env.step(action)
        base = env.unwrapped
        if agent == "alice" and base.end_reason is None and not any(base._wrong().values()):
            mid_turn += 1  # both right straight after Alice's move
    summary = env.unwrapped.episode_summary()
    return {"success": float(summary["success"]), "turn": summary["solved_at_turn"], "mid_turn": mid_turn > 0}


def cell(results: list[dict]) -> str:
    rate = [r["success"] for r in results]
    turns = [float(r["turn"]) for r in results if r["success"]]
    text = f"{100 * mean(rate):.1f} ± {100 * standard_error(rate):.1f}"
    return text + (f" ({mean(turns):.1f})" if turns else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=1000)
    args = parser.parse_args()
    readings = [("end_of_turn", "previous"), ("end_of_turn", "current"), ("immediate", "previous"),
                ("immediate", "current")]
    head = ["pair", "feedback", *(f"{s}, {p}" for s, p in readings), "both right after Alice's move (% of episodes)"]
    rows = []
    for pair in ("silent", "guesser", "noisy guesser", "one_piece"):
        modes = {"guesser": FEEDBACK_MODES,
                 "noisy guesser": ("own-detailed", "both-detailed")}.get(pair, ("own-detailed",))
        for mode in modes:
            cells, mid = [], ""
            for success_check, partner in readings:
                options = {"n": 5, "feedback": mode, "success_check": success_check, "partner_feedback": partner}
                results = [play(options, seed, pair) for seed in range(args.episodes)]
                cells.append(cell(results))
                if (success_check, partner) == ("end_of_turn", "previous"):
                    mid = f"{100 * mean([float(r['mid_turn']) for r in results]):.1f}"
            rows.append([pair, mode, *cells, mid])
            print(rows[-1], flush=True)
    table = "\n".join(["| " + " | ".join(h) + " |" for h in [head, ["---"] * len(head), *rows]])
    note = (f"Completion % ± SE (mean turn of completion) over seeds 0-{args.episodes - 1}, N = 5, T = 15; "
            "columns: success_check, partner_feedback.")
    print(write_table("asympuzl_readings", table, note))


if __name__ == "__main__":
    main()
