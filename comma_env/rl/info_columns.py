"""Merged vector-env infos packed for the pipe between a worker and the main process.

A vector env's infos are merged the Gymnasium way (one array per key, a ``_key`` mask beside
it). Pickling those arrays costs more than the data: numpy object arrays pickle element by
element through the array machinery, about 75 µs for eight Wire infos against 10 µs for the
same values as lists. And the main process, which every worker waits for, paid about 2 µs
per array to rebuild them: a Wire info has 68 (half of them masks).

So a worker merges and packs its share in one pass (`Packer`, by the rule of Gymnasium's
`VectorEnv._add_info`): every key of one number per environment goes into one 2-D block
per dtype (pickled as raw bytes), with the masks; every other key becomes a list of its
rows; and a layout (nested tuples of keys) says where each one went. A packer also sends
every key its share reported before and lacks now (zeros or None, mask False, marked in
`Packed.absent`), so the layout does not change with which episodes just ended: that key
set, not the values, is what differs between workers from step to step.

When every share has the same layout, the main process (`from_columns`) follows a recipe
made once per layout and set of keys no share really has (`_Recipe`): it joins each dtype's
blocks once, hands out each numeric column as a row view of the joined block, builds every
object column at once, and leaves out the keys nobody has. Otherwise it follows a plan made
once per combination of layouts (`_plan`), filling what a share lacks as Gymnasium does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

import numpy as np

Layout = tuple[tuple[str, tuple[Any, ...]], ...]
"""Key -> where its values are, in the packer's key order: ``("block", dtype, row)`` (a
row of the dtype's block), ``("list", dtype or None for objects, shape of one row, index)``
(an entry of `Packed.lists`) or ``("dict", Layout)`` (an info value that is a dict)."""

Path = tuple[str, ...]
"""Keys from the top of an info down to one value."""


PipedArray = tuple[str, tuple[int, ...], bytearray]
"""A numeric array as its dtype string, shape and bytes (`to_pipe`)."""


def to_pipe(array: np.ndarray) -> PipedArray:
    """A numeric array for pickling as raw bytes: numpy's own pickle of a small array took
    2.5 µs to load, the bytes 0.4, and the main process loads every worker's answer while
    the workers wait."""
    return array.dtype.str, array.shape, bytearray(array.tobytes())


def from_pipe(piped: PipedArray) -> np.ndarray:
    """`to_pipe`'s inverse: an array over the bytearray (writable, as Gymnasium's arrays are)."""
    dtype, shape, data = piped
    return np.frombuffer(data, dtype=dtype).reshape(shape)


class Packed(NamedTuple):
    """One share's merged infos, as a worker sends them."""

    layout: Layout
    blocks: dict[str, np.ndarray]
    """dtype string -> (columns, environments) array of the share's one-number columns."""
    lists: list[list[Any]]
    """The other columns' rows (objects, and numbers of more than one value per environment)."""
    absent: int = 0
    """The keys in the layout that no environment of the share has this step (sent as
    Gymnasium fills a missing key: zeros or None, mask False), as bits: bit ``i`` stands for
    the layout's ``i``-th entry in `walk` order. Bits, not paths: the main process intersects
    the shares' sets and looks up its recipe by them every step (`absent_paths` reads them)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _packed, (self.layout, [to_pipe(block) for block in self.blocks.values()], self.lists, self.absent)


def _packed(layout: Layout, blocks: list[PipedArray], lists: list[list[Any]], absent: int) -> Packed:
    """`Packed.__reduce__`'s inverse."""
    return Packed(layout, {piped[0]: from_pipe(piped) for piped in blocks}, lists, absent)


Column = tuple[str | None, tuple[int, ...], list[Any]]
"""An array as (dtype string, or None for objects; the shape of one row; its rows as a list)."""

_Seen = dict[str, Any]
"""Key -> (dtype string or None for objects, shape of one row) of its last array, or a nested
`_Seen` for a dict: the info keys (not their masks) a packer has met, in `_canonical` order."""


