"""Drawing of the Dog module: a park picture with 0-5 dog silhouettes (one per cell of a
3x2 grid, so no dog hides another), a countdown display and the submit button.

Each dog is built from simple shapes in a 100x80 box facing right (body, neck, head with a
snout and an ear, four legs, a tail), posed by moving the legs and body, then scaled and
mirrored into its cell. A dark outline keeps every coat visible on the grass.

Speed: a new episode shows new dogs, so the picture changes on every reset. Each dog is
therefore drawn once per (pose, facing, spots, scale) as a map of pixel classes (outline,
coat, ear, eye), cached, coloured per coat, and stamped with two vectorised bitwise
operations. A dog is drawn at the largest scale step whose pixels fit in its box, so it
never crosses its grid cell. The grid is one layer that tells the scene what to write
(`Scene`'s ``changes``): for each cell whose dog changed, the park's background over the old
dog's box, then the new dog's finished pixels (`_dog_pixels`, cached over sky and over
grass, since each row of a cell is one or the other). A dog covers about 43% of its cell,
so a new episode writes about half the pixels that repainting whole cells did; and one
layer for the six cells is one entry to diff and one call per frame instead of six: in an
interleaved A/B of the per-cell layers against this one, Dog's image step in a Gymnasium
loop went from 2.36/2.23 to 1.97/1.97 frame copies over a text step (a difference that also
moves with the machine and the text step's cost, so compare within one run).

Layers: the grid, the timer and the lamp."""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.common import PALETTE, canvas, centered_text, countdown_display, countdown_layers, text
from comma_env.drawing.scene import Layer, Scene
from comma_env.protocol.frozen import FrozenList
from comma_env.puzzles.dog import GRID, DogPuzzle

COAT_RGB = {
    "brown": (139, 90, 43),
    "black": (35, 32, 30),
    "white": (245, 243, 236),
    "golden": (222, 170, 70),
    "grey": (140, 140, 145),
    "spotted": (245, 243, 236),
}
OUTLINE = (25, 22, 20)
GRASS = (150, 200, 120)
SKY = (205, 228, 245)
PICTURE = (24, 56, 488, 376)  # x0, y0, x1, y1 of the photo area

Part = tuple[str, list[tuple[float, float]]]  # (kind, points) of one drawn part, e.g. ("ellipse", [corner, corner])


def _leg(x: float, y: float, dx: float, length: float) -> Part:
    return ("leg", [(x, y), (x + dx, y + length)])


def dog_shapes(pose: str) -> list[Part]:
    """Shapes of one dog facing right in a 100x80 box (ground at y = 78)."""
    if pose == "sitting":
        return [
            ("ellipse", [(22, 34), (62, 74)]),                   # haunch
            ("ellipse", [(44, 24), (70, 66)]),                   # chest
            _leg(60, 56, 0, 22), _leg(52, 58, 0, 20),            # front legs
            ("ellipse", [(14, 62), (46, 78)]),                   # folded hind leg
            ("tail", [(24, 60), (10, 70), (4, 64)]),
            ("ellipse", [(54, 2), (82, 28)]),                    # head
            ("ellipse", [(74, 12), (96, 26)]),                   # snout
            ("ear", [(56, 4), (64, 4), (56, 24)]),
        ]
    if pose == "lying":
        return [
            ("ellipse", [(10, 50), (78, 74)]),                   # body on the ground
            ("leg", [(64, 70), (94, 74)]), ("leg", [(56, 72), (86, 77)]),  # front legs forward
            ("ellipse", [(8, 64), (34, 78)]),                    # hind leg
            ("tail", [(12, 60), (2, 56), (-4, 60)]),
            ("ellipse", [(62, 28), (88, 54)]),                   # head
            ("ellipse", [(80, 38), (100, 52)]),                  # snout
            ("ear", [(64, 30), (72, 30), (64, 50)]),
        ]
    spread = 9 if pose == "running" else 0
    return [
        ("ellipse", [(14, 26), (76, 54)]),                       # body
        _leg(66, 46, spread, 32), _leg(58, 46, -spread * 0.5, 32),   # front legs
        _leg(26, 46, -spread, 32), _leg(18, 46, spread * 0.5, 32),   # hind legs
        ("tail", [(16, 34), (6, 24), (2, 12 if pose == "standing" else 30)]),
        ("neck", [(62, 34), (72, 14)]),
        ("ellipse", [(62, 2), (88, 28)]),                        # head
        ("ellipse", [(80, 12), (100, 26)]),                      # snout
        ("ear", [(64, 4), (72, 4), (64, 24)]),
    ]


