"""Incremental drawing: a picture as a static background plus keyed layers.

Redrawing a whole 512x512 frame on every state change cost 72-92% of an image-view step.
A `Scene` describes a puzzle's picture as a cached background and named `Layer`s, each a
box, a hashable key and a paint function that draws the key's content inside the box. The
next frame is the previous frame with only the boxes of layers whose key changed
repainted: in place when no observation array of the previous frame is alive any more
(`comma_env.drawing.watched`); else, when the caller's frame before it (its `spare`) is free, into
that one, first caught up with the boxes the previous frame changed (a loop that keeps the
last observation alternates between two arrays); else onto a copy (a contiguous memcpy). So
an array handed out is never modified while anyone can see it. Memory a caller owns (a
vector env's rows of shared memory) is repainted by `frame_into`, from what it showed last.
A repainted box is rebuilt from the background and every layer that intersects it, in
order, so layers may overlap. Patches (the RGB pixels of one box for one combination of
keys) are kept in a small shared LRU, because pressed buttons, cut wires and screens recur
across steps and episodes.

Contract for a layer (tested for every puzzle): its paint depends only on its key and draws
nothing outside its box. A paint function may also carry a ``pixels(key)`` attribute
returning the read-only RGB array of the whole box (an opaque raster such as a photo): when
that layer alone covers a repainted box, its pixels are copied without drawing. Or it may
carry ``changes(shown, key)``: the writes, in order, that turn its box from showing key
`shown` (None: not known, so the whole box must be written; such a layer's keys are never
None) into showing `key`, as (box, read-only RGB pixels) pairs, each box inside the layer's
box and the picture. Sprites on a plain background use it, such as Dog's dogs in their grid
cells: when such a layer alone in its box changes, only what it says is written (the
background over the old dogs' boxes, then the new dogs), not the whole box. A scene reads
these two attributes once per paint function, so set them where the function is defined.
Then the incremental frame equals the full redraw pixel for pixel, and drawing stays a pure
function of `visible_state()`.

Adopting it in a new puzzle (the full-redraw fallback needs nothing: a plain
``draw(state) -> PIL.Image`` function named by a `PuzzleSpec` still works)::

    def _layers(state):
        return {"display": Layer((70, 60, 442, 150), state["display_text"], _paint_display),
                **{f"button_{i}": Layer(box(i), label, _paint_button) for i, label in ...}}

    draw_who = Scene((512, 512), _background, _layers)   # callable: state -> PIL image

Layers made once per key and reused (an ``lru_cache`` around a function returning the
layer, as the built-in puzzles do) are recognised by identity: an unchanged one without
comparing keys, and a changed one's cached patch without hashing its key.
"""

from __future__ import annotations

import importlib
import pickle
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image, ImageDraw

from comma_env.drawing.layout import Box, DiffLists, Geometry, Layer, Paint, clip, diff_lists
from comma_env.drawing.watched import WatchedMemory

__all__ = ["PATCHES", "Box", "Frame", "Layer", "Paint", "Scene", "rgb_copy"]

PATCH_CACHE_BYTES = 48 * 2**20
"""Budget of the LRU of repainted boxes, shared by every environment of the process."""


@dataclass(eq=False)
class Frame:
    """A finished picture: its pixels (`pixels`, memory that the scene writes and hands out
    only as read-only views, `array`) and the layers it shows (what the next frame is
    diffed against).

    Whoever holds a frame holds the current picture of one drawing sequence: when the next
    frame repaints the memory in place (no view of it is alive), it is this same object,
    its `layers` updated, so a frame's pixels and layers always agree."""

    scene: Scene
    pixels: WatchedMemory
    layers: Mapping[str, Layer]
    base: Mapping[str, Layer] | None = None
    """The layers whose picture `written` was painted over to make this one (None: not known).
    A frame showing exactly `base` catches up with this one by taking the same patches,
    without diffing the two sets of layers."""
    written: Mapping[Box, np.ndarray] | None = None
    """The patches (clipped box -> RGB pixels) painted over `base`'s picture, in order."""
    geometry: Geometry | None = None
    """Where `layers` lie (reused by the next frame when no layer moved, came or went)."""

    @property
    def array(self) -> np.ndarray:
        """The picture as a read-only, contiguous RGB array: the observation. While it (or
        any array taken from it) is alive, the scene does not write into this memory."""
        return self.pixels.view()

    def __getstate__(self) -> dict[str, Any]:
        # a copy's memory is other memory: the history above no longer describes how it was made
        return {**self.__dict__, "base": None, "written": None, "geometry": None}


