"""Two learners (examples/two_learners.py): a learning expert and a learning solver,
trained together from scratch, agree on a code. Held-out seeds (10000+) are never trained
on. The expert reads only its own info (manual and dialogue), never the image or state.
The full run with its curves: examples/train_two_learners.py."""

from __future__ import annotations

import numpy as np
import pytest

from comma_env.protocol.text import DESCRIPTION_HEADER, describe_state
from tests.support.script_files import import_example

pair_learners = import_example("two_learners")  # examples/two_learners.py
EXPERT_INFO_KEYS = pair_learners.EXPERT_INFO_KEYS
VOCABULARY = pair_learners.VOCABULARY
LinearExpertPolicy = pair_learners.LinearExpertPolicy
evaluate_pair = pair_learners.evaluate_pair
make_pair = pair_learners.make_pair
make_pair_env = pair_learners.make_pair_env
play_pair = pair_learners.play_pair
protocol = pair_learners.protocol
train_pair = pair_learners.train_pair

HELD_OUT = range(10_000, 10_200)  # as in examples/train_two_learners.py
TRAINING_SEEDS = (0, 1, 2)  # each one pair, trained from scratch: every one must learn
EPISODES = 2000  # as in examples/train_two_learners.py


def train_and_measure(puzzle: str, seed: int) -> tuple[float, float, dict]:
    """One pair trained from scratch: held-out success before and after, and the code."""
    env = make_pair_env(puzzle)
    # the untrained pair (uniform choices), evaluated on its own copy: the trained pair's run
    # is then the one examples/train_two_learners.py reports for this seed
    before = evaluate_pair(env, *make_pair(puzzle, seed=seed), HELD_OUT, greedy=False)
    solver, expert = make_pair(puzzle, seed=seed)
    train_pair(env, solver, expert, range(EPISODES))
    return before, evaluate_pair(env, solver, expert, HELD_OUT), protocol(env, solver, expert, HELD_OUT)


PUZZLES = ("wire", "who")


@pytest.fixture(scope="module")
def trained() -> dict[tuple[str, int], tuple[float, float, dict]]:
    """Every pair, trained in two worker processes (each pair is independent and CPU-bound;
    CI has two cores)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    runs = [(puzzle, seed) for puzzle in PUZZLES for seed in TRAINING_SEEDS]
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = pool.map(train_and_measure, *zip(*runs, strict=True))
        return dict(zip(runs, results, strict=True))


@pytest.mark.parametrize("seed", TRAINING_SEEDS)
@pytest.mark.parametrize("puzzle", PUZZLES)
def test_expert_and_solver_learn_a_code_together(trained, puzzle: str, seed: int) -> None:
    before, after, said = trained[puzzle, seed]
    assert before < 0.7
    assert after >= 0.8, (puzzle, seed, before, after)
    assert after - before >= 0.25, (puzzle, seed, before, after)
    # the code: most meanings get a symbol of their own, which the solver acts on
    symbols = {meaning: counts.most_common(1)[0][0].split(" -> ")[0]
               for meaning, counts in said.items() if meaning != "none"}
    assert len(set(symbols.values())) >= len(symbols) // 2 + 1, said


def _solver_info(env, seed: int, symbol: str) -> dict:
    """The solver's info after it described and the expert answered `symbol`."""
    env.reset(seed=seed)
    env.step(f"{DESCRIPTION_HEADER}\n{env.infos['solver']['description']}")
    env.step(symbol)
    return env.infos["solver"]


def test_the_solver_decides_to_act_without_reading_the_symbol() -> None:
    """The two-stage solver's gate (describe or act) reads what it said last, not the
    expert's word: every symbol leaves the same chance of describing again, so no symbol can
    become "describe again"."""
    env = make_pair_env("who")
    solver, _ = make_pair("who", seed=3)
    solver.weights[:] = np.random.default_rng(0).normal(size=solver.dims)
    chances = {symbol: solver.probabilities(solver.features(_solver_info(env, 4, symbol)))
               for symbol in VOCABULARY}
    assert len({round(float(p[0]), 12) for p in chances.values()}) == 1
    assert len({tuple(np.round(p[1:], 6)) for p in chances.values()}) > 1  # which action does read it
    for p in chances.values():
        assert np.isclose(p.sum(), 1.0)
    env.reset(seed=4)
    first = solver.probabilities(solver.features(env.infos["solver"]))[0]
    assert not np.isclose(first, next(iter(chances.values()))[0])  # nothing said yet: another gate