OUTLINE_CLASS, COAT_CLASS, EAR_CLASS, EYE_CLASS = 1, 2, 3, 4
"""Pixel classes of a sprite's label map (0: not the dog); a coat's palette colours them."""
SCALE_STEPS = 16
"""Sprites are drawn at scales that are multiples of 1/16 and placed on whole pixels: 96
label maps and 288 coloured sprites (6 coats) cover every dog an instance can show, about
12 MB once all are cached, and the same dogs over sky and over grass (`_dog_over`) at most
about 16 MB more."""


def _label_map(pose: str, mirror: bool, spotted: bool, scale: float) -> np.ndarray:
    """One dog drawn as pixel classes, cropped to its pixels."""
    pad = 8 + math.ceil(14 * scale)  # room for outlines, leg ends and a tail behind the box
    width, height = math.ceil(100 * scale) + 2 * pad, math.ceil(80 * scale) + 2 * pad
    image = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(image)

    def at(point: tuple[float, float]) -> tuple[float, float]:
        x, y = point
        return (pad + (100 - x if mirror else x) * scale, pad + y * scale)

    def rect(a: tuple[float, float], b: tuple[float, float]) -> list[float]:
        (ax, ay), (bx, by) = at(a), at(b)
        return [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)]

    shapes = dog_shapes(pose)
    outline = max(2, round(2.2 * scale))
    thick = max(4, round(9 * scale))
    # outline pass, then fill pass: overlapping parts merge into one silhouette
    for width_extra, label in ((outline * 2, OUTLINE_CLASS), (0, COAT_CLASS)):
        for kind, pts in shapes:
            if kind == "ellipse":
                r = rect(*pts)
                draw.ellipse([r[0] - width_extra / 2, r[1] - width_extra / 2, r[2] + width_extra / 2,
                              r[3] + width_extra / 2], fill=label)
            elif kind in ("leg", "neck"):
                w = thick * (2 if kind == "neck" else 1) + width_extra
                draw.line([at(p) for p in pts], fill=label, width=int(w))
                end = at(pts[-1])
                draw.ellipse([end[0] - w / 2, end[1] - w / 2, end[0] + w / 2, end[1] + w / 2], fill=label)
            elif kind == "tail":
                draw.line([at(p) for p in pts], fill=label, width=int(max(3, 5 * scale) + width_extra), joint="curve")
            elif kind == "ear" and width_extra == 0:
                draw.polygon([at(p) for p in pts], fill=EAR_CLASS, outline=OUTLINE_CLASS)
    ellipses = [pts for kind, pts in shapes if kind == "ellipse"]
    snout, head, body = ellipses[-1], ellipses[-2], ellipses[0]
    nose = at((snout[1][0] - 2, (snout[0][1] + snout[1][1]) / 2 - 2))
    radius = max(2.5, 3.2 * scale)
    draw.ellipse([nose[0] - radius, nose[1] - radius, nose[0] + radius, nose[1] + radius], fill=OUTLINE_CLASS)
    eye = at(((head[0][0] + head[1][0]) / 2 + 5, (head[0][1] + head[1][1]) / 2 - 2))
    radius = max(2, 2.4 * scale)
    draw.ellipse([eye[0] - radius, eye[1] - radius, eye[0] + radius, eye[1] + radius], fill=EYE_CLASS)
    if spotted:
        (bx0, by0), (bx1, by1) = body
        for fx, fy, fr in ((0.3, 0.35, 0.12), (0.6, 0.55, 0.1), (0.45, 0.25, 0.07)):
            c = at((bx0 + fx * (bx1 - bx0), by0 + fy * (by1 - by0)))
            rr = fr * (bx1 - bx0) * scale * 0.6
            draw.ellipse([c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr], fill=OUTLINE_CLASS)
    labels = np.asarray(image)
    rows, columns = np.flatnonzero(labels.any(axis=1)), np.flatnonzero(labels.any(axis=0))
    return labels[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1].copy()


