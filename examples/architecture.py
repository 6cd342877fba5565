"""The architecture page's picture: the package's rooms and which imports which (read from
the source, not drawn by hand), beside the data flow of a run.

    python examples/architecture.py [--out docs/images/architecture.png]

Left: one box per room of `comma_env`, in layers: a room sits above the rooms it imports,
so arrows point down (rooms that import each other share a layer). The
environments (protocol, puzzles, drawing, audio) are at the bottom and import no policy.
Right: what flows where in a rollout, from the registry to the tables, the report and a
trainer. Needs matplotlib (the ``plots`` extra).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from import_graph import imported_names, module_files  # examples/ is on sys.path when run as a script

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "comma_env"


COMMANDS = {"rollout", "report", "play", "export", "merge"}
"""Top-level modules that are only command lines (``python -m comma_env.X``)."""


def room_of(module: str) -> str | None:
    """``comma_env.run.results`` -> ``run``. Top-level modules form three rooms: the package
    itself (``comma_env``, which registers the ids), the command lines, and ``registry``
    (the registry and the versioned ``<puzzle>_v0`` entry modules)."""
    parts = module.split(".")
    if parts[0] != "comma_env":
        return None
    if len(parts) == 1:
        return "comma_env"
    if (PACKAGE / parts[1]).is_dir():
        return parts[1]
    return "commands" if parts[1] in COMMANDS else "registry"


def room_imports() -> dict[str, set[str]]:
    """Room -> the other rooms its modules import (any import statement, at any depth)."""
    edges: dict[str, set[str]] = {}
    for module, path in module_files(ROOT, PACKAGE.name).items():
        source_room = room_of(module)
        if source_room is None:
            continue  # the deprecated-name shim points everywhere by design
        edges.setdefault(source_room, set())
        for name in imported_names(module, path):
            if name.split(".")[0] != "comma_env":
                continue
            if len(name.split(".")) > 1 and not (PACKAGE / name.split(".")[1]).is_dir() \
                    and not (PACKAGE / f"{name.split('.')[1]}.py").is_file():
                continue  # `from comma_env import X` of a name, not a module
            target = room_of(name)
            if target == "comma_env":
                target = "registry"  # `import comma_env` is for comma_env.make, the registry's
            if target and target != source_room:
                edges[source_room].add(target)
    return edges


def layers(edges: dict[str, set[str]]) -> list[list[str]]:
    """Longest-path layering of the rooms: a room sits one layer above the deepest room it
    imports. Rooms that import each other (modules in them do not form cycles, the rooms
    can) share a layer."""
    rooms = set(edges) | {t for targets in edges.values() for t in targets}
    reach = {room: set(edges.get(room, ())) for room in rooms}
    changed = True
    while changed:  # transitive closure; the graph has a dozen nodes
        changed = False
        for room in rooms:
            grown = reach[room].union(*(reach[t] for t in reach[room]))
            if grown != reach[room]:
                reach[room], changed = grown, True
    group = {room: frozenset({room} | {o for o in reach[room] if room in reach[o]}) for room in rooms}
    depth: dict[frozenset[str], int] = {}

    def visit(members: frozenset[str]) -> int:
        if members not in depth:
            below = {group[t] for m in members for t in edges.get(m, ()) if group[t] != members}
            depth[members] = 1 + max((visit(b) for b in below), default=-1)
        return depth[members]

    result: list[list[str]] = [[] for _ in range(1 + max(visit(group[r]) for r in rooms))]
    for room in sorted(rooms):
        result[depth[group[room]]].append(room)
    return result


FLOW = [
    ("registry + conf/ (Hydra)", "which puzzles, seeds, models, limits"),
    ("environment (protocol + puzzle + drawing)", "picture, text, manual; executes actions"),
    ("policies (agents: random, oracle, chat model)", "one message per turn, over HTTP for models"),
    ("runner (run/rollout)", "steps episodes concurrently, resumes"),
    ("episodes.jsonl", "one record per episode, with its transcript"),
    ("results.json / results.md", "the paper's tables, recomputed from the file"),
    ("report (web) / export (rl)", "HTML pages redrawn from records; SFT/RL datasets"),
]


def draw(out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    edges = room_imports()
    rows = layers(edges)
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 7.5), gridspec_kw={"width_ratios": [1.25, 1]})
    for axis in (left, right):
        axis.set_axis_off()
    box_w, box_h = 0.17, 0.07
    position: dict[str, tuple[float, float]] = {}
    for level, rooms in enumerate(reversed(rows)):  # top layer first
        y = 0.92 - level * (0.84 / max(len(rows) - 1, 1))
        for index, room in enumerate(rooms):
            x = (index + 1) / (len(rooms) + 1)
            position[room] = (x, y)
    environment = {"protocol", "puzzles", "drawing", "audio"}
    for source, targets in edges.items():
        for target in targets:
            (x0, y0), (x1, y1) = position[source], position[target]
            left.add_patch(FancyArrowPatch((x0, y0 - box_h / 2), (x1, y1 + box_h / 2), arrowstyle="-|>",
                                           mutation_scale=9, color="#8a8a8a", linewidth=0.7, shrinkA=0, shrinkB=0))
    for room, (x, y) in position.items():
        colour = "#d9ead3" if room in environment else "#dde6f5"
        left.add_patch(FancyBboxPatch((x - box_w / 2, y - box_h / 2), box_w, box_h, boxstyle="round,pad=0.005",
                                      facecolor=colour, edgecolor="#444444", linewidth=0.8))
        left.text(x, y, room, ha="center", va="center", fontsize=9.5)
    left.set_xlim(0, 1)
    left.set_ylim(0, 1)
    left.set_title("Rooms of comma_env: an arrow means 'imports' (green: the environments)", fontsize=11)

    step = 0.84 / (len(FLOW) - 1)
    for index, (name, what) in enumerate(FLOW):
        y = 0.92 - index * step
        right.add_patch(FancyBboxPatch((0.08, y - 0.045), 0.84, 0.09, boxstyle="round,pad=0.005",
                                       facecolor="#fdf2d0", edgecolor="#444444", linewidth=0.8))
        right.text(0.5, y + 0.014, name, ha="center", va="center", fontsize=9.5, weight="bold")
        right.text(0.5, y - 0.02, what, ha="center", va="center", fontsize=8.5)
        if index:
            right.add_patch(FancyArrowPatch((0.5, y + step - 0.045), (0.5, y + 0.045), arrowstyle="-|>",
                                            mutation_scale=10, color="#444444", linewidth=0.9))
    right.set_xlim(0, 1)
    right.set_ylim(0, 1)
    right.set_title("Data flow of a rollout", fontsize=11)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=90)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images" / "architecture.png"))
    out = Path(parser.parse_args().out)
    draw(out)
    for room, targets in sorted(room_imports().items()):
        print(f"{room:>10} imports {', '.join(sorted(targets)) or '-'}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
