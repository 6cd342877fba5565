"""The architecture page's picture: how one episode's data flows through the rooms of
`comma_env`, from a puzzle's rules to the results, and where trainers and people plug in.

    python examples/architecture.py [--out docs/images/architecture.png]

One row of stages, left to right, each a box naming the room (folder of `comma_env`) that
does it; below, the ways in that reuse the same stages. Every room named here is checked to
exist, so the picture cannot drift from the package silently. Needs matplotlib (the
``plots`` extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "comma_env"

FLOW: list[tuple[str, str, str]] = [
    ("rules", "puzzles/", "a seed makes\nan instance"),
    ("visible state", "protocol/", "what each role\nmay know"),
    ("picture / prompt", "drawing/ protocol/", "the image and\nthe messages"),
    ("agents", "agents/", "a model, a script\nor a person answers"),
    ("run", "run/", "episodes.jsonl,\nresumable"),
    ("results", "run/ web/", "results.md,\nthe HTML report"),
]
"""The stages of one episode, in order: (stage, rooms, what it makes)."""

WAYS_IN: list[tuple[str, str, int]] = [
    ("trainers: one role as a Gymnasium env", "rl/ openenv/ vf/", 3),
    ("people: play in the browser", "web/", 3),
    ("datasets: export of the records", "rl/", 4),
]
"""Who else uses the stages: (who, rooms, index of the stage they take the place of or read)."""


def rooms_exist() -> list[str]:
    """Every room the picture names, each checked to be a folder of the package."""
    rooms = sorted({room.rstrip("/") for _, names, *_ in [*FLOW, *WAYS_IN] for room in str(names).split()})
    missing = [room for room in rooms if not (PACKAGE / room).is_dir()]
    if missing:
        raise SystemExit(f"the picture names rooms that do not exist: {missing}")
    return rooms


def draw(out: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    rooms_exist()
    figure, axis = plt.subplots(figsize=(12, 4.6))
    axis.set_xlim(0, 12)
    axis.set_ylim(0, 4.6)
    axis.axis("off")
    width, height, gap, top = 1.7, 1.5, 0.3, 2.7
    centers = []
    for index, (stage, rooms, makes) in enumerate(FLOW):
        x = 0.15 + index * (width + gap)
        centers.append(x + width / 2)
        axis.add_patch(FancyBboxPatch((x, top), width, height, boxstyle="round,pad=0.02,rounding_size=0.12",
                                      facecolor="#e8f0fe", edgecolor="#3b6fd8", linewidth=1.4))
        axis.text(x + width / 2, top + height - 0.28, stage, ha="center", va="center", fontsize=12,
                  fontweight="bold")
        axis.text(x + width / 2, top + height - 0.62, rooms, ha="center", va="center", fontsize=10,
                  family="monospace", color="#1d3f8a")
        axis.text(x + width / 2, top + 0.4, makes, ha="center", va="center", fontsize=9.5, color="#333333")
        if index:
            axis.add_patch(FancyArrowPatch((x - gap + 0.02, top + height / 2), (x - 0.02, top + height / 2),
                                           arrowstyle="-|>", mutation_scale=16, color="#3b6fd8", linewidth=1.4))
    for row, (who, rooms, target) in enumerate(WAYS_IN):
        y = 1.85 - row * 0.72
        x = 0.15 + (width + gap) * 0.5 + row * 0.1
        axis.add_patch(FancyBboxPatch((x, y - 0.25), 5.6, 0.5, boxstyle="round,pad=0.02,rounding_size=0.1",
                                      facecolor="#eaf7ea", edgecolor="#2f8a46", linewidth=1.1))
        axis.text(x + 0.15, y, who, ha="left", va="center", fontsize=10.5)
        axis.text(x + 5.45, y, rooms, ha="right", va="center", fontsize=10, family="monospace", color="#1f5e30")
        axis.add_patch(FancyArrowPatch((x + 5.6, y), (centers[target], top - 0.02), arrowstyle="-|>",
                                       mutation_scale=13, color="#2f8a46", linewidth=1.1,
                                       connectionstyle="arc3,rad=0.15"))
    axis.text(0.15, 4.45, "One episode, left to right: the room that does each step", fontsize=12, va="center")
    figure.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "docs" / "images" / "architecture.png"))
    print(f"wrote {draw(Path(parser.parse_args().out))}")


if __name__ == "__main__":
    main()
