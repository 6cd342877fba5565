"""gymnasium.make_vec over the single-role ids: sync and async (worker processes), text and
image views, Gymnasium's next-step autoreset, and the same observations as one env."""

from __future__ import annotations

import os

import gymnasium
import numpy as np
import pytest
from gymnasium.vector.utils.shared_memory import create_shared_memory, read_from_shared_memory, write_to_shared_memory

import comma_env  # noqa: F401  (registers the ids)
from comma_env.protocol.spaces import UnicodeText
from comma_env.rl import SingleRoleEnv, gym_id, gym_ids
from comma_env.rl.registration import role_puzzles
from comma_env.rl.vector import slot_size


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


def test_text_slots_take_memory_only_where_written():
    space = UnicodeText()  # a 4 MB slot per environment
    memory = create_shared_memory(space, n=32)
    arena = memory._wrapper._state[0][0]  # multiprocessing's backing file of this memory
    size = 32 * slot_size(space)
    assert os.fstat(arena.fd).st_blocks * 512 < size // 100  # the length of each slot, not the slots
    texts = read_from_shared_memory(space, memory, n=32)
    assert tuple(texts) == ("",) * 32
    write_to_shared_memory(space, 31, "ß 🙂 end", memory)
    assert texts[31] == "ß 🙂 end" and texts[30] == ""


def test_role_puzzles_cover_every_id():
    assert len(gym_ids()) == 2 * len(role_puzzles())