class Packer:
    """Merges and packs one share's infos step after step, sending every key met before.

    `pack` gives what Gymnasium's merge (`VectorEnv._add_info`, env by env) would, packed, in
    one pass over the infos: the merge itself had cost a sixth of a worker's step.

    With ``send_layouts_once`` a packed share carries its layout only when it differs from
    the last one packed, else None (unpickling the layout was a third of the main process's
    cost per share): the receiver keeps the last one (`Unpacker`). If what was packed never
    reached the receiver, `forget` makes the next one carry its layout again."""

    def __init__(self, send_layouts_once: bool = False) -> None:
        self._seen: _Seen = {}
        self._once = send_layouts_once
        self._sent: Layout | None = None
        self._last: Layout | None = None

    def pack(self, infos: Sequence[dict[str, Any]]) -> Packed:
        """The infos of the share's environments, in row order, for the pipe."""
        count = len(infos)
        block_rows: dict[str, list[list[Any]]] = {}
        lists: list[list[Any]] = []
        marks = _Marks()
        layout: Layout | None = _pack(list(infos), count, self._seen, block_rows, lists, marks)
        if layout == self._last:  # the same object as before: `from_columns` finds its recipe by identity
            layout = self._last
        else:
            self._last = layout
        if self._once:
            if layout is self._sent:
                layout = None
            else:
                self._sent = layout
        blocks = {}
        for dtype, rows in block_rows.items():  # one array per dtype, not one per key and mask
            if not rows:  # the masks of dicts that never had a key
                continue
            block = blocks[dtype] = np.empty((len(rows), count), dtype=dtype)
            block[...] = rows  # numpy's casting per element, as Gymnasium's assignments cast
        return Packed(layout, blocks, lists, marks.absent)  # type: ignore[arg-type]

    def forget(self) -> None:
        self._sent = None


_LAYOUTS: dict[Layout, Layout] = {}
"""Every layout received, once: equal layouts of two workers are then the same object, which
`from_columns` compares by identity."""


class Unpacker:
    """The receiving end of one `Packer` with ``send_layouts_once``: fills in the layout."""

    def __init__(self) -> None:
        self._layout: Layout | None = None

    def __call__(self, packed: Packed) -> Packed:
        if packed.layout is not None:
            if len(_LAYOUTS) >= 256:  # layouts that never repeat: keep the memory bounded
                _LAYOUTS.clear()
            self._layout = _LAYOUTS.setdefault(packed.layout, packed.layout)
        elif self._layout is None:
            raise RuntimeError("a share came without its layout, and none was received before")
        return packed._replace(layout=self._layout)


class _Marks:
    """Where a packer is in its layout's `walk` order, and the bits of the absent keys so far."""

    __slots__ = ("at", "absent")

    def __init__(self) -> None:
        self.at = 0
        self.absent = 0


_MISSING = object()
"""An environment's value of a key its info does not have."""

_BOOL = np.dtype(np.bool_).str
"""The masks' dtype."""


def _canonical(key: str) -> tuple[str, int]:
    """A key's place in a packer's order: by name, then by leading underscores (so each
    ``_key`` mask comes right after its key). The order of Gymnasium's merge depends on which
    environment reported a key first, so two workers' would differ."""
    name = key.lstrip("_")
    return name, len(key) - len(name)


def _columns(infos: list[dict[str, Any] | None],
             count: int) -> tuple[dict[str, list[Any]], dict[str, int], list[int]]:
    """Each key's values by environment (`_MISSING` where an environment lacks it), how many
    environments have it, and which environments have a non-empty info.

    Environments mostly report the same keys, and a few report a few more (the summary of an
    episode that just ended): the keys of the smallest info are read from every info with one
    `itemgetter` call and transposed by `zip`, and only the other keys value by value."""
    here = [index for index, info in enumerate(infos) if info]
    reported = [info for info in infos if info]
    columns: dict[str, list[Any]] = {}
    present: dict[str, int] = {}
    if not reported:
        return columns, present, here
    sizes = list(map(len, reported))
    base = reported[sizes.index(min(sizes))]
    keys = list(base)
    rows = _values_of(reported, keys)
    if rows is None:
        for index, info in zip(here, reported, strict=True):
            _gather(columns, present, count, index, info.items())
        return columns, present, here
    if len(here) == count:
        columns = dict(zip(keys, map(list, zip(*rows, strict=True)), strict=True))
    else:
        for key, values in zip(keys, zip(*rows, strict=True), strict=True):
            column = columns[key] = [_MISSING] * count
            for index, value in zip(here, values, strict=True):
                column[index] = value
    present = dict.fromkeys(keys, len(here))
    for index, info, size in zip(here, reported, sizes, strict=True):
        if size != len(keys):
            _gather(columns, present, count, index, [(key, info[key]) for key in info.keys() - base.keys()])
    return columns, present, here