class Shape(NamedTuple):
    """A dog's cached label map and its stamping mask (read-only), cropped to its pixels."""

    labels: np.ndarray  # uint8 pixel classes, 0 outside the dog
    keep: np.ndarray  # uint8 RGB mask: 255 outside the dog (the picture shows through), 0 on it


@lru_cache(maxsize=256)  # every (pose, facing, spots, scale) an instance can draw: 96
def _shape(pose: str, mirror: bool, spotted: bool, scale_steps: int) -> Shape:
    labels = _label_map(pose, mirror, spotted, scale_steps / SCALE_STEPS)
    keep = np.repeat(np.where(labels == 0, np.uint8(255), np.uint8(0))[..., None], 3, axis=2)
    labels.flags.writeable = keep.flags.writeable = False
    return Shape(labels, keep)


@lru_cache(maxsize=512)  # every (coat, pose, facing, scale): 288
def _sprite(coat: str, pose: str, mirror: bool, scale_steps: int) -> np.ndarray:
    """A dog's RGB pixels in its coat, black outside the dog (read-only): the label map
    coloured through a palette image."""
    labels = _shape(pose, mirror, coat == "spotted", scale_steps).labels
    height, width = labels.shape
    image = Image.frombytes("P", (width, height), labels.tobytes())
    image.putpalette(_palette(coat).tobytes())
    rgb = np.array(image.convert("RGB"))
    np.bitwise_and(rgb, ~_shape(pose, mirror, coat == "spotted", scale_steps).keep, out=rgb)
    rgb.flags.writeable = False
    return rgb


@cache
def _palette(coat: str) -> np.ndarray:
    """RGB of each pixel class for a coat."""
    ear = (90, 60, 35) if coat in ("white", "spotted", "golden", "grey") else (80, 75, 70)
    eye = (245, 245, 245) if coat == "black" else OUTLINE
    palette = np.array([(0, 0, 0), OUTLINE, COAT_RGB[coat], ear, eye], dtype=np.uint8)
    palette.flags.writeable = False
    return palette


def _stamp(out: np.ndarray, shape: Shape, sprite: np.ndarray, x: int, y: int) -> None:
    """Put the dog's pixels into `out` with its top-left at (x, y), clipped to `out`: the
    picture masked by `keep`, then the sprite (black outside the dog) or-ed in."""
    height, width = out.shape[:2]
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + sprite.shape[1], width), min(y + sprite.shape[0], height)
    if x0 >= x1 or y0 >= y1:
        return
    region = out[y0:y1, x0:x1]
    keep, pixels = shape.keep[y0 - y:y1 - y, x0 - x:x1 - x], sprite[y0 - y:y1 - y, x0 - x:x1 - x]
    if keep.flags.c_contiguous and pixels.flags.c_contiguous:  # unclipped: the dog's box is inside `out`
        # numpy pays per row of a strided region: two passes over a contiguous copy are 2x faster
        flat = region.copy().reshape(-1)
        np.bitwise_and(flat, keep.reshape(-1), out=flat)
        np.bitwise_or(flat, pixels.reshape(-1), out=flat)
        region[...] = flat.reshape(region.shape)
        return
    np.bitwise_and(region, keep, out=region)
    np.bitwise_or(region, pixels, out=region)


