"""`CommaVectorEnv`: many single-role episodes in a few worker processes.

    envs = gymnasium.make_vec("comma/Wire-solver-v0", num_envs=16, vectorization_mode="vector_entry_point",
                              workers=2, partner="random", solver_view="image")

Gymnasium's `AsyncVectorEnv` gives each environment a process of its own, and for each
environment the main process pays a pipe round trip, an info merge and a frame copy. A
COMMA step is short (a tenth of a millisecond to a few), so that work in the main process
is as large as the step itself and a second process hardly adds steps/s. Here each worker
process steps a share of the environments and merges their infos itself: the main process
pays per worker, and steps/s grows with the number of workers (`examples/benchmark_rl.py
--vector`). ``workers=0`` runs the shares in the calling process (no processes; the same
results, for debugging and for machines with one core).

Still, while its workers step, the main process waits, and while it reads their answers,
they wait. `step_async` and `step_wait` (Gymnasium's names) split `step` so that a loop can
step two vector envs in turn, each one's workers stepping while the main process handles
the other's answers; `pin_workers=[...]` puts each one's workers on CPUs of its own.

The results are those of Gymnasium's `SyncVectorEnv` over the same environments: the same
observations, rewards, infos (merged by Gymnasium's rule, `VectorEnv._add_info`: the same
arrays, keys in name order) and next-step autoreset.
"""

from __future__ import annotations

import copy as copying
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import AlreadyPendingCallError, NoAsyncCallError
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import CloudpickleWrapper, batch_space, concatenate, create_empty_array

from comma_env.drawing.watched import WatchedMemory
from comma_env.rl.info_columns import Packed, Unpacker, from_columns
from comma_env.rl.single_role import SingleRoleEnv
from comma_env.rl.vector_worker import EnvShare, RawBuffers, current_cpu, serve

WORKER_START_SECONDS = 120.0
"""How long a worker may take to build its environments before the vector env gives up."""


class WorkerError(RuntimeError):
    """An environment raised inside a worker; the message carries the worker's traceback."""


def shares(num_envs: int, workers: int) -> list[tuple[int, int]]:
    """``(offset, count)`` per worker: contiguous rows, sizes differing by at most one."""
    base, extra = divmod(num_envs, workers)
    result, offset = [], 0
    for index in range(workers):
        count = base + (index < extra)
        result.append((offset, count))
        offset += count
    return [share for share in result if share[1]]


def worker_cpus(workers: int, cpus: Sequence[int] | None = None) -> list[int | None]:
    """The CPU each worker is pinned to: `cpus` in turn, by default this process's usable CPUs
    (a container's or `taskset`'s set, not the machine's); None everywhere where pinning is
    not available."""
    if not hasattr(os, "sched_getaffinity"):
        return [None] * workers
    usable = sorted(os.sched_getaffinity(0)) if cpus is None else list(cpus)
    return [usable[index % len(usable)] for index in range(workers)]


def _checked_cpus(pin_workers: bool | Sequence[int]) -> list[int] | None:
    """The CPUs of a `pin_workers` list, checked before any process starts (None for a bool)."""
    if isinstance(pin_workers, bool):
        return None
    if isinstance(pin_workers, (int, np.integer, str)):  # a CPU number meant as a list of one
        raise TypeError(f"pin_workers is True, False or a list of CPUs, got {pin_workers!r}")
    cpus = [int(cpu) for cpu in pin_workers]
    if not cpus:
        raise ValueError("pin_workers lists no CPU: pass False to leave the workers unpinned")
    if hasattr(os, "sched_getaffinity"):
        unusable = sorted(set(cpus) - os.sched_getaffinity(0))
        if unusable:
            raise ValueError(f"pin_workers names CPUs this process may not use: {unusable} "
                             f"(usable: {sorted(os.sched_getaffinity(0))})")
    return cpus


def _array_keys(space: gymnasium.Space) -> list[Any]:
    """The parts of an observation that travel through shared memory: the `Box` entries of a
    `Dict` observation (the picture, Sound's clip), or the whole of a `Box` observation."""
    if isinstance(space, spaces.Box):
        return [None]
    if isinstance(space, spaces.Dict):
        return [key for key, part in space.spaces.items() if isinstance(part, spaces.Box)]
    return []


