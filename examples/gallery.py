"""The README's picture: the solver's view of all thirteen puzzles, one tile each.

    python examples/gallery.py [--out docs/images/gallery.png] [--seed 0]

Each tile is what `env.render()` returns after ``reset(seed)`` (the same pixels a solver
model is sent), scaled to a common height and labelled with the puzzle's name and skills.
The ten puzzles of the final paper come first, then v1's Button, Dog and Sound.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

import comma_env
from comma_env.protocol.resources import font_path
from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES

TILE_HEIGHT = 200
LABEL_HEIGHT = 26
GAP = 8
COLUMNS = 5
BACKGROUND = (255, 255, 255)


def solver_view(puzzle: str, seed: int = 0) -> Image.Image:
    """The solver's picture of instance `seed` of `puzzle`, as the environment draws it."""
    env = comma_env.make(puzzle, render_mode="rgb_array")
    env.reset(seed=seed)
    frame = np.asarray(env.render())
    env.close()
    return Image.fromarray(frame)


def label(puzzle: str) -> str:
    cls = comma_env.make(puzzle).unwrapped.puzzle_cls
    return f"{cls.title} ({' '.join(cls.skills)})"


def gallery(puzzles: list[str], seed: int = 0) -> Image.Image:
    """Tiles in rows of `COLUMNS`, each scaled to `TILE_HEIGHT` with a label under it."""
    font = ImageFont.truetype(str(font_path("DejaVuSans.ttf")), 16)
    tiles = []
    for puzzle in puzzles:
        view = solver_view(puzzle, seed)
        width = round(view.width * TILE_HEIGHT / view.height)
        tiles.append((label(puzzle), view.resize((width, TILE_HEIGHT), Image.Resampling.LANCZOS)))
    rows = [tiles[i:i + COLUMNS] for i in range(0, len(tiles), COLUMNS)]
    width = max(sum(t.width for _, t in row) + GAP * (len(row) + 1) for row in rows)
    height = len(rows) * (TILE_HEIGHT + LABEL_HEIGHT + GAP) + GAP
    sheet = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    for r, row in enumerate(rows):
        row_width = sum(t.width for _, t in row) + GAP * (len(row) + 1)
        x = (width - row_width) // 2 + GAP
        y = GAP + r * (TILE_HEIGHT + LABEL_HEIGHT + GAP)
        for text, tile in row:
            sheet.paste(tile, (x, y))
            draw.text((x + tile.width // 2, y + TILE_HEIGHT + 4), text, fill=(30, 30, 30), font=font, anchor="mt")
            x += tile.width + GAP
    return sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs" / "images" / "gallery.png"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sheet = gallery(list(COMMA_PUZZLES + V1_PUZZLES), args.seed)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    sheet.quantize(256, method=Image.Quantize.MEDIANCUT).save(out, optimize=True)
    print(f"wrote {out} ({sheet.width}x{sheet.height}, {out.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