IN_PLACE_REPAINT: bool = True
"""True: a frame's memory that no observation views any more is repainted in place (see
`comma_env.drawing.watched`, which tells on any interpreter). False (for measurements): every
new frame is drawn on a copy, and so is an unchanged picture asked for in another array
(`fresh`): a whole-frame memcpy per step of a Gymnasium loop; observations are the same."""


def _module_attribute(module: str, name: str) -> Any:
    return getattr(importlib.import_module(module), name)


def rgb_copy(rgba: np.ndarray) -> np.ndarray:
    """Contiguous RGB copy of an RGBA array (channel by channel: about 4x faster than
    numpy's copy of a strided ``rgba[..., :3]`` view)."""
    out = np.empty(rgba.shape[:2] + (3,), dtype=np.uint8)
    for channel in range(3):
        out[..., channel] = rgba[..., channel]
    return out


def _write(pixels: WatchedMemory, patches: Mapping[Box, np.ndarray], skip: Mapping[Box, Any] | None = None) -> int:
    """Write `patches` (box -> RGB pixels, in order) into the memory of `pixels`, except
    boxes in `skip`; return the bytes written. Into the memory's kept views of the boxes
    (`WatchedMemory.regions`) while it keeps them."""
    memory, regions = pixels.memory, pixels.regions
    written = 0
    for box, patch in patches.items():
        if skip is not None and box in skip:
            continue
        if regions is not None:
            region = regions.get(box)
            if region is None:
                region = pixels.region(box)
                regions = pixels.regions
            region[...] = patch
        else:
            x0, y0, x1, y1 = box
            memory[y0:y1, x0:x1] = patch
        written += patch.nbytes
    return written


LAYERS_PER_KEY = 4
"""Layer objects the patch cache indexes per key (see `_PatchCache`)."""