class CommaVectorEnv(VectorEnv):
    """`num_envs` single-role environments (`SingleRoleEnv`) in `workers` processes.

    Args:
        num_envs: how many environments (episodes in flight).
        workers: worker processes; 0 steps every environment in the calling process. More
            workers than environments are not started.
        copy: array observations that never change while the caller holds them (Gymnasium's
            default; here mostly without a copy, see `buffers`). With False the arrays are
            views of the shared buffers, overwritten by the next step. Either way they are
            read-only: copy one to change it.
        buffers: how many sets of shared buffers the observations may be handed out in; each
            step writes into the first set nobody holds any more (`_pick_set`), else into a
            scratch set it copies from. Ignored with ``copy=False``: then one set is
            overwritten every step.
        pin_workers: keep worker ``i`` on usable CPU ``i`` (modulo their number); see
            `comma_env.rl.vector_worker.pin_to` for why. A list of CPUs pins the workers to
            those in turn instead: give each of several vector envs its own CPUs (or turn
            pinning off), else their workers all queue on the first CPUs.
        context: the multiprocessing start method (``"fork"``, ``"spawn"``, ``"forkserver"``);
            None uses Python's default.
        daemon: worker processes end with the main process.
        **env_kwargs: `SingleRoleEnv` arguments (``puzzle``, ``role``, ``partner``,
            ``solver_view``, reward options...), the same for every environment.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": SingleRoleEnv.metadata["render_modes"]}

    def __init__(self, num_envs: int = 1, *, workers: int = 0, copy: bool = True, buffers: int = 3,
                 pin_workers: bool | Sequence[int] = True, context: str | None = None, daemon: bool = True,
                 **env_kwargs: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        if workers < 0:
            raise ValueError(f"workers must be 0 (in this process) or more, got {workers}")
        if buffers < 1:
            raise ValueError(f"buffers must be at least 1, got {buffers}")
        listed = _checked_cpus(pin_workers)
        env_kwargs.pop("max_episode_steps", None)  # make_vec's, for specs that set one; ours do not
        self.num_envs = num_envs
        self.copy = copy
        self.render_mode = env_kwargs.get("render_mode")
        self._env_kwargs = env_kwargs
        probe = SingleRoleEnv(**env_kwargs)
        self.single_observation_space = probe.observation_space
        self.single_action_space = probe.action_space
        probe.close()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._array_keys = _array_keys(self.single_observation_space)
        self._rest_space = _rest_space(self.single_observation_space, self._array_keys)
        self._rests: Any = create_empty_array(self._rest_space, n=num_envs, fn=np.zeros) if self._rest_space else None
        self._shares = shares(num_envs, workers or 1)
        self._local: EnvShare | None = None
        self._pipes: list[Any] = []
        self._processes: list[Any] = []
        self._unpackers: list[Unpacker] = []
        """Per worker, the layout of its infos (sent only when it changes)."""
        self._send_orders: dict[int | None, list[int]] = {}
        """This process's CPU -> the workers in the order to send them a command (`_send_order`)."""
        self._pending: _Pending | None = None
        """The step sent by `step_async` that `step_wait` has not collected yet."""
        # handed-out sets, then the scratch set: written when every other is held (and copied
        # out), or always, with copy=False (handed out as views)
        count = buffers + 1 if copy else 1
        ctx = multiprocessing.get_context(context)
        raw_sets = [self._allocate(ctx if workers else None) for _ in range(count)]
        self._sets = [views for views, _ in raw_sets]
        """The buffer sets as the environments write them (handed out through `_watched`; with
        ``copy=False``, the one set as it is)."""
        self._watched = [{key: WatchedMemory(array) for key, array in arrays.items()}
                         for arrays in self._sets[:count - 1]]
        """The handed-out sets' memory, whose handouts say whether a caller still holds a batch."""
        self._scratch = count - 1
        if workers == 0:
            self._local = EnvShare(_EnvFactory(env_kwargs), num_envs, 0, self._sets)
        else:
            unpinned: list[int | None] = [None] * len(self._shares)
            cpus = worker_cpus(len(self._shares), listed) if pin_workers else unpinned
            self._start_workers(ctx, daemon, [raw for _, raw in raw_sets], cpus)

    # -- set-up ------------------------------------------------------------------------------
    def _allocate(self, ctx: Any) -> tuple[dict[Any, np.ndarray], RawBuffers]:
        """One set of rows for the array observations: shared memory when there are workers."""
        views: dict[Any, np.ndarray] = {}
        raw: dict[Any, tuple[Any, np.dtype, tuple[int, ...]]] = {}
        for key in self._array_keys:
            space: Any = self.single_observation_space
            part = space if key is None else space[key]
            assert isinstance(part, spaces.Box)
            shape, dtype = (self.num_envs, *part.shape), np.dtype(part.dtype)
            if ctx is None:
                views[key] = np.zeros(shape, dtype=dtype)
                continue
            array = ctx.RawArray(ctypes.c_uint8, max(1, int(np.prod(shape)) * dtype.itemsize))
            raw[key] = (array, dtype, shape)
            views[key] = np.ndarray(shape, dtype=dtype, buffer=array)
        return views, raw

    def _start_workers(self, ctx: Any, daemon: bool, raw_sets: list[RawBuffers], cpus: list[int | None]) -> None:
        """One worker per share, worker ``i`` pinned to ``cpus[i]`` (None: unpinned)."""
        make_env = CloudpickleWrapper(_EnvFactory(self._env_kwargs))
        workers = range(len(self._shares))
        self._send_orders = {cpu: sorted(workers, key=lambda index: cpus[index] == cpu)
                             for cpu in cpus if cpu is not None}
        for index, (offset, count) in enumerate(self._shares):
            parent, child = ctx.Pipe()
            process = ctx.Process(target=serve, name=f"CommaVectorEnv-worker-{index}", daemon=daemon,
                                  args=(child, parent, make_env, count, offset, raw_sets, cpus[index]))
            process.start()
            child.close()
            self._pipes.append(parent)
            self._processes.append(process)
            self._unpackers.append(Unpacker())
        try:
            for pipe in self._pipes:
                if not pipe.poll(WORKER_START_SECONDS):
                    raise TimeoutError(f"a worker did not start within {WORKER_START_SECONDS:.0f} s")
                self._answer(pipe)
        except BaseException:
            self._stop_workers()
            raise

    def _pick_set(self) -> int:
        """The first set nobody holds any more, else the scratch set. The first, not the next
        in turn: a loop that keeps one observation then alternates between two sets, whose
        memory stays in the CPU's cache. With ``copy=False`` the scratch set is the only one,
        overwritten every step, as Gymnasium's views are."""
        for index, watched in enumerate(self._watched):
            if not any(memory.held() for memory in watched.values()):
                return index
        return self._scratch

    # -- the protocol --------------------------------------------------------------------------
    def _answer(self, pipe: Any, unpack: Unpacker | None = None) -> Any:
        """A worker's result; with `unpack` (the worker's), its packed infos with their layout."""
        try:
            ok, result = pipe.recv()
        except (EOFError, ConnectionResetError) as error:
            raise WorkerError("a worker process ended unexpectedly") from error
        if not ok:
            name, message, trace = result
            raise WorkerError(f"{name}: {message}\n--- in the worker ---\n{trace}")
        if unpack is not None and type(result) is tuple:
            # on reading, so each worker's layout stays known even when another worker failed
            result = tuple([unpack(item) if type(item) is Packed else item for item in result])
        return result

    def _send_order(self) -> Sequence[int]:
        """The workers in the order to send them a command: those pinned to other CPUs than
        the one this process runs on first. Why: a command wakes its worker, and one pinned to
        this process's CPU may take that CPU at once, before this process has sent the others
        theirs. Measured with 2 workers: 3% of sends stalled (99th percentile 570 µs against a
        median of 28), and in this order 2 workers made 1.9-3.7% more steps per second."""
        order = self._send_orders.get(current_cpu()) if self._send_orders else None
        return range(len(self._pipes)) if order is None else order

    def _each_share(self, command: str, payloads: Sequence[tuple[Any, ...]]) -> list[Any]:
        """Runs `command` on every share (concurrently in the workers); results in row order."""
        if self._local is not None:
            return [getattr(self._local, command)(*payloads[0])]
        return self._collect(*self._send(command, payloads))

    def _send(self, command: str, payloads: Sequence[tuple[Any, ...]]) -> tuple[list[int], WorkerError | None]:
        """Sends `command` to every worker: the workers that got it, and the error of any that
        did not (raised by `_collect`, once the others' answers are read)."""
        error: WorkerError | None = None
        sent = []
        for index in self._send_order():
            try:
                self._pipes[index].send((command, payloads[index]))
                sent.append(index)
            except (BrokenPipeError, ConnectionResetError, OSError) as failure:
                error = error or WorkerError("a worker process ended unexpectedly")
                # without its traceback: its frames hold the pickled message's memoryview of a
                # BytesIO, and collecting those as garbage crashed CPython 3.12.1
                error.__cause__ = failure.with_traceback(None)
        return sent, error

    def _collect(self, sent: list[int], error: WorkerError | None) -> list[Any]:
        """The answers of the workers in `sent`, in row order; raises the first error."""
        results = []
        for index in sorted(sent):  # every answer is read, so no pipe is left out of step
            try:
                results.append(self._answer(self._pipes[index], self._unpackers[index]))
            except WorkerError as failure:
                error = error or failure
        if error is not None:
            raise error
        return results

    def _split(self, values: Sequence[Any]) -> list[Sequence[Any]]:
        if self._local is not None:
            return [values]
        return [values[offset:offset + count] for offset, count in self._shares]

    def _observations(self, buffer_set: int, rests: list[list[Any]]) -> Any:
        """The batch: views of the arrays of `buffer_set` (nobody holds one of them; the next
        steps write other sets while these views are alive), copies only from the scratch set."""
        arrays = self._sets[buffer_set]
        if buffer_set == self._scratch:  # read-only like every set's views (see `_read_only`)
            arrays = {key: _read_only(array.copy() if self.copy else array) for key, array in arrays.items()}
        else:
            arrays = {key: memory.view() for key, memory in self._watched[buffer_set].items()}
        if self._rest_space is not None:
            self._rests = concatenate(self._rest_space, [rest for share in rests for rest in share], self._rests)
        if None in arrays:
            return arrays[None]
        if isinstance(self.single_observation_space, spaces.Dict):
            return {key: arrays[key] if key in arrays else self._rests[key]
                    for key in self.single_observation_space.spaces}
        return copying.deepcopy(self._rests) if self.copy else self._rests

    def _merged_infos(self, parts: list[Any]) -> dict[str, Any]:
        if self._local is not None:
            return parts[0]  # unpacked in this process: already arrays
        return from_columns(parts, [count for _, count in self._shares], self.num_envs)

    # -- gymnasium API -------------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)):
            seeds = [int(seed) + index for index in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        self._refuse_while_pending("reset")
        if seed is not None:
            self._np_random_seed = seeds[0]
        buffer_set = self._pick_set()
        answers = self._each_share("reset", [(buffer_set, part, options) for part in self._split(seeds)])
        return (self._observations(buffer_set, [rests for rests, _ in answers]),
                self._merged_infos([infos for _, infos in answers]))

    def step(self, actions: Any) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: Any) -> None:
        """Sends the step to the workers and returns without waiting; `step_wait` collects
        it. Meanwhile this process is free, for instance to step another vector env (whose
        workers are pinned to other CPUs, `pin_workers`). Without workers, the step runs in
        `step_wait`."""
        self._refuse_while_pending("step_async")
        actions = list(actions)
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} environments")
        buffer_set = self._pick_set()
        payloads = [(buffer_set, part) for part in self._split(actions)]
        if self._local is not None:
            self._pending = _Pending(buffer_set, [], None, payloads)
        else:
            self._pending = _Pending(buffer_set, *self._send("step", payloads), None)

    def step_wait(self, timeout: float | None = None) -> tuple[Any, np.ndarray, np.ndarray, np.ndarray,
                                                               dict[str, Any]]:
        """The results of the step `step_async` sent, as `step` returns them. After `timeout`
        seconds without every answer, raises ``multiprocessing.TimeoutError`` and the step
        stays pending: a later `step_wait` collects it."""
        pending = self._pending
        if pending is None:
            raise NoAsyncCallError("Calling `step_wait` without any prior call to `step_async`.", "step")
        if timeout is not None and not self._answered(pending.sent, timeout):
            raise multiprocessing.TimeoutError(f"the workers did not answer the step within {timeout} s; "
                                               "step_wait again collects it")
        self._pending = None
        buffer_set = pending.buffer_set
        local, payloads = self._local, pending.payloads
        if local is not None and payloads is not None:
            answers = [local.step(*payloads[0])]
        else:
            answers = self._collect(pending.sent, pending.error)
        outcomes = [answer[1] for answer in answers]
        rewards = np.concatenate([outcome.rewards for outcome in outcomes])  # copies: ours, writable
        terminations = np.concatenate([outcome.terminations for outcome in outcomes])
        truncations = np.concatenate([outcome.truncations for outcome in outcomes])
        infos = self._merged_infos([answer[2] for answer in answers])
        observations = self._observations(buffer_set, [answer[0] for answer in answers])
        return observations, rewards, terminations, truncations, infos

    def _answered(self, sent: list[int], timeout: float) -> bool:
        """Whether every worker in `sent` has answered (or ended) within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        waiting = [self._pipes[index] for index in sent]
        while waiting:
            ready = multiprocessing.connection.wait(waiting, max(0.0, deadline - time.monotonic()))
            if not ready:
                return False
            waiting = [pipe for pipe in waiting if pipe not in ready]
        return True

    def _refuse_while_pending(self, name: str) -> None:
        """Gymnasium's rule for async vector envs: nothing else while a step is out."""
        if self._pending is not None:
            raise AlreadyPendingCallError(f"Calling `{name}` while a step sent by `step_async` waits for `step_wait`",
                                          "step")

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """Calls a method (or reads an attribute) of every environment, in row order."""
        self._refuse_while_pending("call")
        answers = self._each_share("call", [(name, args, kwargs)] * (len(self._pipes) or 1))
        return tuple(value for answer in answers for value in answer)

    def get_attr(self, name: str) -> tuple[Any, ...]:
        return self.call(name)

    def set_attr(self, name: str, values: list[Any] | tuple[Any, ...] | Any) -> None:
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(f"{len(values)} values for {self.num_envs} environments")
        self._refuse_while_pending("set_attr")
        self._each_share("set_attr", [(name, part) for part in self._split(list(values))])

    def render(self) -> tuple[Any, ...] | None:
        return self.call("render") if self.render_mode is not None else None

    def close_extras(self, **kwargs: Any) -> None:
        pending, self._pending = self._pending, None
        if pending is not None and pending.sent:  # read, so no worker blocks writing an answer
            try:
                self._collect(pending.sent, None)
            except WorkerError:
                pass  # closing anyway
        if self._local is not None:
            self._local.close()
            self._local = None
        self._stop_workers()

    def _stop_workers(self) -> None:
        for pipe in self._pipes:
            try:
                pipe.send(("close", ()))
            except (BrokenPipeError, OSError):
                pass
        for process in self._processes:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
                process.join()
        for pipe in self._pipes:
            pipe.close()
        self._pipes, self._processes, self._unpackers, self._send_orders = [], [], [], {}

    def __del__(self) -> None:
        if getattr(self, "_processes", None) and not getattr(self, "closed", True):
            self.close()

    def __repr__(self) -> str:
        workers = 0 if self._local is not None else len(self._processes)
        return f"CommaVectorEnv({self._env_kwargs.get('puzzle')!r}, num_envs={self.num_envs}, workers={workers})"