def _values_of(infos: list[dict[str, Any]], keys: list[str]) -> list[tuple[Any, ...]] | None:
    """Each info's values of `keys`, in that order; None when some info lacks one of them (or
    there are fewer than two keys, or an info is a dict subclass, which may make a missing
    key on lookup, as a defaultdict does, instead of raising)."""
    if len(keys) < 2 or not all(type(info) is dict for info in infos):
        return None
    getter = itemgetter(*keys)
    try:
        return [getter(info) for info in infos]
    except KeyError:
        return None


def _gather(columns: dict[str, list[Any]], present: dict[str, int], count: int, index: int,
            items: Iterable[tuple[str, Any]]) -> None:
    """Put environment `index`'s `items` into their columns, counting who has each key."""
    for key, value in items:
        column = columns.get(key)
        if column is None:
            column = columns[key] = [_MISSING] * count
            present[key] = 0
        column[index] = value
        present[key] += 1


def _pack(infos: list[dict[str, Any] | None], count: int, seen: _Seen, block_rows: dict[str, list[list[Any]]],
          lists: list[list[Any]], marks: _Marks) -> Layout:
    """The layout of `infos` (None: an environment without this dict), each key's values put
    into `block_rows` (a row of its dtype's block) or `lists`, then its mask; keys met before
    and missing now are filled as Gymnasium fills a missing key and marked absent in `marks`.

    It runs for every key of every step of every worker, so it keeps to locals: the masks
    of keys every environment has are one list, and a value's kind is looked up by its type
    (`_kind`)."""
    columns, present, here = _columns(infos, count)
    if not columns:  # this dict is in no environment: every key it ever had is absent
        return _absent_dict(seen, count, block_rows, lists, marks)
    if any(key not in seen for key in columns):
        for key in columns:
            seen.setdefault(key, None)
        ordered = {key: seen[key] for key in sorted(seen, key=_canonical)}
        seen.clear()
        seen.update(ordered)
    everywhere = [True] * count  # the mask of every key all environments have (numpy only reads it)
    shared_mask: list[bool] | None = None  # of the keys every non-empty info has, when some are empty
    masks = block_rows.setdefault(_BOOL, [])
    entries: list[tuple[str, tuple[Any, ...]]] = []
    for key, known in list(seen.items()):
        column = columns.get(key)
        if column is None:
            marks.absent |= 1 << marks.at
            marks.at += 1
            if isinstance(known, dict):
                entries.append((key, ("dict", _absent_dict(known, count, block_rows, lists, marks))))
            else:
                entries.append((key, _absent_values(known, [0] * count, [None] * count, block_rows, lists)))
            marks.absent |= 1 << marks.at  # its mask
            marks.at += 1
            entries.append((_mask_name(key), ("block", _BOOL, len(masks))))
            masks.append([False] * count)
            continue
        marks.at += 1
        has = present[key]
        if has == count:
            first, where = column[0], None
            mask = everywhere
        elif has == len(here):  # in every non-empty info: those rows, and the same mask
            first, where = column[here[0]], here
            if shared_mask is None:
                shared_mask = [False] * count
                for index in here:
                    shared_mask[index] = True
            mask = shared_mask
        else:
            where = [index for index, value in enumerate(column) if value is not _MISSING]
            first = column[where[0]]
            mask = [value is not _MISSING for value in column]
        kind = _KINDS.get(type(first)) or _kind(first)
        if kind is _DICT:
            if not all(value is _MISSING or isinstance(value, dict) for value in column):
                raise ValueError(f"info {key!r} is a dict in some environments and not in others")
            nested = seen[key] = known if isinstance(known, dict) else {}
            entries.append((key, ("dict", _pack(column if where is None else _filled(column, where, None), count,
                                                nested, block_rows, lists, marks))))
        elif kind is _OBJECT or key == "final_obs":
            seen[key] = _OBJECT_SEEN
            entries.append((key, ("list", None, (), len(lists))))
            lists.append(column if where is None else _filled(column, where, None))
        elif kind is _ARRAY:
            entries.append((key, _array_values(key, column, where, first, count, seen, block_rows, lists)))
        else:  # a number: `kind` is its dtype string
            seen[key] = (kind, ())
            rows = block_rows.setdefault(kind, [])
            entries.append((key, ("block", kind, len(rows))))
            rows.append(column if where is None else _filled(column, where, 0))
        marks.at += 1  # its mask
        entries.append((_mask_name(key), ("block", _BOOL, len(masks))))
        masks.append(mask)
    return tuple(entries)


