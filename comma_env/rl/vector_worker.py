"""The worker side of `comma_env.rl.vector_env.CommaVectorEnv`: a share of the environments,
stepped one after another in one process.

A worker does for its share everything Gymnasium's `AsyncVectorEnv` does per environment
in the main process: it merges the infos by Gymnasium's rule (`VectorEnv._add_info`, here
`comma_env.rl.info_columns.Packer` in one pass, tested against it: the same arrays, keys in
name order), applies next-step autoreset, and draws array observations straight into the
shared buffers. The main process then pays one pipe round trip per worker per step, not per
environment, which is what lets steps/s grow with workers. Without workers, the calling
process runs one share itself.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import mmap
import os
import traceback
from collections.abc import Callable, Mapping, Sequence
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

import gymnasium
import numpy as np

from comma_env.rl.info_columns import Packed, Packer, PipedArray, from_columns, from_pipe, to_pipe

IMAGE = "image"
"""The observation key of the solver's picture."""

ArrayBuffers = Mapping[Any, np.ndarray]
"""Key of an array observation (a `Dict` key, or None for a `Box` observation) -> the
``(num_envs, *shape)`` array every environment of the vector env writes its row into.
A vector env has several such sets; each command says which one to write."""


class Outcome(NamedTuple):
    """A share's rewards, terminations and truncations of one step (pickled as raw bytes,
    `comma_env.rl.info_columns.to_pipe`)."""

    rewards: np.ndarray
    terminations: np.ndarray
    truncations: np.ndarray

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return _outcome, tuple(to_pipe(array) for array in self)


def _outcome(*piped: PipedArray) -> Outcome:
    return Outcome(*(from_pipe(array) for array in piped))


StepBatch = tuple[list[Any], Outcome, Packed | dict[str, Any]]
"""What a share returns for a step: the observations without their array parts, the
outcome and the merged infos of the share (packed for the pipe in a worker)."""


class EnvShare:
    """`count` environments, rows ``offset .. offset + count - 1`` of the vector env.

    Array parts of an observation are written into the set of `buffer_sets` each command
    names (shared memory in a worker); the rest (the text) is returned. Autoreset is
    Gymnasium's next-step mode: the step after the one that ended an episode resets that
    environment instead of stepping it.
    """

    def __init__(self, make_env: Callable[[], gymnasium.Env], count: int, offset: int,
                 buffer_sets: Sequence[ArrayBuffers], pack_infos: bool = False) -> None:
        self.envs = [make_env() for _ in range(count)]
        # infos merged in one pass and packed (`comma_env.rl.info_columns`): for the pipe in a
        # worker, else unpacked here. Gymnasium's merge, env by env, took a tenth of an
        # in-process step of 32 Wire environments (measured: 11% more steps/s, image view)
        self.packer = Packer(send_layouts_once=pack_infos)
        self.pack_infos = pack_infos
        self.offset = offset
        self.buffer_sets = buffer_sets
        self.autoreset = np.zeros(count, dtype=np.bool_)
        self._drawn: list[list[Any]] | None = None
        """Per buffer set and environment, what its picture row shows (`CommaEnv.image_into`),
        when the environments draw their pictures into the rows themselves."""
        if any(IMAGE in buffers for buffers in buffer_sets) and all(
                hasattr(getattr(env, "raw", None), "image_into") for env in self.envs):
            for env in self.envs:
                env.raw.image_in_observation = False  # type: ignore[attr-defined]
            self._drawn = [[None] * count for _ in buffer_sets]

    def _unpack(self, buffer_set: int, index: int, observation: Any) -> Any:
        """Writes the array parts of one observation into its row (the picture: draws only what
        changed since that row's last picture, rather than copying the environment's own
        frame); returns the rest."""
        buffers = self.buffer_sets[buffer_set]
        row = self.offset + index
        if None in buffers:
            buffers[None][row] = observation
            return None
        rest = {}
        for key, value in observation.items():
            if key in buffers:
                buffers[key][row] = value
            else:
                rest[key] = value
        if self._drawn is not None:
            drawn = self._drawn[buffer_set]
            shown = drawn[index]
            drawn[index] = self.envs[index].raw.image_into(  # type: ignore[attr-defined]
                buffers[IMAGE][row] if shown is None else shown)
        return rest

    def reset(self, buffer_set: int, seeds: Sequence[int | None],
              options: dict[str, Any] | None) -> tuple[list[Any], Any]:
        rests, infos = [], []
        for index, (env, seed) in enumerate(zip(self.envs, seeds, strict=True)):
            observation, info = env.reset(seed=seed, options=options)
            rests.append(self._unpack(buffer_set, index, observation))
            infos.append(info)
        self.autoreset[:] = False
        return rests, self._infos(infos)

    def step(self, buffer_set: int, actions: Sequence[Any]) -> StepBatch:
        count = len(self.envs)
        rewards = np.zeros(count, dtype=np.float64)
        terminations = np.zeros(count, dtype=np.bool_)
        truncations = np.zeros(count, dtype=np.bool_)
        rests, infos = [], []
        for index, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            if self.autoreset[index]:
                observation, info = env.reset()
            else:
                observation, reward, terminated, truncated, info = env.step(action)
                rewards[index], terminations[index], truncations[index] = reward, terminated, truncated
            rests.append(self._unpack(buffer_set, index, observation))
            infos.append(info)
        self.autoreset = terminations | truncations
        return rests, Outcome(rewards, terminations, truncations), self._infos(infos)

    def _infos(self, infos: list[dict[str, Any]]) -> Packed | dict[str, Any]:
        packed = self.packer.pack(infos)
        return packed if self.pack_infos else from_columns([packed], [len(infos)], len(infos))

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
        results = []
        for env in self.envs:
            attribute = env.get_wrapper_attr(name)
            results.append(attribute(*args, **kwargs) if callable(attribute) else attribute)
        return results

    def set_attr(self, name: str, values: Sequence[Any]) -> None:
        for env, value in zip(self.envs, values, strict=True):
            env.set_wrapper_attr(name, value)

    def close(self) -> None:
        for env in self.envs:
            env.close()


