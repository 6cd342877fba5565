"""What the TRL tests share: the recipe file docs/training.md shows, its partner settings, and
the return an environment gives for a logged episode's messages."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from comma_env.rl import SingleRoleEnv
from tests.support.script_files import load_script

NL = {"partner": "oracle_nl", "solver_view": "text"}
RECIPE = Path(__file__).resolve().parents[2] / "examples" / "recipes" / "comma_trl.py"


def trl_recipe() -> ModuleType:
    """examples/recipes/comma_trl.py, imported from its file."""
    return load_script(RECIPE, "comma_trl")


def replay(puzzle: str, seed: int, messages: list[str], **settings: object) -> float:
    """The return of a fresh solver `SingleRoleEnv` that is sent `messages` one at a time."""
    env = SingleRoleEnv(puzzle, role="solver", **settings)
    try:
        env.reset(seed=seed)
        return sum(env.step(m)[1] for m in messages)
    finally:
        env.close()


def play_with(factory: Callable[[], Any], messages: list[str]) -> list[tuple[tuple[str, int], float]]:
    """Build one environment with `factory` (as TRL does, here or in a spawned process), play
    three drawn episodes with `messages`: each one's (puzzle, seed) and `get_reward`."""
    env = factory()
    try:
        played = []
        for _ in range(3):
            env.reset(prompt=[{"role": "user", "content": ""}])
            for message in messages:
                env.send_message(message)
            played.append(((env.env.puzzle, env.seed), env.get_reward()))
        return played
    finally:
        env._close()


def tool_call_bias(tokenizer: Any, messages: list[str], bias: float = 12.0) -> list[list[Any]]:
    """A ``sequence_bias`` (GRPOConfig ``generation_kwargs``) that makes each assistant turn one
    ``send_message(m)`` call, the model choosing m among `messages`: every token of each such
    call is favoured after the generation prompt and the call's tokens so far."""
    import json

    start = tokenizer("<|im_start|>assistant\n", add_special_tokens=False)["input_ids"]
    end = [tokenizer.convert_tokens_to_ids("<|im_end|>")]
    sequences = {}
    for message in messages:
        call = json.dumps({"name": "send_message", "arguments": {"message": message}})
        ids = tokenizer(f"<tool_call>\n{call}\n</tool_call>", add_special_tokens=False)["input_ids"] + end
        sequences.update({tuple(start + ids[:n + 1]): bias for n in range(len(ids))})
    return [[list(sequence), value] for sequence, value in sequences.items()]


def cut_wire_bias(tokenizer: Any, wires: range = range(1, 7), bias: float = 12.0) -> list[list[Any]]:
    """`tool_call_bias` toward ``send_message("cut_wire_K")``, the model choosing K among `wires`."""
    return tool_call_bias(tokenizer, [f"cut_wire_{k}" for k in wires], bias)