def _absent_dict(seen: _Seen, count: int, block_rows: dict[str, list[list[Any]]], lists: list[list[Any]],
                 marks: _Marks) -> Layout:
    """The layout of a dict no environment has this step, every key it ever had filled in as
    Gymnasium fills a missing key (`_absent_values`) and marked absent. The dict
    that sums up an ended episode is absent from most steps of a share, and has 18 keys: so
    one row of zeros, of None and of False stands for every key (numpy and pickle only read
    them), and the absent bits are set at once."""
    start = at = marks.at
    masks = block_rows.setdefault(_BOOL, [])
    nothing, zeros, nones = [False] * count, [0] * count, [None] * count
    entries: list[tuple[str, tuple[Any, ...]]] = []
    for key, known in seen.items():
        if isinstance(known, dict):
            marks.at = at + 1
            entries.append((key, ("dict", _absent_dict(known, count, block_rows, lists, marks))))
            at = marks.at
        else:
            entries.append((key, _absent_values(known, zeros, nones, block_rows, lists)))
            at += 1
        entries.append((_mask_name(key), ("block", _BOOL, len(masks))))
        masks.append(nothing)
        at += 1
    marks.at = at
    marks.absent |= ((1 << (at - start)) - 1) << start
    return tuple(entries)


_DICT, _OBJECT, _ARRAY = "dict", "object", "array"
"""Kinds of info values other than numbers (whose kind is their dtype string)."""

_OBJECT_SEEN = (None, ())
"""What a packer remembers of an object key."""

_KINDS: dict[type, str] = {}
"""A value's type -> its kind (`_kind`), looked up once per type."""


def _kind(value: Any) -> str:
    """How a key is merged, decided by its first environment's value as Gymnasium decides it:
    a dict merges key by key, Python and numpy numbers into a block row of their dtype, other
    numpy arrays by `_array_values`, anything else as objects."""
    if isinstance(value, dict):
        kind = _DICT
    elif type(value) in (int, float, bool) or isinstance(value, np.number):
        kind = np.dtype(type(value)).str
    elif isinstance(value, np.ndarray):
        kind = _ARRAY
    else:
        kind = _OBJECT
    if len(_KINDS) < 256:  # types made on the fly: keep the memory bounded
        _KINDS[type(value)] = kind
    return kind


_MASK_NAMES: dict[str, str] = {}
"""Key -> the name of its mask (``_key``), made once per key."""


def _mask_name(key: str) -> str:
    name = _MASK_NAMES.get(key)
    if name is None:
        name = "_" + key
        if len(_MASK_NAMES) < 4096:  # keys made on the fly: keep the memory bounded
            _MASK_NAMES[key] = name
    return name


