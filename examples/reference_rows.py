"""Measure our realistic scripted pair in the paper's setting and write its row for the tables.

    python examples/reference_rows.py [--episodes 100]

The realistic pair (`model=realistic`, comma_env/agents/realistic.py: flawless perception
and manual reading, no foresight of the next picture) plays seeds 0..episodes-1 of the ten
COMMA puzzles at 10 turns and 3 mistakes; its partial success and success rates, with
standard errors, are written to comma_env/run/reference_rows.py, which results.md and the
report show beside the paper's published rows. tests/run/test_published.py replays a part of
it to check the file is current.
"""

from __future__ import annotations

import argparse
import pprint
import tempfile
from pathlib import Path

from omegaconf import OmegaConf

from comma_env.protocol.resources import conf_dir
from comma_env.run.published import COLUMNS
from comma_env.run.rollout import run

TARGET = Path(__file__).resolve().parents[1] / "comma_env" / "run" / "reference_rows.py"


def measure(episodes: int, puzzles: list[str] | None = None) -> dict:
    """`{"psr": {puzzle: (value, se)}, "sr": {...}, "overall": {"psr": ..., "sr": ...}}`."""
    model = OmegaConf.to_container(OmegaConf.load(Path(conf_dir()) / "model" / "realistic.yaml"))
    with tempfile.TemporaryDirectory() as folder:
        results = run({"model": model, "puzzles": puzzles or list(COLUMNS), "episodes": episodes,
                       "out_dir": folder, "progress_bar": False}, quiet=True)
    per, overall = results["puzzles"], results["overall"]
    return {"episodes": episodes,
            "psr": {p: (round(per[p]["psr"], 2), round(per[p]["psr_se"], 2)) for p in per},
            "sr": {p: (round(per[p]["sr"], 2), round(per[p]["sr_se"], 2)) for p in per},
            "overall": {"psr": (round(overall["psr"], 2), round(overall["psr_se"], 2)),
                        "sr": (round(overall["sr"], 2), round(overall["sr_se"], 2))}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=100)
    args = parser.parse_args()
    row = measure(args.episodes)
    TARGET.write_text(
        '"""Our realistic scripted pair measured in the paper\'s setting (10 turns, 3 mistakes,\n'
        f'seeds 0..{args.episodes - 1} of each puzzle). Written by examples/reference_rows.py; do not edit."""\n\n'
        f"REALISTIC_PAIR = {pprint.pformat(row, width=110, sort_dicts=False)}\n")
    print(TARGET.read_text())


if __name__ == "__main__":
    main()
