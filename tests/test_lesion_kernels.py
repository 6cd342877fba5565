"""The compiled lesion rasterisers (`lesion_kernels`, numba) against the numpy path they
replace: whole photos over seeds 0-299, each kernel against its numpy twin on random and edge
inputs, the selection against `np.partition`, the fallback when numba is absent or disabled,
and photos drawn from several threads at once (the kernels release the GIL)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from comma_env.drawing import lesions
from comma_env.puzzles.telehealth import TelehealthPuzzle

pytest.importorskip("numba", reason="the compiled path needs numba: pip install -e '.[fast]' (CI installs it)")
from comma_env.drawing import lesion_kernels  # noqa: E402  (after the skip: it imports numba)

SIZE = 352


def _features(seed: int) -> dict:
    return dict(lesions._key(TelehealthPuzzle(np.random.default_rng(seed)).visible_state()))


@pytest.mark.parametrize("block", range(3))
def test_compiled_photos_match_numpy_within_a_grey_level(block: int) -> None:
    assert lesions.compiled_kernels() is lesion_kernels
    surfaces, identical = set(), 0
    for seed in range(100 * block, 100 * block + 100):
        features = _features(seed)
        surfaces.add(lesions._surface_code(features["lesion_surface"]))
        numpy_photo, numpy_coverage = lesions._render_numpy(dict(features), SIZE)
        photo, coverage = lesions._render_compiled(dict(features), SIZE)
        assert photo.shape == numpy_photo.shape and photo.dtype == np.uint8
        difference = np.abs(photo.astype(np.int16) - numpy_photo.astype(np.int16))
        # the upscale's sums and exp round differently: a grey level on a handful of pixels
        assert difference.max() <= 1, (seed, features)
        assert (difference > 0).any(axis=2).mean() < 1e-3, (seed, features)
        assert np.array_equal(coverage, numpy_coverage), (seed, features)  # the same float32 arithmetic
        identical += not difference.any()
    assert identical >= 50  # most photos are the same to the pixel
    assert surfaces == {0, 1, 2, 3} or block != 0  # every surface's loop ran (plain, pearly, crust, waxy)


def test_the_photo_served_is_the_compiled_one_and_read_only() -> None:
    features = _features(7)
    served = lesions.lesion_pixels(features, SIZE)
    assert not served.flags.writeable
    assert np.array_equal(served, lesions._render_compiled(dict(features), SIZE)[0])


def test_select_is_the_kth_smallest() -> None:
    rng = np.random.default_rng(0)
    for trial in range(2000):
        n = int(rng.integers(1, 400))
        if trial % 3 == 0:  # many ties
            values = rng.integers(0, int(rng.integers(1, 6)), n).astype(np.float32)
        elif trial % 3 == 1:
            values = np.sort(rng.random(n).astype(np.float32))[:: 1 if trial % 2 else -1].copy()  # sorted, reversed
        else:
            values = rng.random(n).astype(np.float32)
        k = int(rng.integers(0, n))
        before = values.copy()
        assert lesion_kernels.select(values, k) == np.partition(values, k)[k]
        assert np.array_equal(values, before)  # works on a copy


def _ellipses(rng: np.random.Generator, trial: int) -> tuple:
    count = int(rng.integers(1, 40))
    centres = rng.uniform(-8, 88, (count, 2))  # some past every edge
    return centres, rng.uniform(0.3, 7, (count, 2)), tuple(int(c) for c in rng.integers(0, 256, 3))


def _polylines(rng: np.random.Generator, trial: int) -> tuple:
    points = rng.uniform(-10, 90, (int(rng.integers(1, 6)), int(rng.integers(2, 7)), 2))
    if trial % 5 == 0:
        points[:, 1] = points[:, 0]  # a zero-length segment
    return points, (170, 20, 40), float(rng.choice([1.0, 2.0, 3.5]))


@pytest.mark.parametrize(("mark", "inputs"), [("fill", _ellipses), ("stroke", _polylines)])
def test_compiled_marks_are_numpys_pixels(mark: str, inputs) -> None:
    rng = np.random.default_rng(1)
    compiled, reference = getattr(lesions._compiled_marks(), mark), getattr(lesions.NUMPY_MARKS, mark)
    drawn = 0
    for trial in range(200):
        arguments = inputs(rng, trial)
        mine, theirs = np.zeros((70, 80, 3), np.uint8), np.zeros((70, 80, 3), np.uint8)
        compiled(mine, *arguments)
        reference(theirs, *arguments)
        assert np.array_equal(mine, theirs)
        drawn += bool(mine.any())
    assert drawn > 150  # the cases mostly draw inside the photo


def test_inner_points_are_numpys_in_the_same_order() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        alpha = rng.random((lesions.GRID, lesions.GRID)).astype(np.float32)
        top, left = (int(v) for v in rng.integers(0, 100, 2))
        window = ((top, top + int(rng.integers(0, 28))), (left, left + int(rng.integers(0, 28))))
        mine = lesions._compiled_marks().inner(alpha, window)
        theirs = lesions.inner_points(alpha, window)
        assert mine.shape == theirs.shape and np.array_equal(mine, theirs)


def test_noise_layout_reads_the_mirrored_view() -> None:
    bank = lesions._noise_bank(lesions.BLOTCH_CELLS, lesions.GRID)
    flat = bank.ravel()
    rows, columns = np.meshgrid(np.arange(lesions.GRID), np.arange(lesions.GRID), indexing="ij")
    for pick in [0, 1, 2, 3, 4, 5, 6, 7, 8 * 5 + 6, 8 * 63 + 7]:
        offset, row_step, column_step = lesion_kernels._noise_layout(bank, pick)
        assert np.array_equal(flat[offset + rows * row_step + columns * column_step], lesions._noise_view(bank, pick))


def test_threads_draw_the_same_photos_as_one() -> None:
    features = [_features(seed) for seed in range(300, 340)]
    alone = [lesions._render_compiled(dict(f), SIZE)[0] for f in features]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda f: lesions._render_compiled(dict(f), SIZE)[0], features * 2))
    for i, photo in enumerate(together):
        assert np.array_equal(photo, alone[i % len(features)])


@pytest.mark.parametrize("how", ["numba missing", "COMMA_ENV_NUMBA=0", "NUMBA_DISABLE_JIT=1"])
def test_without_numba_photos_come_from_numpy(how: str) -> None:
    """A fresh interpreter without usable numba draws with numpy, and draws the same photo."""
    script = textwrap.dedent(f"""
        import sys
        if {how == "numba missing"}:
            sys.modules["numba"] = None  # import numba raises ImportError
        import numpy as np
        from comma_env.drawing import lesions
        from comma_env.puzzles.telehealth import TelehealthPuzzle
        assert lesions.compiled_kernels() is None
        assert "comma_env.drawing.lesion_kernels" not in sys.modules
        state = TelehealthPuzzle(np.random.default_rng(5)).visible_state()
        np.save(sys.stdout.buffer, lesions.lesion_pixels(lesions._lesion_part(state), {SIZE}))
    """)
    env = dict(os.environ)
    if "=" in how:
        name, value = how.split("=")
        env[name] = value
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    import io

    photo = np.load(io.BytesIO(done.stdout))
    assert np.array_equal(photo, lesions._render_numpy(_features(5), SIZE)[0])


def test_a_kernel_numba_cannot_compile_falls_back_to_numpy_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from numba.core.errors import TypingError

    def fails(*args: object) -> None:
        raise TypingError("no implementation for this numba version")

    monkeypatch.setattr(lesion_kernels, "paint_window", fails)
    monkeypatch.setattr(lesions, "_KERNELS", lesion_kernels)
    features = _features(11)
    with pytest.warns(RuntimeWarning, match="compiling the lesion kernels failed .*TypingError"):
        photo, coverage = lesions._render.__wrapped__(lesions._key(features), SIZE)
    assert lesions.compiled_kernels() is None  # numpy from now on (monkeypatch restores the kernels)
    assert np.array_equal(photo, lesions._render_numpy(dict(features), SIZE)[0])
    assert not photo.flags.writeable


def test_errors_that_are_not_numbas_are_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(*args: object) -> None:
        raise ValueError("a bug in our kernel glue")

    monkeypatch.setattr(lesion_kernels, "paint_window", fails)
    monkeypatch.setattr(lesions, "_KERNELS", lesion_kernels)
    with pytest.raises(ValueError, match="a bug"):
        lesions._render.__wrapped__(lesions._key(_features(12)), SIZE)
    assert lesions.compiled_kernels() is lesion_kernels