def _filled(column: list[Any], where: list[int] | None, fill: Any) -> list[Any]:
    """`column` with `fill` for `_MISSING`, given the positions `where` it has values (None:
    everywhere, and then the column itself)."""
    if where is None:
        return column
    filled = [fill] * len(column)
    for index in where:
        filled[index] = column[index]
    return filled


def _absent_values(known: tuple[str | None, tuple[int, ...]] | None, zeros: list[int], nones: list[None],
                   block_rows: dict[str, list[list[Any]]], lists: list[list[Any]]) -> tuple[Any, ...]:
    """The layout entry of a key met before and missing now, whose last array had the dtype and
    shape `known` (None: objects): what Gymnasium fills in, the row `zeros` or `nones` (one
    per environment; only read, so a caller may pass the same rows for several keys), or
    zeros of the key's shape."""
    dtype, shape = known or _OBJECT_SEEN  # None: met in a step that failed before merging it
    if dtype is None:
        lists.append(nones)
        return "list", None, (), len(lists) - 1
    if not shape:
        rows = block_rows.setdefault(dtype, [])
        rows.append(zeros)
        return "block", dtype, len(rows) - 1
    lists.append(np.zeros((len(zeros), *shape), dtype=dtype).tolist())
    return "list", dtype, shape, len(lists) - 1


def _array_values(key: str, column: list[Any], where: list[int] | None, first: np.ndarray, count: int, seen: _Seen,
                  block_rows: dict[str, list[list[Any]]], lists: list[list[Any]]) -> tuple[Any, ...]:
    """The layout entry of a key whose values are numpy arrays: an array of the first one's
    dtype and shape (a block row when that shape is a single number), zeros where an
    environment lacks it."""
    dtype, shape = first.dtype.str, first.shape
    seen[key] = (dtype, shape)
    if not shape:
        rows = block_rows.setdefault(dtype, [])
        rows.append(_filled(column, where, 0))
        return "block", dtype, len(rows) - 1
    array = np.zeros((count, *shape), dtype=dtype)
    for index, value in enumerate(column):
        if value is not _MISSING:
            array[index] = value
    lists.append(array.tolist())
    return "list", dtype, shape, len(lists) - 1


def from_columns(parts: Sequence[Packed], counts: Sequence[int], total: int) -> dict[str, Any]:
    """The infos of consecutive shares (`counts` environments each) as one vector env's:
    each key's array has `total` rows; where a share lacks a key its rows are zeros, or None
    for objects, and its mask False, as Gymnasium fills them; nested dicts merge alike."""
    layout = parts[0].layout
    if sum(counts) == total and all(part.layout is layout or part.layout == layout for part in parts[1:]):
        nowhere = parts[0].absent  # keys no environment has this step: not in Gymnasium's merge
        for part in parts[1:]:
            nowhere &= part.absent
        return _recipe(layout, nowhere).merge(parts, total)
    offsets = [0]
    for count in counts:
        offsets.append(offsets[-1] + count)
    plan = _plan(tuple([(part.layout, part.absent) for part in parts]))
    blocks = {}
    for dtype, (count, sources) in plan.blocks.items():
        block = blocks[dtype] = np.zeros((count, total), dtype=np.dtype(dtype))
        for share, own, to in sources:
            block[to, offsets[share]:offsets[share + 1]] = parts[share].blocks[dtype][own]
    return _unpack(plan.layout, blocks, _pieces(parts, offsets, total))


def walk(layout: Layout, path: Path = ()) -> Iterator[tuple[Path, tuple[Any, ...]]]:
    """Every entry of `layout` with its path, in the order a packer passes them (the order of
    `Packed.absent`'s bits): each entry, and a dict's entries right after it."""
    for key, where in layout:
        yield (*path, key), where
        if where[0] == "dict":
            yield from walk(where[1], (*path, key))


def absent_paths(layout: Layout, absent: int) -> frozenset[Path]:
    """The paths of the keys `absent` marks in `layout` (see `Packed.absent`)."""
    return frozenset(path for index, (path, _) in enumerate(walk(layout)) if absent >> index & 1)


