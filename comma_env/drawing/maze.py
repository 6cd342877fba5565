"""Drawing of the Maze module: the numbered grid, the torus, four coloured spheres, the mouse
with its facing, and the button."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text
from comma_env.puzzles.maze import MazePuzzle

WIDTH, HEIGHT = MazePuzzle.image_size
CELL = 44
X0, Y0 = 44, 60
BUTTON_CENTER, BUTTON_RADIUS = (474, 258), 27
WALL_FILL = (52, 56, 64)
MOUSE_FILL = (150, 150, 150)
NOSE = {"up": (0, -1), "right": (1, 0), "down": (0, 1), "left": (-1, 0)}


def _center(row: int, column: int) -> tuple[float, float]:
    """Pixel centre of a 1-based (row, column) square."""
    return X0 + (column - 0.5) * CELL, Y0 + (row - 0.5) * CELL


def _grid(draw: ImageDraw.ImageDraw, size: int) -> None:
    """The frame around the squares, with the column numbers above and the row numbers left."""
    end = size * CELL  # the squares span X0..X0+end-1 and Y0..Y0+end-1; the frame is 3 px outside
    frame = PALETTE["frame"]
    for index in range(size):
        centered_text(draw, (X0 + index * CELL, Y0 - 22, X0 + (index + 1) * CELL, Y0 - 2), str(index + 1), 16,
                      bold=True)
    draw.rectangle((X0 - 3, Y0 - 3, X0 + end + 2, Y0 - 1), fill=frame)
    for index in range(size):
        centered_text(draw, (8, Y0 + index * CELL, X0 - 4, Y0 + (index + 1) * CELL), str(index + 1), 16, bold=True)
    draw.rectangle((X0 - 3, Y0, X0 - 1, Y0 + end - 1), fill=frame)
    draw.rectangle((X0 + end, Y0, X0 + end + 2, Y0 + end - 1), fill=frame)
    draw.rectangle((X0 - 3, Y0 + end, X0 + end + 2, Y0 + end + 2), fill=frame)


def _button(draw: ImageDraw.ImageDraw, pressed: bool) -> None:
    """The round button with a small labyrinth drawn on it."""
    x, y = BUTTON_CENTER
    r = BUTTON_RADIUS
    draw.ellipse((x - r, y - r, x + r, y + r), fill=PALETTE["green"] if pressed else PALETTE["button"],
                 outline=PALETTE["frame"], width=3)
    for k in (14, 8):  # two nested broken squares
        draw.line([(x - k, y - k + 5), (x - k, y + k), (x + k, y + k), (x + k, y - k), (x - k + 6, y - k)],
                  fill=PALETTE["frame"], width=2)
    draw.line([(x - 2, y), (x + 2, y)], fill=PALETTE["frame"], width=2)
    centered_text(draw, (x - 32, y + r + 4, x + 32, y + r + 22), "PRESS", 14, bold=True)


def _disc(draw: ImageDraw.ImageDraw, center: tuple[float, float], radius: float, fill: tuple[int, int, int]) -> None:
    x, y = center
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=PALETTE["ink"], width=2)


def _square(draw: ImageDraw.ImageDraw, row: int, column: int, floor: bool, torus: str | None, sphere: str | None,
            facing: str | None) -> None:
    """One square: floor or wall, and what stands on it (the torus, a sphere, the mouse)."""
    box = (X0 + (column - 1) * CELL, Y0 + (row - 1) * CELL, X0 + column * CELL - 1, Y0 + row * CELL - 1)
    draw.rectangle(box, fill=PALETTE["white"] if floor else WALL_FILL, outline=(170, 174, 180))
    x, y = _center(row, column)
    if torus is not None:
        draw.ellipse((x - 19, y - 19, x + 19, y + 19), outline=PALETTE["ink"], width=9)
        draw.ellipse((x - 18, y - 18, x + 18, y + 18), outline=PALETTE[torus], width=7)
    if sphere is not None:
        _disc(draw, (x, y), 19 if facing is not None else 16, PALETTE[sphere])
        draw.ellipse((x - 9, y - 10, x - 3, y - 4), fill=(255, 255, 255))  # highlight: a sphere, not a disc
    if facing is not None:
        dx, dy = NOSE[facing]
        px, py = -dy, dx  # perpendicular
        _disc(draw, (x, y), 12, MOUSE_FILL)
        nose = [(x + dx * 21, y + dy * 21), (x + dx * 6 + px * 8, y + dy * 6 + py * 8),
                (x + dx * 6 - px * 8, y + dy * 6 - py * 8)]
        draw.polygon(nose, fill=PALETTE["ink"])


def draw_maze(state: dict[str, Any]) -> Image.Image:
    image, draw = canvas((WIDTH, HEIGHT), "MAZE")
    rows = state["maze_rows_top_to_bottom"]
    _grid(draw, len(rows))
    torus, mouse = tuple(state["torus_row_column"]), tuple(state["mouse_row_column"])
    spheres = {tuple(cell): color for color, cell in state["sphere_row_column_by_color"].items()}
    for r, line in enumerate(rows, start=1):
        for c, square in enumerate(line, start=1):
            _square(draw, r, c, square == ".", state["torus_color"] if (r, c) == torus else None,
                    spheres.get((r, c)), state["mouse_facing"] if (r, c) == mouse else None)
    _button(draw, bool(state["button_pressed"]))
    return image
