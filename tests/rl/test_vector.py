"""gymnasium.make_vec over the single-role ids: sync and async (worker processes), text and
image views, Gymnasium's next-step autoreset, the same observations as one env, and async
stepping exactly as sync does, texts included (they travel through shared memory)."""

from __future__ import annotations

import gc
from multiprocessing.shared_memory import SharedMemory

import gymnasium
import numpy as np
import pytest

import comma_env  # noqa: F401  (registers the ids)
from comma_env.rl import SingleRoleEnv, gym_id, gym_ids
from comma_env.rl.registration import role_puzzles


def play(envs, steps: int, num_envs: int):
    """Say "hello", then the first valid action; returns (observations, infos, dones) per step."""
    observations, infos = envs.reset(seed=list(range(num_envs)))
    history = [(observations, infos, np.zeros(num_envs, dtype=bool))]
    for _ in range(steps):
        actions = []
        for i in range(num_envs):
            valid = infos["valid_actions"][i] if "valid_actions" in infos and infos["_valid_actions"][i] else None
            actions.append(str(valid[0]) if valid is not None and len(valid) and len(history) % 2 == 0 else "hello")
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert rewards.shape == (num_envs,) and rewards.dtype == np.float64
        history.append((observations, infos, terminated | truncated))
    return history


CASES = [(env_id, "text") for env_id in gym_ids()] + [(env_id, "image") for env_id in gym_ids() if "-solver-" in env_id]


@pytest.mark.parametrize("env_id,view", CASES)
def test_every_id_vectorises_in_sync_mode(env_id, view):
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="sync", partner="random", solver_view=view)
    try:
        history = play(envs, 6 if view == "text" else 3, 2)
        observations, infos, _ = history[0]
        assert isinstance(observations["text"], tuple) and all(isinstance(t, str) and t for t in observations["text"])
        if view == "image":
            assert observations["image"].shape[0] == 2 and observations["image"].dtype == np.uint8
        if env_id.endswith("-solver-v0") and view == "text":  # seeds 0 and 1 are two instances
            assert observations["text"][0] != observations["text"][1]
    finally:
        envs.close()


def single_env_texts(puzzle: str, role: str, view: str, seeds: list[int]) -> list[str]:
    texts = []
    for seed in seeds:
        env = SingleRoleEnv(puzzle, role=role, partner="random", solver_view=view)
        observation, _ = env.reset(seed=seed)
        texts.append(observation["text"])
        env.close()
    return texts


@pytest.mark.parametrize("puzzle,role,view", [("wire", "solver", "image"), ("who", "expert", "text"),
                                              ("telehealth", "solver", "image"), ("maze", "solver", "text")])
def test_async_workers_match_a_single_env_and_autoreset(puzzle, role, view):
    envs = gymnasium.make_vec(gym_id(puzzle, role), num_envs=2, vectorization_mode="async", partner="random",
                              solver_view=view)
    try:
        observations, infos = envs.reset(seed=[3, 4])
        assert list(observations["text"]) == single_env_texts(puzzle, role, view, [3, 4])
        if view == "image" and role == "solver":
            image = observations["image"]
            assert image.shape[0] == 2 and image.dtype == np.uint8
            reference = SingleRoleEnv(puzzle, partner="random", solver_view="image").reset(seed=3)[0]["image"]
            assert np.array_equal(image[0], reference)
        ended_at = None
        for step in range(40):
            observations, rewards, terminated, truncated, infos = envs.step(["hello", "hello"])
            assert all(isinstance(text, str) for text in observations["text"])
            if ended_at is None and (terminated[0] or truncated[0]):
                ended_at = step
                assert infos["_episode"][0] and "return" in infos["episode"]
            elif ended_at is not None:  # next-step autoreset: the following step starts a new episode
                assert rewards[0] == 0.0 and not terminated[0] and not truncated[0]
                assert "episode" not in infos or not infos["_episode"][0]
                break
        assert ended_at is not None, "saying hello forever must end at max_turns"
    finally:
        envs.close()


def test_texts_survive_unicode_and_long_messages_through_shared_memory():
    envs = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=2, vectorization_mode="async", partner="random",
                              solver_view="text")
    try:
        envs.reset(seed=[0, 1])
        message = "中文 🙂 ß\u200b " * 2000
        observations, *_ = envs.step([message, "x"])
        assert "中文 🙂 ß" in observations["text"][0] and "中文" not in observations["text"][1]
    finally:
        envs.close()


def test_texts_reach_workers_started_by_spawn():
    """Spawned workers (forkserver's too, the default from Python 3.14) get the text slots pickled."""
    envs = gymnasium.make_vec(gym_id("who", "expert"), num_envs=2, vectorization_mode="async", partner="random",
                              solver_view="text", vector_kwargs={"context": "spawn"})
    try:
        observations, _ = envs.reset(seed=[3, 4])
        assert list(observations["text"]) == single_env_texts("who", "expert", "text", [3, 4])
        observations, *_ = envs.step(["hello", "ß 🙂"])
        assert all(isinstance(text, str) and text for text in observations["text"])
    finally:
        envs.close()