class _Recipe(NamedTuple):
    """How to merge shares that all have one layout, when the same keys are absent from all of
    them: made once per layout and such keys (`_recipe`).

    Every array of the merge goes into one list, in this order: the rows of each dtype's
    joined block, the rows of one table of every object column (one `np.fromiter`), the other
    ``list`` entries, then each dict, built from positions in that list by one `itemgetter`
    call, innermost first, the whole infos last. Keys no share has are left out (their rows
    travel all the same, so the layout stays). Why: the main process merges every step while
    the workers wait, and going through the layout entry by entry, then dropping the absent
    keys path by path, cost 25 µs whatever the number of environments (a Wire info has 70
    keys and masks), a sixth of a step of one in-process environment."""

    blocks: tuple[tuple[str, int], ...]
    """Each dtype's block and its number of rows, in the order the rows are listed."""
    objects: tuple[int, ...]
    """The `Packed.lists` indices of the object columns kept, in table order."""
    arrays: tuple[tuple[Any, ...], ...]
    """The ``list`` entries of numbers kept (more than one number per environment)."""
    dicts: tuple[tuple[tuple[str, ...], Callable[[list[Any]], Any]], ...]
    """Per dict kept, innermost first: its keys and what picks their values from the list."""

    def merge(self, parts: Sequence[Packed], total: int) -> dict[str, Any]:
        values: list[Any] = []
        for dtype, count in self.blocks:
            if len(parts) == 1:
                block = parts[0].blocks[dtype]
            else:
                block = np.concatenate([part.blocks[dtype] for part in parts], axis=1)
            if len(block) != count:
                raise ValueError(f"a share's {dtype} block has {len(block)} rows, its layout names {count}")
            values.extend(block)  # row views
        if self.objects:
            rows: list[Any] = []
            for index in self.objects:
                for part in parts:
                    rows += part.lists[index]
            # fromiter, not np.array: a row that is a list stays one object
            values.extend(np.fromiter(rows, dtype=object, count=len(rows)).reshape(len(self.objects), total))
        for _, dtype, shape, index in self.arrays:
            values.append(_rows(np.dtype(dtype), shape, sum([part.lists[index] for part in parts], []), total))
        for keys, pick in self.dicts:
            values.append(dict(zip(keys, pick(values), strict=True)))
        return values[-1]


_RECIPES: dict[tuple[int, int], tuple[Layout, _Recipe]] = {}
"""Recipes by the id of their layout and the absent keys' bits, with the layout (so an id
reused after the layout was dropped does not match): `Unpacker` and `Packer` hand out one
object per layout, so the layout's nested tuples are never hashed here."""


def _recipe(layout: Layout, nowhere: int) -> _Recipe:
    """The recipe for shares of `layout` whose absent keys' bits have `nowhere` in common."""
    found = _RECIPES.get((id(layout), nowhere))
    if found is not None and found[0] is layout:
        return found[1]
    if len(_RECIPES) >= 256:  # layouts that never repeat: keep the memory bounded
        _RECIPES.clear()
    entries = list(walk(layout))
    kept = [not nowhere >> index & 1 for index in range(len(entries))]
    rows: dict[str, int] = {}  # every block's rows, the absent keys' too: they travel all the same
    columns: list[tuple[Any, ...]] = []  # the ``list`` entries kept: objects first, then numbers
    for index, (_, where) in enumerate(entries):
        if where[0] == "block":
            rows[where[1]] = max(rows.get(where[1], 0), where[2] + 1)
        elif where[0] == "list" and kept[index]:
            columns.append(where)
    columns.sort(key=lambda where: where[1] is not None)
    starts, position = {}, 0
    for dtype, number in rows.items():
        starts[dtype], position = position, position + number
    list_at = {where[3]: position + order for order, where in enumerate(columns)}
    first_dict = position + len(columns)
    dicts: list[tuple[tuple[str, ...], Callable[[list[Any]], Any]]] = []
    indices = iter(range(len(entries)))

    def place(level: Layout) -> int:
        """Adds the dict of `level` (after its inner dicts) to `dicts`; returns its number there.
        Every entry passes, kept or not, so each takes its index in `walk` order."""
        keys, places = [], []
        for key, where in level:
            index = next(indices)
            if where[0] == "dict":
                spot = first_dict + place(where[1])
            elif where[0] == "block":
                spot = starts[where[1]] + where[2]
            else:
                spot = list_at.get(where[3], -1)
            if kept[index]:
                keys.append(key)
                places.append(spot)
        dicts.append((tuple(keys), _picker(places)))
        return len(dicts) - 1

    place(layout)
    objects = tuple([where[3] for where in columns if where[1] is None])
    arrays = tuple([where for where in columns if where[1] is not None])
    recipe = _Recipe(tuple(rows.items()), objects, arrays, tuple(dicts))
    _RECIPES[(id(layout), nowhere)] = (layout, recipe)
    return recipe