@pytest.mark.parametrize("choice", [0, 2])
def test_the_two_stage_gradient_is_that_of_the_log_probability(choice: int) -> None:
    env = make_pair_env("who")
    solver, _ = make_pair("who")
    solver.entropy_bonus = 0.0
    solver.weights[:] = np.random.default_rng(1).normal(scale=0.5, size=solver.dims)
    rows = solver.features(_solver_info(env, 5, "ko"))
    indices, values = solver.gradient(rows, choice, advantage=1.0)
    analytic: dict[int, float] = {}
    for index, value in zip(indices.tolist(), values.tolist(), strict=True):
        analytic[index] = analytic.get(index, 0.0) + value
    for index, value in analytic.items():
        saved = solver.weights[index]
        solver.weights[index] = saved + 1e-6
        up = np.log(solver.probabilities(rows)[choice])
        solver.weights[index] = saved - 1e-6
        down = np.log(solver.probabilities(rows)[choice])
        solver.weights[index] = saved
        assert np.isclose(value, (up - down) / 2e-6, atol=1e-5), (index, value)


def test_the_mistake_penalty_is_phased_in_for_learning_only() -> None:
    """`play_pair(mistake_weight=w)`: the policies learn from rewards where a strike costs w
    times the penalty; the episode's return is the environment's."""
    env = make_pair_env("who")
    solver, expert = make_pair("who")
    struck = 0
    for seed in range(30):
        episode = play_pair(env, solver, expert, seed, mistake_weight=0.25)
        mistakes = env.episode_summary()["mistakes"]
        learnt = sum(reward for _, _, reward in episode.steps["solver"])
        assert np.isclose(learnt, episode.total + 0.75 * mistakes)
        struck += mistakes > 0
    assert struck  # some episodes had strikes, so the test could tell
    assert solver.updates == 0  # playing is not training
    train_pair(env, solver, expert, range(3), mistake_warmup=1000)
    assert solver.updates == expert.updates == 3


def _description_message(env, seed: int) -> str:
    env.reset(seed=seed)
    return f"{DESCRIPTION_HEADER}\n{describe_state(env.puzzle.visible_state())}"


def test_the_expert_is_handed_only_its_own_info() -> None:
    env = make_pair_env("who")
    solver, expert = make_pair("who")
    seen: list[dict] = []
    act = expert.act

    def recording_act(info, greedy=False):
        assert info is env.infos["expert"]  # the expert role's AEC info, nothing else
        seen.append(dict(info))
        return act(info, greedy=greedy)

    expert.act = recording_act  # type: ignore[method-assign]
    for seed in range(20):
        play_pair(env, solver, expert, seed)
    assert seen
    for info in seen:
        assert set(info) <= EXPERT_INFO_KEYS - {"episode"}  # it speaks only while the episode runs
        assert {entry["speaker"] for entry in info["dialogue"]} <= {"solver", "expert"}  # no feedback


def test_the_expert_refuses_anything_but_manual_and_dialogue() -> None:
    env = make_pair_env("wire")
    _, expert = make_pair("wire")
    env.reset(seed=1)
    info = dict(env.infos["expert"])
    for key, value in {"image": np.zeros((2, 2, 3), np.uint8), "valid_actions": ["cut_wire_1"],
                       "description": "x", "progress": 0.0}.items():
        with pytest.raises(ValueError):
            expert.features(dict(info, **{key: value}))


def test_the_expert_follows_what_the_solver_said_not_the_truth() -> None:
    """On instance A, a solver that describes instance B gets the manual's advice for B: the
    expert has no other way to know the state."""
    env = make_pair_env("wire")
    _, expert = make_pair("wire")
    rules = LinearExpertPolicy(manual_rules=env.puzzle_cls.expert_advice)
    differing = 0
    for a, b in [(s, s + 50) for s in range(30)]:
        message_b = _description_message(env, b)
        advice_b = env.puzzle_cls.expert_advice(env.puzzle.visible_state(), {})
        env.reset(seed=a)
        advice_a = env.puzzle_cls.expert_advice(env.puzzle.visible_state(), {})
        env.step(message_b)
        info = env.infos["expert"]
        assert rules.meaning(info) == advice_b[0]
        rows_here = expert.features(info)
        env.reset(seed=b)
        env.step(message_b)
        rows_there = expert.features(env.infos["expert"])  # same dialogue, other instance: same features
        assert all(np.array_equal(x, y) for x, y in zip(rows_here, rows_there, strict=True))
        differing += advice_a != advice_b
    assert differing >= 5  # the pairs of instances did disagree, so the test could tell


def test_the_docs_example_runs() -> None:
    from tests.support.docs_blocks import python_block

    namespace: dict = {}
    exec(compile(python_block("make_pair_env("), "docs/training-trainers.md", "exec"), namespace)
    episode = namespace["episode"]
    assert len(namespace["returns"]) == 60
    assert episode.conversation and episode.conversation[0][0] == "solver"