COMMANDS = ("reset", "step", "call", "set_attr")


RawBuffers = Mapping[Any, tuple[Any, np.dtype, tuple[int, ...]]]
"""One set of shared buffers as a worker receives it: key -> (raw shared array, dtype, full shape)."""


def pin_to(cpu: int | None) -> None:
    """Keeps this process on one CPU. Why: a pipe wakes its reader on the writer's CPU, so
    the main process's commands pull every worker onto the main process's CPU, where they
    queue behind each other while another CPU idles (measured: 2 unpinned workers gave
    0.9-1.15x one worker, pinned 1.3x, on a machine with one CPU's worth of other load)."""
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass  # a CPU taken away since the plan was made: run unpinned


@functools.cache
def _sched_getcpu() -> Callable[[], int] | None:
    """libc's ``sched_getcpu`` (looked up once), or None where there is none."""
    try:
        getcpu = ctypes.CDLL(None).sched_getcpu
    except (OSError, AttributeError, TypeError):  # not Linux with glibc or musl
        return None
    getcpu.restype = ctypes.c_int
    getcpu.argtypes = []
    return getcpu


def current_cpu() -> int | None:
    """The CPU this thread runs on right now (libc's ``sched_getcpu`` through ctypes, a tenth
    of a microsecond; Python has no wrapper), or None where that is not known."""
    getcpu = _sched_getcpu()
    cpu = -1 if getcpu is None else getcpu()
    return cpu if cpu >= 0 else None


def map_rows(buffer_sets: Sequence[ArrayBuffers], offset: int, count: int) -> None:
    """Maps this process's rows of every buffer set into its memory now, at start-up, by
    reading and writing back one byte per page (the values stay as they are).

    Why: a worker gets no page-table entries for the shared memory, so its first write to
    each page faulted. The first step that wrote a set paid one fault per 4 KB of its rows
    (6,200 faults, about 11 ms, for the pictures of 32 environments; two workers with half
    the rows each took about as long, their faults on one shared file waiting for each
    other). A read here maps its page's neighbours too: a set's pictures of 32 environments
    take about 430 faults and 2 ms."""
    page = mmap.PAGESIZE
    for buffers in buffer_sets:
        for array in buffers.values():
            rows = array[offset:offset + count].reshape(-1).view(np.uint8)
            if rows.size:
                rows[::page] = rows[::page].copy()  # a copy: an assignment of an array to itself is skipped
                rows[-1:] = rows[-1:].copy()


def keep_inherited_objects_out_of_collections() -> None:
    """Moves every object this process has so far (all it inherited through fork, or made
    importing under spawn) out of the garbage collector's generations (`gc.freeze`): the
    worker's own collections then never visit them. They live as long as the worker anyway
    (so do cycles the parent had not collected yet, in pages it still shares with the worker).

    Why: a full collection writes into the header of every object it visits, so in a forked
    worker it copied each page of the parent's heap it touched, and its first one came within
    the first steps, since the collector's counts are inherited too. Measured with 32 Wire
    environments: one full collection of 16-22 ms in each of 2 workers, both within the first
    20 batches (a batch takes about 1.3 ms), and 10 MB more private memory per worker after
    1,000 batches (28 against 18 MB); frozen, no full collection in 5,000 batches."""
    gc.freeze()


def serve(pipe: Connection, parent_end: Connection | None, make_env: Any, count: int, offset: int,
          raw_sets: Sequence[RawBuffers], cpu: int | None = None) -> None:
    """A worker process's loop: one command in, one ``(ok, result)`` out, until "close".

    `make_env` is a `CloudpickleWrapper`; `raw_sets` are the buffer sets, each mapping an
    array key to its raw shared array, dtype and full shape; `cpu` pins the worker. An
    exception is sent back (the traceback as text) and the worker keeps serving, so the
    main process can raise it and close cleanly.
    """
    keep_inherited_objects_out_of_collections()
    if parent_end is not None:
        parent_end.close()  # the main process's end, inherited through fork
    pin_to(cpu)
    share = None
    try:
        views = [{key: np.ndarray(shape, dtype=dtype, buffer=raw) for key, (raw, dtype, shape) in raw_set.items()}
                 for raw_set in raw_sets]
        map_rows(views, offset, count)
        share = EnvShare(make_env.fn, count, offset, views, pack_infos=True)
        pipe.send((True, None))
        while True:
            command, payload = pipe.recv()
            if command == "close":
                break
            try:
                if command not in COMMANDS:
                    raise ValueError(f"unknown command {command!r}")
                pipe.send((True, getattr(share, command)(*payload)))
            except Exception as error:  # sent back, raised by the main process
                share.packer.forget()  # what it packed (if anything) never reached the main process
                pipe.send((False, (type(error).__name__, str(error), traceback.format_exc())))
    except (KeyboardInterrupt, EOFError, BrokenPipeError):
        pass  # the main process went away or was interrupted: nothing to answer
    except Exception as error:  # failing to build the environments
        pipe.send((False, (type(error).__name__, str(error), traceback.format_exc())))
    finally:
        if share is not None:
            share.close()
        pipe.close()