class _PatchCache:
    """LRU of read-only RGB patches, bounded in bytes.

    A second index finds the patch of a layer drawn alone in its box by the layer object's
    identity (most puzzles make a layer once per key and reuse it), without hashing the
    layer's key: at most `LAYERS_PER_KEY` layer objects per cached key (equal layers made
    apart, or made anew on every call), dropped with the key, so it holds no patch the cache
    does not; an entry holds its layer, so the id is not reused while it is kept. A hit
    through it marks the entry used instead of moving it (which would hash the key): an
    evicted entry marked used since gets a second chance at the young end."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._entries: OrderedDict[Hashable, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._by_layer: dict[int, list[Any]] = {}  # id(layer) -> [layer, patch, key, scene id, used since]
        self._layers_of: dict[Hashable, list[int]] = {}  # key -> ids of the layers indexed for it, oldest first

    def get(self, key: Hashable) -> np.ndarray | None:
        with self._lock:
            patch = self._entries.get(key)
            if patch is not None:
                self._entries.move_to_end(key)
            return patch

    def get_many(self, keys: Sequence[Hashable]) -> list[np.ndarray | None]:
        """`get` of each key, under one acquisition of the lock."""
        entries = self._entries
        with self._lock:
            found = [entries.get(key) for key in keys]
            for key, patch in zip(keys, found, strict=True):
                if patch is not None:
                    entries.move_to_end(key)
        return found

    def put(self, key: Hashable, patch: np.ndarray) -> None:
        if patch.nbytes > self.budget // 8:
            return
        with self._lock:
            if key in self._entries:
                return
            self._entries[key] = patch
            self.used += patch.nbytes
            while self.used > self.budget:
                old_key, old = self._entries.popitem(last=False)
                layer_ids = self._layers_of.get(old_key)
                if layer_ids is not None:
                    entries = [self._by_layer[layer_id] for layer_id in layer_ids]
                    if any(entry[4] for entry in entries):  # used through the layer index since: a second chance
                        for entry in entries:
                            entry[4] = False
                        self._entries[old_key] = old
                        continue
                    del self._layers_of[old_key]
                    for layer_id in layer_ids:
                        del self._by_layer[layer_id]
                self.used -= old.nbytes

    def of_layer(self, scene_id: int, layer: Any) -> np.ndarray | None:
        """The cached patch of this very layer object, alone in its box in scene `scene_id`,
        if `remember_layer` indexed it and the cache still holds it."""
        entry = self._by_layer.get(id(layer))
        if entry is None or entry[0] is not layer or entry[3] != scene_id:
            return None
        entry[4] = True
        return entry[1]

    def remember_layer(self, key: tuple[int, Box, tuple[Any, ...]], layer: Any) -> None:
        """Index the cached patch under `key` (scene id, box, (layer,)) by `layer`'s identity,
        in place of the layer indexed for that key before (if the cache holds the key)."""
        with self._lock:
            patch = self._entries.get(key)
            if patch is None:
                return
            taken = self._by_layer.pop(id(layer), None)  # this layer object under another key
            if taken is not None:
                others = self._layers_of[taken[2]]
                others.remove(id(layer))
                if not others:
                    del self._layers_of[taken[2]]
            layer_ids = self._layers_of.setdefault(key, [])
            if len(layer_ids) >= LAYERS_PER_KEY:
                del self._by_layer[layer_ids.pop(0)]
            layer_ids.append(id(layer))
            self._by_layer[id(layer)] = [layer, patch, key, key[0], False]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._by_layer.clear()
            self._layers_of.clear()
            self.used = 0


PATCHES = _PatchCache(PATCH_CACHE_BYTES)


_PAINT_KINDS: dict[Any, tuple[Any, Any]] = {}
"""A paint function's ``pixels`` and ``changes`` attributes (None where it has none), read
once per function: two ``getattr`` with a default cost more than a dictionary lookup, for
every repainted layer."""


def _paint_kind(paint: Paint) -> tuple[Any, Any]:
    try:
        kind = _PAINT_KINDS.get(paint)
    except TypeError:  # an unhashable callable (an instance with __eq__): read them every time
        return getattr(paint, "pixels", None), getattr(paint, "changes", None)
    if kind is None:
        if len(_PAINT_KINDS) >= 4096:  # paints made anew (closures): keep the memory bounded
            _PAINT_KINDS.clear()
        kind = _PAINT_KINDS[paint] = (getattr(paint, "pixels", None), getattr(paint, "changes", None))
    return kind


class Scene:
    """A puzzle's picture: `background()` (a cached, state-independent image) and
    `layers(state)` (name -> `Layer`). Calling the scene draws the full picture as a PIL
    image; `frame` draws it as an observation array, incrementally from a previous frame."""

    def __init__(self, size: tuple[int, int], background: Callable[[], Image.Image],
                 layers: Callable[[dict[str, Any]], dict[str, Layer]]) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.background = background
        self.layers = layers
        self._background_arrays: tuple[np.ndarray, np.ndarray] | None = None
        self._local = threading.local()
        self._latest: Frame | None = None  # the last frame drawn by any environment
        self._latest_owned: Callable[[], Frame | None] = lambda: None
        """The last frame drawn by `frame_into` (read only under `_lock`), weakly: it is a row
        of someone's buffers, which a strong reference would keep alive after they close."""
        self._lock = threading.Lock()  # guards `_latest` and in-place repaints across threads
        self._geometries: dict[tuple[Box, ...], Geometry] = {}
        self.bytes_written = 0
        """Bytes written into observation arrays so far, by every environment drawing with
        this scene (whole-frame copies, patches, catch-ups): what the incremental path costs
        in memory traffic, for benchmarks (`examples/benchmark_envs.py --image-step`)."""

    # -- copies and pickles: a scene is a module-level constant, shared by reference ----------
    # A scene's state is its description (size, background, layers: fixed once made) and
    # caches that every user may share: the background arrays and geometries (pure functions
    # of the description), the per-thread scratch canvas, and `_latest`, guarded by `_lock`.
    # Frames, which do change, belong to environments, not to the scene. So a copy would be
    # the same drawing with cold caches: `copy` and `deepcopy` return the scene itself, as
    # they do for other immutable values, and a cloned environment draws with it.
    def __copy__(self) -> Scene:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Scene:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        module = sys.modules[self.layers.__module__]
        for name, value in vars(module).items():
            if value is self:
                return _module_attribute, (module.__name__, name)
        raise pickle.PicklingError("a Scene pickles by reference: assign it to a module-level name")

    # -- the full redraw (the reference the incremental path must equal) ---------------------
    def __call__(self, state: dict[str, Any]) -> Image.Image:
        """The whole picture for `state`, drawn from scratch (an RGB image)."""
        image = self.background().convert("RGB")
        draw = ImageDraw.Draw(image)
        for layer in self.layers(state).values():
            layer.paint(image, draw, layer.key)
        return image

    def full_array(self, state: dict[str, Any]) -> np.ndarray:
        """`self(state)` as a contiguous RGB array (for tests and benchmarks)."""
        return np.asarray(self(state), dtype=np.uint8)

    # -- the incremental path ----------------------------------------------------------------
    def frame(self, state: dict[str, Any], previous: Frame | None = None, spare: Frame | None = None,
              fresh: bool = False) -> Frame:
        """The picture of `state`: `previous` (the caller's own last frame, or None for a new
        drawing sequence) with only the changed layers repainted.

        Observations handed out stay valid: the previous frame's memory is repainted in place
        only when no array viewing it is alive (`WatchedMemory.held`), and then `previous`
        itself is returned with its layers updated. Else, when the caller passes `spare`
        (its own frame before `previous`) and no array views the spare's memory, the spare
        is repainted in place instead, from its own layers: a loop that keeps the
        previous observation (as Gymnasium loops do) then alternates between two arrays and
        never copies a whole frame. Otherwise the result is a new frame on a copy. When
        nothing changed since `previous`, the same read-only array is returned, unless
        `fresh` asks for another array (Gymnasium promises new data on every call): then the
        spare caught up with `previous`, else a copy. A new sequence (no `previous`) starts
        on a copy of the latest frame of any environment, never on its memory.
        """
        return self._draw(self.layers(state), previous, spare, fresh)

    def refresh(self, previous: Frame, spare: Frame | None = None) -> Frame:
        """`previous`'s picture in another array, as `frame(state, previous, spare,
        fresh=True)` for the state `previous` shows, without computing its layers again (the
        caller knows nothing changed): the spare caught up with it when free, else a copy."""
        if previous.scene is not self:
            raise ValueError("refresh needs a frame of this scene")
        with self._lock:  # the decision and the handing out are one step for other threads, as in `_draw`
            if (IN_PLACE_REPAINT and spare is not None and spare.scene is self and spare.pixels is not previous.pixels
                    and (spare.layers is previous.layers or (spare.layers is previous.base and not previous.written))
                    and not spare.pixels.held()):
                # The spare already shows this picture (the second unchanged step in a row) and
                # nobody holds it: it is handed out as it is, with nothing written. (Held, it would
                # be the same memory in two observations someone keeps, which Gymnasium forbids.)
                spare.base, spare.layers, spare.written = previous.layers, previous.layers, {}
                spare.geometry = previous.geometry
                self._latest = spare
                return spare
        return self._draw(previous.layers, previous, spare, fresh=True)

    def _draw(self, layers: Mapping[str, Layer], previous: Frame | None, spare: Frame | None,
              fresh: bool) -> Frame:
        """`frame` for already computed `layers`."""
        mine = previous if previous is not None and previous.scene is self else None  # our own last frame
        start: np.ndarray | None = None  # bound only when not our own: a view would keep ours from repaints
        if mine is None:
            with self._lock:  # a new sequence starts from the latest frame of any environment,
                previous = self._latest  # and this view keeps its owner from repainting it
                start = None if previous is None else previous.array
        if previous is None:
            geometry = self._geometry(tuple([layer.box for layer in layers.values()]))
            patches = {(0, 0) + self.size: self._paint_patch((0, 0) + self.size, tuple(layers.values()), None)}
        else:
            if layers is previous.layers:  # a refresh; listed all the same: an unpickled frame has no geometry
                found: DiffLists = ([], [], True, None, list(layers.values()))
            else:
                found = diff_lists(previous.layers, layers)
            if not found[0] and not found[1] and not fresh and mine is not None:
                # the same memory in a second frame of this drawing sequence (the first is dropped).
                # Never another environment's: its frame would then see this one's in-place repaints
                unchanged = Frame(self, previous.pixels, layers, previous.base, previous.written, previous.geometry)
                with self._lock:
                    self._latest = unchanged
                return unchanged
            patches, geometry = self._repaints(found, previous.geometry)
        with self._lock:  # the decision and the writes are one step for other threads
            written = 0
            # a frame's memory is never handed out (only read-only views of it), so it stays writable
            if mine is not None and not fresh and IN_PLACE_REPAINT and not mine.pixels.held():
                result = mine
            elif (mine is not None and IN_PLACE_REPAINT and spare is not None and spare.scene is self
                  and spare.pixels is not mine.pixels and not spare.pixels.held()):
                result = spare
                if spare.layers is mine.base and mine.written is not None:  # it showed what `mine` was painted over
                    written = _write(spare.pixels, mine.written, patches)
                else:
                    written = self._catch_up(result, mine, patches)
            else:
                if start is None:
                    start = self._backgrounds()[1] if previous is None else previous.pixels.memory
                result = Frame(self, WatchedMemory(start.copy()), layers)
                written = start.nbytes
            written += _write(result.pixels, patches)
            self.bytes_written += written
            result.base = None if previous is None else previous.layers
            result.layers, result.written, result.geometry = layers, patches, geometry
            self._latest = result
        return result

    def frame_into(self, state: dict[str, Any], target: Frame | np.ndarray) -> Frame:
        """The picture of `state` drawn into memory its caller owns and never hands out while
        this runs (a vector env's row of shared memory): `target` is the frame this method
        returned for that memory last time, whose layers say what it shows, so only the
        layers that differ are repainted; or, the first time, the memory itself (writable,
        C-contiguous, RGB of the scene's size), then started from a copy of the latest frame
        drawn this way, else of the latest an environment drew for itself, else of the
        background. Returns the frame the memory now shows.

        Why: a worker that drew each environment's own frame and then copied it into shared
        memory paid a whole-frame copy per environment step, about a third of a Wire image
        step there; diffing against what the row showed writes only the boxes that changed."""
        layers = self.layers(state)
        with self._lock:  # the latest frame may be repainted in place by its owner meanwhile
            if isinstance(target, Frame):
                if target.scene is not self:
                    raise ValueError("frame_into needs a frame of this scene, or the memory itself")
                frame, shown, memory, written = target, target.layers, target.pixels.memory, 0
            else:
                frame, memory = Frame(self, WatchedMemory(target), {}), target
                latest = self._latest_owned() or self._latest
                if latest is None:
                    memory[...] = self._backgrounds()[1]
                    shown = {}
                else:
                    memory[...] = latest.pixels.memory
                    shown = latest.layers
                written = memory.nbytes
            if layers is not shown:
                if shown:
                    found = diff_lists(shown, layers)
                else:  # the background: every layer is new
                    found = (list(range(len(layers))), [], False, None, list(layers.values()))
                patches, frame.geometry = self._repaints(found, frame.geometry)
                written += _write(frame.pixels, patches)
            frame.base, frame.layers, frame.written = None, layers, None
            self.bytes_written += written
            # not `_latest`: a new sequence in another thread reads that memory between two
            # acquisitions of the lock, and nothing would keep this from repainting it meanwhile
            self._latest_owned = weakref.ref(frame)
        return frame

    def _repaints(self, found: DiffLists, geometry: Geometry | None) -> tuple[dict[Box, np.ndarray], Geometry]:
        """The patches that turn a picture into another (what `diff_lists` `found` between
        their layers), and where the new layers lie: `geometry`, the old picture's, when the layout
        is the same and it is known."""
        dirty, vacated, same_layout, olds, ordered = found
        if not same_layout or geometry is None:
            geometry = self._geometry(tuple([layer.box for layer in ordered]))
        return (self._patches(geometry, ordered, dirty, vacated, olds) if dirty or vacated else {}), geometry

    def _catch_up(self, spare: Frame, previous: Frame, patches: Mapping[Box, np.ndarray]) -> int:
        """Make the spare's pixels those of `previous`, except in the boxes of `patches`
        (painted over next), and return the bytes written, when the spare does not show what
        `previous` was painted over (then `_draw` writes `previous`'s own patches again): by
        copying every box in which their layers differ from `previous`."""
        array = spare.pixels.memory
        written = 0
        width, height = self.size
        dirty, vacated, _, _, ordered = diff_lists(spare.layers, previous.layers)
        for box in [ordered[i].box for i in dirty] + vacated:
            clipped = clip(box, width, height)
            if clipped not in patches:  # else painted over below (a box the step repaints whole)
                x0, y0, x1, y1 = clipped
                array[y0:y1, x0:x1] = source = previous.pixels.memory[y0:y1, x0:x1]
                written += source.nbytes
        return written

    def _patches(self, geometry: Geometry, ordered: list[Layer], dirty: list[int],
                 vacated: list[Box], olds: list[Layer] | None = None) -> dict[Box, np.ndarray]:
        """The pixels to write (clipped box -> RGB, each box once): for the layers `ordered`
        (by position), a patch for the box of every layer at a position in `dirty`, and for
        each box in `vacated` the layers now lying there repainted whole and the rest of it
        background. A layer with ``changes`` alone in its box writes what it says turns its
        old key (from `olds`, the previous layers by position, when the same paint drew it;
        else None) into its new one.

        Painting a vacated box as one patch would key it by every layer under it, in
        combinations that seldom recur (a box of a four-LED row under a five-LED row): the
        cache filled with them and missed. The pieces of background never overlap a patch,
        so the order of writes does not matter."""
        background: dict[Box, np.ndarray] | None = None
        if vacated:
            dirty = list(dirty)
            background = {}
            rgb = self._backgrounds()[1]
            for vacate in map(geometry.vacate, vacated):
                if vacate is not None:
                    dirty.extend(vacate[0])
                    for x0, y0, x1, y1 in vacate[1]:
                        background[(x0, y0, x1, y1)] = rgb[y0:y1, x0:x1]
        by_index, alone, scene_id = geometry.by_index, geometry.alone, id(self)
        patches: dict[Box, np.ndarray | None] = {}
        keys: list[tuple[int, Box, tuple[Layer, ...]]] = []
        done: set[Box] = set()  # boxes handled that another dirty layer may name again
        for index in dirty:
            place = by_index[index]
            if place is None:
                continue
            box, indices = place
            layer = ordered[index]
            if alone[index]:
                if vacated:  # a layer may be named twice: once dirty, once under a vacated box
                    if box in done:
                        continue
                    done.add(box)
                paint = layer.paint
                pixels, changes = _paint_kind(paint)
                if pixels is not None:  # an opaque raster filling its box
                    patches[box] = pixels(layer.key)
                    continue
                if changes is not None:  # the layer says what to write (sprites on a background)
                    old = olds[index] if olds is not None else None
                    shown = old.key if old is not None and old.paint is paint else None
                    for piece, piece_pixels in changes(shown, layer.key):
                        patches.pop(piece, None)  # a box written twice: the later write, after the others
                        patches[piece] = piece_pixels
                    continue
                known = PATCHES.of_layer(scene_id, layer)  # this very layer object drawn before
                if known is not None:
                    patches[box] = known
                    continue
                keys.append((scene_id, box, (layer,)))
            else:
                if box in done:  # another dirty layer of this group repainted it
                    continue
                done.add(box)
                keys.append((scene_id, box, tuple([ordered[i] for i in indices])))
            patches[box] = None  # found or painted below
        if keys:
            found = PATCHES.get_many(keys) if len(keys) > 1 else [PATCHES.get(keys[0])]
            for key, patch in zip(keys, found, strict=True):
                patches[key[1]] = patch = self._paint_patch(key[1], key[2], key) if patch is None else patch
                if len(key[2]) == 1:
                    PATCHES.remember_layer(key, key[2][0])
        if background:
            patches.update(background)
        return patches  # type: ignore[return-value]  # every None was replaced above

    def _paint_patch(self, box: Box, touching: tuple[Layer, ...], key: Hashable | None) -> np.ndarray:
        """RGB pixels of `box`, drawn: the background plus `touching` (every layer whose box
        overlaps it), in order; kept in the patch cache under `key` unless it is None."""
        image, draw, pixels = self._scratch()
        x0, y0, x1, y1 = box
        pixels[y0:y1, x0:x1] = self._backgrounds()[0][y0:y1, x0:x1]
        for layer in touching:
            layer.paint(image, draw, layer.key)
        patch = rgb_copy(pixels[y0:y1, x0:x1])
        patch.flags.writeable = False
        if key is not None:
            PATCHES.put(key, patch)
        return patch

    def _geometry(self, layer_boxes: tuple[Box, ...]) -> Geometry:
        geometry = self._geometries.get(layer_boxes)
        if geometry is None:
            if len(self._geometries) >= 256:  # layouts that never repeat: keep the memory bounded
                self._geometries.clear()
            geometry = self._geometries[layer_boxes] = Geometry(layer_boxes, *self.size)
        return geometry

    def _backgrounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The background as RGBA (to reset the scratch) and as contiguous RGB (to start a
        frame), converted once."""
        if self._background_arrays is None:
            rgba = np.asarray(self.background().convert("RGBA")).copy()
            if rgba.shape[:2] != (self.size[1], self.size[0]):
                raise ValueError(f"background is {rgba.shape[1]}x{rgba.shape[0]}, scene is {self.size}")
            rgb = rgb_copy(rgba)
            rgba.flags.writeable = rgb.flags.writeable = False
            self._background_arrays = (rgba, rgb)
        return self._background_arrays

    def _scratch(self) -> tuple[Image.Image, ImageDraw.ImageDraw, np.ndarray]:
        """A per-thread RGBA canvas whose pixels live in a numpy array (Pillow draws into it)."""
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            pixels = self._backgrounds()[0].copy()
            width, height = self.size
            image = Image.frombuffer("RGBA", (width, height), pixels, "raw", "RGBA", 0, 1)
            image.readonly = 0  # draw into `pixels` itself
            scratch = (image, ImageDraw.Draw(image), pixels)
            self._local.scratch = scratch
        return scratch