class _Pending(NamedTuple):
    """A step that `step_async` sent and `step_wait` has not collected."""

    buffer_set: int
    sent: list[int]
    """The workers that got it."""
    error: WorkerError | None
    """A worker that could not be sent it (raised once the others have answered)."""
    payloads: list[tuple[Any, ...]] | None
    """Without workers, the step to run in `step_wait`."""


def _read_only(array: np.ndarray) -> np.ndarray:
    """A read-only view. Batches are read-only because the environments repaint only what
    changed in a set's rows since they last drew there: a caller's write into a handed-out
    batch would stay in the next pictures drawn in that set."""
    view = array.view()
    view.flags.writeable = False
    return view


def _rest_space(space: gymnasium.Space, array_keys: list[Any]) -> gymnasium.Space | None:
    """The space of what is not in the buffers (the text): a `Dict` without its arrays."""
    if None in array_keys:
        return None
    if isinstance(space, spaces.Dict):
        rest = {key: part for key, part in space.spaces.items() if key not in array_keys}
        return spaces.Dict(rest) if rest else None
    return space


class _EnvFactory:
    """Builds one `SingleRoleEnv` in a worker (a class, not a lambda, so it pickles)."""

    def __init__(self, env_kwargs: dict[str, Any]) -> None:
        self.env_kwargs = env_kwargs

    def __call__(self) -> SingleRoleEnv:
        return SingleRoleEnv(**self.env_kwargs)