def _picker(places: list[int]) -> Callable[[list[Any]], Any]:
    """The values at `places` of a list, as a sequence: one C call when there are two or more."""
    if len(places) >= 2:
        return itemgetter(*places)
    if places:
        return itemgetter(slice(places[0], places[0] + 1))  # a one-value list
    return lambda values: ()


def _unpack(layout: Layout, blocks: dict[str, np.ndarray],
            leaf: Callable[[tuple[Any, ...]], np.ndarray]) -> dict[str, Any]:
    """The arrays of `layout` over `blocks`: a ``block`` entry is a row of its dtype's block,
    a ``dict`` entry a nested dict, and any other entry what `leaf` makes of it."""
    merged: dict[str, Any] = {}
    for key, where in layout:
        kind = where[0]
        if kind == "block":
            merged[key] = blocks[where[1]][where[2]]
        elif kind == "dict":
            merged[key] = _unpack(where[1], blocks, leaf)
        else:
            merged[key] = leaf(where)
    return merged


class _Plan(NamedTuple):
    """How to merge shares whose layouts differ."""

    layout: Layout
    """The merged keys: ``("block", dtype, row)`` (a row of the merged block), ``("pieces",
    wheres, masks)`` (each share's own `Layout` entry for the key and for its mask, or None
    where it lacks it: merged key by key) or ``("dict", Layout)``."""
    blocks: dict[str, tuple[int, list[tuple[int, np.ndarray, np.ndarray]]]]
    """dtype -> (rows of the merged block, [(share, rows of its block, the rows they go to)])."""


_PLANS: dict[tuple[tuple[Layout, int], ...], _Plan] = {}
"""Plans by the shares' layouts and absent keys: the same few combinations recur."""


def _plan(shares: tuple[tuple[Layout, int], ...]) -> _Plan:
    plan = _PLANS.get(shares)
    if plan is None:
        if len(_PLANS) >= 64:  # combinations that never repeat: keep the memory bounded
            _PLANS.clear()
        rows: dict[str, int] = {}
        moves: dict[str, list[list[tuple[int, int]]]] = {}
        absent = [absent_paths(layout, bits) for layout, bits in shares]
        merged = _union([layout for layout, _ in shares], absent, (), rows, moves)
        blocks: dict[str, tuple[int, list[tuple[int, np.ndarray, np.ndarray]]]] = {}
        for dtype, count in rows.items():
            sources = []
            for share, pairs in enumerate(moves[dtype]):
                if pairs:
                    sources.append((share, np.array([own for own, _ in pairs], dtype=np.intp),
                                    np.array([to for _, to in pairs], dtype=np.intp)))
            blocks[dtype] = (count, sources)
        plan = _PLANS[shares] = _Plan(merged, blocks)
    return plan