@lru_cache(maxsize=1)
def _template() -> Image.Image:
    image, draw = canvas(DogPuzzle.image_size, "DOGS")
    x0, y0, x1, y1 = PICTURE
    horizon = y0 + (y1 - y0) * 0.32
    draw.rectangle((x0, y0, x1, horizon), fill=SKY)
    draw.rectangle((x0, horizon, x1, y1), fill=GRASS)
    draw.rectangle(PICTURE, outline=PALETTE["frame"], width=4)
    draw.rounded_rectangle((300, 400, 470, 480), radius=12, fill=PALETTE["button"], outline=PALETTE["frame"], width=4)
    centered_text(draw, (300, 400, 470, 480), "SUBMIT", 28, bold=True)
    text(draw, (44, 392), "TIME LEFT", 14, fill=PALETTE["frame"], bold=True)
    countdown_display(draw)
    return image


_GRID_TOP = PICTURE[1] + (PICTURE[3] - PICTURE[1]) * 0.12
_CELL_WIDTH, _CELL_HEIGHT = (PICTURE[2] - PICTURE[0] - 16) / GRID[0], (PICTURE[3] - _GRID_TOP - 8) / GRID[1]


def cell_box(cell: int, dx: float, dy: float, size: float) -> tuple[float, float, float, float]:
    """Pixel box of a dog in grid cell `cell`, jittered by (dx, dy) and scaled by `size`."""
    width, height = _CELL_WIDTH, _CELL_HEIGHT
    row, column = divmod(cell, GRID[0])
    cx = PICTURE[0] + 8 + width * (column + 0.5 + dx)
    cy = _GRID_TOP + height * (row + 0.5 + dy)
    w, h = width * size, height * size
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _cell_edges() -> list[tuple[int, int, int, int]]:
    left, top, width, height = PICTURE[0] + 8, _GRID_TOP, _CELL_WIDTH, _CELL_HEIGHT
    return [(round(left + width * column), round(top + height * row),
             round(left + width * (column + 1)), round(top + height * (row + 1)))
            for row in range(GRID[1]) for column in range(GRID[0])]


CELL_BOXES: tuple[tuple[int, int, int, int], ...] = tuple(_cell_edges())
"""Pixel boxes (x1/y1 exclusive) of the grid cells, side by side: one layer each."""


class Placement(NamedTuple):
    """A dog as drawn: its sprite, the sprite's top-left pixel and its size."""

    coat: str
    pose: str
    mirror: bool
    scale_steps: int
    x: int
    y: int
    width: int
    height: int