def test_the_text_block_is_freed_with_its_vector_env():
    """The shared memory of the texts is unlinked once its vector env is closed and gone, so
    runs that make many vector envs do not fill /dev/shm."""
    envs = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=2, vectorization_mode="async", partner="random",
                              solver_view="text")
    envs.reset(seed=0)
    name = envs.unwrapped.observations["text"]._slots.memory.name
    SharedMemory(name).close()  # there while the vector env lives
    envs.close()
    del envs
    gc.collect()
    with pytest.raises(FileNotFoundError):
        SharedMemory(name)


def assert_same(left, right, path="") -> None:
    """Deep equality of batched observations and infos: dicts by key, arrays by dtype and value,
    texts as sequences of strings."""
    if isinstance(left, dict):
        assert isinstance(right, dict) and set(left) == set(right), (path, sorted(left), sorted(right))
        for key in left:
            assert_same(left[key], right[key], f"{path}.{key}")
    elif isinstance(left, np.ndarray):
        assert isinstance(right, np.ndarray) and left.dtype == right.dtype and left.shape == right.shape, path
        assert list(left) == list(right) if left.dtype == object else np.array_equal(left, right), path
    else:
        assert left == right, (path, left, right)


def scripted_actions(infos, num_envs: int, step: int) -> list[str]:
    """"hello" on even steps, else a valid action, a garbage line or long unicode."""
    actions = []
    for i in range(num_envs):
        valid = infos["valid_actions"][i] if "valid_actions" in infos and infos["_valid_actions"][i] else None
        if step % 2 == 0 or not valid:
            actions.append("hello" if (step + i) % 3 else "**cut_wire_9** 99999999999999 \u202e 中文🙂" * 50)
        else:
            actions.append(str(valid[(step + i) % len(valid)]))
    return actions


@pytest.mark.parametrize("puzzle,role,view,steps", [("wire", "solver", "image", 14), ("who", "expert", "text", 8),
                                                    ("sound", "solver", "image", 8)])
def test_async_steps_exactly_as_sync(puzzle, role, view, steps):
    """Observations (texts, pictures, Sound's clip), rewards, ends and merged infos of the
    async mode equal the sync mode's, step by step, autoresets included."""
    options = {"partner": "random", "solver_view": view}
    reference = gymnasium.make_vec(gym_id(puzzle, role), num_envs=3, vectorization_mode="sync", **options)
    subject = gymnasium.make_vec(gym_id(puzzle, role), num_envs=3, vectorization_mode="async", **options)
    ended = 0
    try:
        assert subject.observation_space == reference.observation_space
        expected, expected_infos = reference.reset(seed=7)
        got, infos = subject.reset(seed=7)
        assert_same(expected, got, "reset")
        assert_same(expected_infos, infos, "reset infos")
        for step in range(steps):
            actions = scripted_actions(expected_infos, 3, step)
            expected, expected_rewards, expected_term, expected_trunc, expected_infos = reference.step(actions)
            got, rewards, term, trunc, infos = subject.step(actions)
            assert isinstance(got["text"], tuple) and subject.observation_space.contains(got)
            assert_same(expected, got, f"step {step}")
            assert_same(expected_infos, infos, f"step {step} infos")
            assert np.array_equal(expected_rewards, rewards) and rewards.dtype == np.float64
            assert np.array_equal(expected_term, term) and np.array_equal(expected_trunc, trunc)
            ended += int(np.sum(term | trunc))
    finally:
        reference.close()
        subject.close()
    if puzzle == "wire":
        assert ended > 0, "the script must end episodes, so autoreset is compared too"


def steps_until_an_end(envs) -> dict:
    """Say "hello" until an episode ends (at max_turns at the latest); that step's infos."""
    envs.reset(seed=0)
    for _ in range(40):
        _, _, terminated, truncated, infos = envs.step(["hello", "hello"])
        if (terminated | truncated).any():
            return infos
    raise AssertionError("saying hello forever must end at max_turns")


def test_record_episode_statistics_needs_its_own_key():
    """SingleRoleEnv reports each finished episode under info["episode"], so Gymnasium's
    RecordEpisodeStatistics takes another key; its return is then the episode's."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    def wrapped(**options):
        envs = gymnasium.make_vec(gym_id("wire", "solver"), num_envs=2, partner="random", solver_view="text")
        return RecordEpisodeStatistics(envs, **options)

    envs = wrapped()
    with pytest.raises(ValueError, match="already exists"):
        steps_until_an_end(envs)
    envs.close()
    envs = wrapped(stats_key="episode_stats")
    infos = steps_until_an_end(envs)
    ended = infos["_episode_stats"]
    assert ended.any() and np.allclose(infos["episode_stats"]["r"][ended], infos["episode"]["return"][ended])
    envs.close()


def test_role_puzzles_cover_every_id():
    assert len(gym_ids()) == 2 * len(role_puzzles())