def _union(layouts: list[Layout | None], absent: list[frozenset[Path]], path: Path, rows: dict[str, int],
           moves: dict[str, list[list[tuple[int, int]]]]) -> Layout:
    """The merged layout of the shares' `layouts` (None: a share without this dict), keys in
    order of first appearance, as Gymnasium's merge orders them, without the keys a share
    sent only as absent. A key that is one number of one dtype wherever it is present gets a
    row of that dtype's merged block (`rows` counts them; `moves` says which share row goes
    to which); any other key is merged from its pieces."""
    wheres_of: dict[str, list[tuple[Any, ...] | None]] = {}
    for share, layout in enumerate(layouts):
        for key, where in layout or ():
            if (*path, key) not in absent[share]:
                wheres_of.setdefault(key, [None] * len(layouts))[share] = where
    entries: list[tuple[str, tuple[Any, ...]]] = []
    for key, wheres in wheres_of.items():
        present = [where for where in wheres if where is not None]
        kinds = {where[0] for where in present}
        if kinds == {"dict"}:
            inner = [None if where is None else where[1] for where in wheres]
            nested = _union(inner, absent, (*path, key), rows, moves)
            entries.append((key, ("dict", nested)))
        elif "dict" in kinds:
            raise ValueError(f"info {key!r} is a dict in some environments and not in others")
        elif kinds == {"block"} and len({where[1] for where in present}) == 1:
            dtype = present[0][1]
            row = rows[dtype] = rows.get(dtype, 0) + 1
            shares = moves.setdefault(dtype, [[] for _ in layouts])
            for share, own in enumerate(wheres):
                if own is not None:
                    shares[share].append((own[2], row - 1))
            entries.append((key, ("block", dtype, row - 1)))
        else:  # objects somewhere, or numbers of several dtypes or shapes
            masks = wheres_of.get("_" + key, [None] * len(layouts))
            entries.append((key, ("pieces", tuple(wheres), tuple(masks))))
    return tuple(entries)


def _pieces(parts: Sequence[Packed], offsets: list[int], total: int) -> Callable[[tuple[Any, ...]], np.ndarray]:
    """The `_unpack` leaf of a `_Plan`: a ``pieces`` entry merged from the shares' own columns."""

    def merge(where: tuple[Any, ...]) -> np.ndarray:
        objects = any(own is not None and own[1] is None for own in where[1])
        pieces = [(offsets[share], offsets[share + 1] - offsets[share],
                   _column(parts[share], own, where[2][share] if objects else None))
                  for share, own in enumerate(where[1]) if own is not None]
        return _array(pieces, total)

    return merge


def _column(part: Packed, where: tuple[Any, ...], mask: tuple[Any, ...] | None = None) -> Column:
    """One key of a share as a `Column`, from its `Layout` entry. With its mask's entry
    (when the merged key holds objects), the rows of environments without the key are None,
    as in Gymnasium's object arrays, not the share's zeros."""
    if where[0] == "block":
        dtype, shape, rows = where[1], (), part.blocks[where[1]][where[2]].tolist()
    else:
        dtype, shape, rows = where[1], where[2], part.lists[where[3]]
    if mask is not None and dtype is not None:
        has = part.blocks[mask[1]][mask[2]]
        rows = [row if here else None for row, here in zip(rows, has, strict=True)]
    return dtype, shape, rows


def _array(pieces: list[tuple[int, int, Column]], total: int) -> np.ndarray:
    """One key's rows from every share that has it. The first share's dtype wins, as the first
    environment's does in Gymnasium's merge; objects win over numbers."""
    dtype, shape, _ = pieces[0][2]
    objects = dtype is None or any(column[0] is None for _, _, column in pieces)
    target_dtype = None if objects else np.dtype(dtype)
    if sum(count for _, count, _ in pieces) == total:  # every share has the key: one array from all rows
        return _rows(target_dtype, shape, [row for _, _, (_, _, part) in pieces for row in part], total)
    target = np.full(total, None, dtype=object) if objects else np.zeros((total, *shape), dtype=target_dtype)
    for offset, count, (_, _, part) in pieces:
        target[offset:offset + count] = _rows(target_dtype, shape, part, count)
    return target


def _rows(dtype: np.dtype | None, shape: tuple[int, ...], rows: list[Any], count: int) -> np.ndarray:
    """`count` rows as an array: objects (None) by fromiter, so that a row that is a list stays
    one object; numbers in `dtype`, each row of `shape`."""
    if dtype is None:
        return np.fromiter(rows, dtype=object, count=count)
    return np.asarray(rows, dtype=dtype).reshape((count, *shape))