def placement(coat: str, pose: str, facing: str, cell: int, dx: float, dy: float, size: float) -> Placement:
    """Where a dog is drawn: its sprite at the largest scale step (at most the one that fills
    its box, `cell_box`) whose pixels fit inside the box with a pixel to spare, centred in it
    and standing on its bottom edge. So no dog ever crosses its cell's edge.

    Not cached: every episode's jitter and size are new numbers, so a cache keyed by them
    missed on nearly every new episode, and evicting its oldest entries touched memory long
    out of the CPU's cache (2.5 us of the 14 us a new episode's layers took in a Gymnasium
    loop). `_fit` caches the part that repeats."""
    x0, y0, x1, y1 = cell_box(cell, dx, dy, size)
    left, top, right, bottom = math.ceil(x0 + 1), math.ceil(y0 + 1), math.floor(x1 - 1), math.floor(y1 - 1)
    mirror = facing == "left"
    steps, width, height = _fit(pose, mirror, coat == "spotted", right - left, bottom - top,
                                round(min((x1 - x0) / 104, (y1 - y0) / 82) * SCALE_STEPS))
    return Placement(coat, pose, mirror, steps, left + (right - left - width) // 2, bottom - height, width, height)


@lru_cache(maxsize=8192)  # 1,382 entries after 100,000 instances: the room a box leaves repeats
def _fit(pose: str, mirror: bool, spotted: bool, room_width: int, room_height: int, steps: int) -> tuple[int, int, int]:
    """(scale step, width, height) of the largest sprite at most `steps` that fits the room:
    what `placement` would otherwise search on every new episode, while the room a dog gets
    takes few values."""
    while steps > 1:
        height, width = _shape(pose, mirror, spotted, steps).labels.shape
        if width <= room_width and height <= room_height:
            break
        steps -= 1
    height, width = _shape(pose, mirror, spotted, steps).labels.shape
    return steps, width, height


@cache
def _park() -> np.ndarray:
    """The template's RGB pixels (read-only): what every dog is stamped over."""
    pixels = np.array(_template().convert("RGB"))
    pixels.flags.writeable = False
    return pixels


@cache
def _horizon() -> int:
    """The first grass row of the park (rows above it are sky, across every grid cell)."""
    x0, y0, x1, y1 = PICTURE
    column = _park()[y0:y1, (x0 + x1) // 2]
    return y0 + int(np.flatnonzero((column == GRASS).all(axis=1))[0])


@lru_cache(maxsize=1024)  # every (coat, pose, facing, scale) over sky and over grass: 576
def _dog_over(coat: str, pose: str, mirror: bool, scale_steps: int, ground: tuple[int, int, int]) -> np.ndarray:
    """A dog's pixels over a plain `ground` colour (read-only): `_stamp` on sky or grass."""
    shape = _shape(pose, mirror, coat == "spotted", scale_steps)
    pixels = np.empty(shape.keep.shape, dtype=np.uint8)
    pixels[...] = ground
    _stamp(pixels, shape, _sprite(coat, pose, mirror, scale_steps), 0, 0)
    pixels.flags.writeable = False
    return pixels


def dog_box(dog: Placement) -> tuple[int, int, int, int]:
    """The pixel box (x1/y1 exclusive) of a placed dog's sprite: where the grid layer draws it."""
    return dog.x, dog.y, dog.x + dog.width, dog.y + dog.height


def _dog_pixels(dog: Placement) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """The read-only pixels of a dog's box: what `_stamp` makes of the park under it. Every
    row of a grid cell is sky or grass, so these are the cached dog over grass, over sky, or
    (a dog across the horizon) the sky one's rows above it and the grass one's below, as two
    bands (`Scene` writes each): no stamping per episode, no copy, and no reading of the
    masks (`placement` keeps the dog inside its cell)."""
    sky_rows = min(max(_horizon() - dog.y, 0), dog.height)
    if sky_rows < dog.height:
        grass = _dog_over(dog.coat, dog.pose, dog.mirror, dog.scale_steps, GRASS)
        if not sky_rows:
            return grass
    sky = _dog_over(dog.coat, dog.pose, dog.mirror, dog.scale_steps, SKY)
    if sky_rows == dog.height:
        return sky
    return sky[:sky_rows], grass[sky_rows:]


def _paint_dog(image: Image.Image, draw: ImageDraw.ImageDraw, dog: Placement | None) -> None:
    """The full-redraw path: the dog stamped over what its box shows (the park)."""
    if dog is not None:
        box = dog_box(dog)
        out = np.array(image.crop(box).convert("RGB"))
        shape = _shape(dog.pose, dog.mirror, dog.coat == "spotted", dog.scale_steps)
        _stamp(out, shape, _sprite(dog.coat, dog.pose, dog.mirror, dog.scale_steps), 0, 0)
        image.paste(Image.fromarray(out), box[:2])


Dogs = tuple[Placement | None, ...]
"""The grid layer's key: each cell's dog, or None for an empty cell, in cell order."""

GRID_BOX = (CELL_BOXES[0][0], CELL_BOXES[0][1], CELL_BOXES[-1][2], CELL_BOXES[-1][3])
"""The box of the grid layer: every cell."""


def _paint_dogs(image: Image.Image, draw: ImageDraw.ImageDraw, dogs: Dogs) -> None:
    """The full-redraw path: every dog stamped over the park."""
    for dog in dogs:
        _paint_dog(image, draw, dog)


def _dog_changes(shown: Dogs | None, dogs: Dogs) -> list[tuple[tuple[int, int, int, int], np.ndarray]]:
    """The writes that turn the grid from showing `shown` (None: not known) into showing
    `dogs`, in order: for each cell whose dog changed, the park over the old dog's box, then
    the new dog's cached pixels (`_dog_pixels`), band by band. A dog covers about 43% of its
    cell, so a new episode writes about half of what repainting whole cells did; and one
    layer for the grid, instead of one per cell, is one diff entry and one call per frame."""
    park = _park()
    writes: list[tuple[tuple[int, int, int, int], np.ndarray]] = []
    if shown is None:
        x0, y0, x1, y1 = GRID_BOX
        writes.append((GRID_BOX, park[y0:y1, x0:x1]))
        shown = _EMPTY_GRID
    for before, after in zip(shown, dogs, strict=True):
        if before == after:
            continue
        if before is not None:
            x0, y0, x1, y1 = box = dog_box(before)
            writes.append((box, park[y0:y1, x0:x1]))
        if after is not None:
            pixels = _dog_pixels(after)
            x0, top, x1, _ = dog_box(after)
            for band in pixels if isinstance(pixels, tuple) else (pixels,):  # rows, top to bottom
                bottom = top + band.shape[0]
                writes.append(((x0, top, x1, bottom), band))
                top = bottom
    return writes


_paint_dogs.changes = _dog_changes  # type: ignore[attr-defined]  # the scene writes only the dogs that changed

_EMPTY_GRID: Dogs = (None,) * len(CELL_BOXES)


def _grid_layer(dogs: list[dict[str, Any]], places: list[list[Any]]) -> dict[str, Layer]:
    """The grid layer of one set of dogs."""
    cells: list[Placement | None] = list(_EMPTY_GRID)
    for dog, (cell, dx, dy, size) in zip(dogs, places, strict=True):
        cell = int(cell)
        cells[cell] = placement(dog["coat"], dog["pose"], dog["facing"], cell, dx, dy, size)
    return {"dogs": Layer(GRID_BOX, tuple(cells), _paint_dogs)}


Grid = tuple[list[dict[str, Any]], list[list[Any]], dict[str, Layer]]
"""(dogs, places, grid layer) of an episode drawn: copies of the state's lists, and its layer."""

_last_grid: Grid | None = None
"""The grid drawn last from plain lists (a `visible_state()`, a state made by hand): every
step of an episode draws the same dogs with a new timer, and comparing two short lists costs
a tenth of making the layers again. An environment's own state (`DogPuzzle.drawn_state`)
does not come here: its lists are frozen, and keep their grid themselves (`_layers`)."""

@lru_cache(maxsize=2048)
def _countdown(shown: str, disarmed: bool) -> dict[str, Layer]:
    """The timer and lamp layers, the same objects for a recurring reading."""
    return countdown_layers(shown, disarmed, lamp_x=240)


def _layers(state: dict[str, Any]) -> dict[str, Layer]:
    """The layers of a state: the grid made once per set of dogs, and the countdown's. An
    environment's state shares the puzzle's frozen lists (`comma_env.protocol.frozen`), which
    cannot change: the grid is kept on the places list itself (its `memo`, with the dogs list it
    goes with), so every environment finds its own at once, however many take turns in one
    process, and it goes away with the puzzle. It replaced a cache of the latest 32 episodes'
    grids, filed by value with copies of their lists, whose upkeep (dropping a grid unused for
    32 episodes, copying and comparing the lists) cost more than placing the dogs: in three
    alternating process pairs of a Gymnasium loop, the image step went from 92.5-94.7 to
    90.1-91.8 us per learner step, and its excess over the text step from 21.3-22.6 to
    19.5-21.0 us. Plain lists (a `visible_state()`, a state made by hand) may change in
    place, so they are compared with copies of the last ones drawn."""
    global _last_grid
    dogs, places = state["dogs"], state["dog_places"]
    if type(places) is FrozenList and type(dogs) is FrozenList:
        memo = places.memo
        if memo is None or memo[0] is not dogs:
            memo = places.memo = (dogs, _grid_layer(dogs, places))
        grid = memo[1]
    else:
        seen = _last_grid
        if seen is None or seen[1] != places or seen[0] != dogs:  # places first: their floats differ at once
            seen = _last_grid = ([dict(dog) for dog in dogs], [list(place) for place in places],
                                 _grid_layer(dogs, places))
        grid = seen[2]
    layers = dict(grid)
    layers.update(_countdown(state["timer"], bool(state.get("module_disarmed"))))
    return layers


draw_dog = Scene(DogPuzzle.image_size, _template, _layers)
