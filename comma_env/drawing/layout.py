"""Where a scene's layers lie and what changed between two sets of them.

`comma_env.drawing.scene` repaints only what changed; this module says what that is: which
layers differ (`diff`), which layers overlap a box (`Geometry`, computed once per layout),
and which parts of a box a layer left show the background (`subtract`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from itertools import compress
from operator import ne
from typing import Any, NamedTuple

import numpy as np
from PIL import Image, ImageDraw

Box = tuple[int, int, int, int]
"""(x0, y0, x1, y1) in pixels, x1/y1 exclusive."""
Paint = Callable[[Image.Image, ImageDraw.ImageDraw, Any], None]
"""A layer's paint function, called as ``paint(image, draw, key)``; it draws the layer for `key`
(`draw` draws on `image`)."""

VACATED_BOXES = 4096
"""Boxes a layer left whose repaint a `Geometry` keeps (then it starts again)."""


class Layer(NamedTuple):
    """One independently redrawn part of a picture."""

    box: Box
    key: Hashable
    paint: Paint


def _overlaps(boxes: list[Box], layer_boxes: list[Box]) -> list[tuple[int, ...]]:
    """For each box, the indices (in order) of the layer boxes overlapping it: one
    vectorised test of every box against every layer (a maze has about a hundred)."""
    if len(boxes) * len(layer_boxes) <= 256:  # few: plain Python beats building arrays
        return [tuple(i for i, (a0, b0, a1, b1) in enumerate(layer_boxes)
                      if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1)
                for x0, y0, x1, y1 in boxes]
    a = np.array(boxes, dtype=np.int64)[:, None, :]
    b = np.array(layer_boxes, dtype=np.int64)[None, :, :]
    hits = (a[..., 0] < b[..., 2]) & (b[..., 0] < a[..., 2]) & (a[..., 1] < b[..., 3]) & (b[..., 1] < a[..., 3])
    return [tuple(int(i) for i in np.flatnonzero(row)) for row in hits]


class Geometry:
    """Where a set of layers lies: for each layer's box, its part inside the picture and the
    positions of the layers overlapping that part. A puzzle has few layouts (each built-in
    puzzle has one: Wire's six wire slots whatever the wire count, Maze's squares) while boxes
    are repainted on every step, so the overlap test runs once per layout."""

    def __init__(self, layer_boxes: tuple[Box, ...], width: int, height: int) -> None:
        self.layer_boxes = list(layer_boxes)
        self.size = (width, height)
        self._vacated: dict[Box, tuple[tuple[int, ...], tuple[Box, ...]] | None] = {}
        boxes = list(dict.fromkeys(layer_boxes))
        visible = {box: clipped for box in boxes
                   if (clipped := clip(box, width, height))[0] < clipped[2] and clipped[1] < clipped[3]}
        places: dict[Box, tuple[Box, tuple[int, ...]] | None] = dict.fromkeys(boxes)
        overlaps = _overlaps(list(visible.values()), self.layer_boxes)
        for (box, clipped), indices in zip(visible.items(), overlaps, strict=True):
            places[box] = clipped, indices  # one vectorised test for all layers
        self.by_index = [places[box] for box in layer_boxes]
        """For each layer, by position: (its box clipped to the picture, the positions of
        the layers overlapping that part), or None when nothing of it is visible."""
        self.alone = [place is not None and len(place[1]) == 1 and place[0] == box
                      for place, box in zip(self.by_index, layer_boxes, strict=True)]
        """For each layer, by position: whether it lies inside the picture with no other layer
        overlapping it (its patch then depends on it alone)."""

    def vacate(self, box: Box) -> tuple[tuple[int, ...], tuple[Box, ...]] | None:
        """For a box a layer left: (the layers now overlapping it, to repaint whole; the
        pieces of it outside them, which show the background), or None when nothing of it
        is visible; computed once per box (at most `VACATED_BOXES` kept)."""
        try:
            return self._vacated[box]
        except KeyError:
            pass
        clipped = clip(box, *self.size)
        result = None
        if clipped[0] < clipped[2] and clipped[1] < clipped[3]:
            indices = _overlaps([clipped], self.layer_boxes)[0]
            result = indices, tuple(subtract(clipped, [self.layer_boxes[i] for i in indices]))
        if len(self._vacated) >= VACATED_BOXES:  # boxes that never repeat: keep the memory bounded
            self._vacated.clear()
        self._vacated[box] = result
        return result


DiffLists = tuple[list[int], list[Box], bool, list[Layer] | None, list[Layer]]
"""`diff_lists`' answer: (dirty, vacated, same layout, the old layers by position when the
layout is the same, else None; the new layers by position)."""


def diff(old: Mapping[str, Layer], new: Mapping[str, Layer]) -> tuple[list[int], list[Box], bool]:
    """What turns `old`'s picture into `new`'s: (the positions in `new` of the layers to
    repaint; the boxes some layer left, moved or removed, unclipped and maybe repeated;
    whether the layout is the same: the same names in the same order, no box moved)."""
    dirty, vacated, same_layout, _, _ = diff_lists(old, new)
    return dirty, vacated, same_layout


def diff_lists(old: Mapping[str, Layer], new: Mapping[str, Layer]) -> DiffLists:
    """`diff`, plus the lists of layers it made on the way, which the scene needs next: so
    a frame lists each mapping's layers once."""
    dirty: list[int]
    vacated: list[Box]
    news = list(new.values())
    if len(old) == len(new) and list(old) == list(new):  # the same names in the same order
        olds = list(old.values())
        # compared in C (a tuple compares its items by identity first), positions of the others
        dirty = list(compress(range(len(news)), map(ne, news, olds)))
        vacated = []
        for index in dirty:  # a loop, not a comprehension: on every step, and 3.11 makes a function of one
            box = olds[index].box
            if box != news[index].box:
                vacated.append(box)
        return dirty, vacated, not vacated, olds, news
    dirty, vacated = [], []
    for index, (name, layer) in enumerate(new.items()):
        before = old.get(name)
        if before is None:
            dirty.append(index)
        elif before is not layer and before != layer:
            dirty.append(index)
            if before.box != layer.box:
                vacated.append(before.box)
    for name, layer in old.items():
        if name not in new:
            vacated.append(layer.box)
    return dirty, vacated, False, None, news


def subtract(box: Box, cutters: list[Box]) -> list[Box]:
    """`box` minus the union of `cutters`, as disjoint boxes."""
    pieces = [box]
    for cx0, cy0, cx1, cy1 in cutters:
        remaining = []
        for piece in pieces:
            x0, y0, x1, y1 = piece
            if not (cx0 < x1 and x0 < cx1 and cy0 < y1 and y0 < cy1):
                remaining.append(piece)
                continue
            if y0 < cy0:
                remaining.append((x0, y0, x1, cy0))
            if cy1 < y1:
                remaining.append((x0, cy1, x1, y1))
            top, bottom = max(y0, cy0), min(y1, cy1)
            if x0 < cx0:
                remaining.append((x0, top, cx0, bottom))
            if cx1 < x1:
                remaining.append((cx1, top, x1, bottom))
        pieces = remaining
    return pieces


def clip(box: Box, width: int, height: int) -> Box:
    x0, y0, x1, y1 = box
    return max(0, int(x0)), max(0, int(y0)), min(width, int(x1)), min(height, int(y1))
