"""Error taxonomy of failed episodes (paper, section 5.2): repetition loops by rule, the rest by an
optional LLM judge; labels go to ``out_dir/judgements.jsonl``."""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from comma_env.protocol.metrics import RULE_LABELS, TAXONOMY, UNJUDGED
from comma_env.protocol.prompts import quote

CATEGORIES = (*TAXONOMY, "other")
"""The paper's taxonomy (`comma_env.protocol.metrics.TAXONOMY`) plus a catch-all."""
JUDGED = tuple(c for c in CATEGORIES if c not in RULE_LABELS)
"""The categories the judge chooses from (repetition loops are the rule's)."""

JUDGE_SYSTEM_PROMPT = (
    "You are a JUDGE reviewing a failed game between two AI agents. The SOLVER can see a "
    "puzzle and act on it; the EXPERT holds the manual and can only talk. Decide which single "
    "category best explains why they failed (the agents' messages are quoted, each line "
    "starting with '> '; unquoted lines such as '(executed ...)' come from the game):\n"
    "- roleplay: an agent behaves as if it held the other role (the expert claims to see or "
    "act on the puzzle, or the solver recites manual rules as if it were the expert).\n"
    "- misinterpretation: the solver describes or reads the puzzle state or a signal wrongly "
    "(compare with the ground-truth starting state when it is given), so the actions rest "
    "on a wrong picture.\n"
    "- miscommunication: one agent does not follow what the other said: the solver ignores "
    "or contradicts the expert's instructions and acts alone, or the expert ignores the "
    "solver's description or question.\n"
    "- other: none of these.\n"
    'Answer with JSON only: {"label": "<category>", "reason": "<one sentence>"}.'
)


def rule_label(record: Mapping[str, Any]) -> str | None:
    """``repetition_loop`` when the environment saw a repeated failed state-action pair."""
    return "repetition_loop" if record.get("repetition_loop") else None


def is_failure(record: Mapping[str, Any]) -> bool:
    """Episodes the taxonomy covers: finished without success and without an API error."""
    return not record.get("success") and not record.get("error")


def transcript_text(record: Mapping[str, Any], max_chars: int = 12000) -> str:
    """The conversation with executed actions and their outcomes (the agents' text quoted)."""
    lines = []
    for turn in record.get("transcript") or []:
        lines += [f"[turn {turn.get('turn')}] SOLVER wrote:", quote(str(turn.get("solver") or ""))]
        for action, ok in zip(turn.get("actions") or [], turn.get("outcomes") or [], strict=False):
            lines.append(f"  (executed {action}: {'ok' if ok else 'MISTAKE'})")
        if turn.get("expert") is not None:
            lines += [f"[turn {turn.get('turn')}] EXPERT wrote:", quote(str(turn["expert"]))]
    text = "\n".join(lines)
    return text if len(text) <= max_chars else text[: max_chars // 2] + "\n...\n" + text[-max_chars // 2:]


def judge_messages(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    facts = {k: record.get(k) for k in ("puzzle", "progress", "mistakes", "end_reason")}
    truth = record.get("initial_state")  # written by comma_env.run.rollout since it records it
    body = f"Episode facts: {json.dumps(facts)}\n"
    if truth is not None:
        body += f"Ground-truth puzzle state at the start: {json.dumps(truth)}\n"
    body += "Conversation:\n" + transcript_text(record)
    return [{"role": "system", "content": JUDGE_SYSTEM_PROMPT}, {"role": "user", "content": body}]


def parse_label(text: str) -> str:
    """The category in a judge reply (JSON, or failing that the first category name)."""
    match = re.search(r"\{.*\}", text or "", re.DOTALL)
    if match:
        try:
            label = str(json.loads(match.group(0)).get("label", "")).strip().lower().replace(" ", "_")
            if label in CATEGORIES:
                return label
        except (json.JSONDecodeError, AttributeError):
            pass
    lowered = (text or "").lower()
    found = [(lowered.find(c.replace("_", " ")), c) for c in JUDGED if c.replace("_", " ") in lowered]
    return min(found)[1] if found else "other"


async def judge_records(records: Sequence[Mapping[str, Any]], judge_cfg: Any | None = None,
                        concurrency: int = 8) -> dict[tuple[str, int], list[str]]:
    """Labels for every failed episode: the rule's, plus the judge's when configured (``unjudged``
    when its call failed for good)."""
    client = judge_client(judge_cfg) if judge_cfg is not None else None
    limit = asyncio.Semaphore(max(1, concurrency))

    async def one(record: Mapping[str, Any]) -> tuple[tuple[str, int], list[str]]:
        key = (str(record.get("puzzle")), int(record.get("seed") or 0))
        rule = rule_label(record)
        labels = [rule] if rule else []
        if client is None:
            return key, labels
        async with limit:
            try:
                reply = await client.complete(judge_messages(record))
                judged = parse_label(reply.text)
            except Exception:  # noqa: BLE001 - recorded as unjudged, not lost
                judged = "unjudged"
        if judged not in labels:  # "other" is kept too: it marks the episode as judged
            labels.append(judged)
        return key, labels

    try:
        pairs = await asyncio.gather(*(one(r) for r in records if is_failure(r)))
    finally:
        closer = getattr(client, "aclose", None)
        if closer is not None:  # the HTTP sessions of this loop
            await closer()
    return {key: labels for key, labels in pairs if labels}


def judge_client(judge_cfg: Any) -> Any:
    """The chat client of a judge model's config (the players' client class and retries)."""
    from comma_env.agents.llm import ChatClient, LLMSettings

    return ChatClient(LLMSettings.from_config(judge_cfg))


def write_judgements(labels: Mapping[tuple[str, int], Any], out_dir: str | Path, name: str = "judgements.jsonl",
                     field: str | None = "error_types") -> Path:
    """Write each episode's labels (under `field`, else a verdict dict as it is) where
    `comma_env.run.results.attach_judgements` finds them."""
    path = Path(out_dir) / name
    with open(path, "w", encoding="utf-8") as handle:
        for (puzzle, seed), found in sorted(labels.items()):
            verdict = {field: list(found)} if field else dict(found)
            handle.write(json.dumps({"puzzle": puzzle, "seed": seed, **verdict}) + "\n")
    return path


def taxonomy_markdown(labels: Mapping[tuple[str, int], Sequence[str]], judged: bool, failed: int | None = None) -> str:
    """Share of failed episodes per error category (`failed` defaults to the labelled ones)."""
    total = len(labels) if failed is None else failed
    found = Counter(label for types in labels.values() for label in types)
    counts = {c: found[c] for c in (*CATEGORIES, UNJUDGED) if found[c] or c in CATEGORIES}
    how = "LLM judge + rule" if judged else "rule only (repetition loops); run the judge for the other categories"
    rows = ["## Error taxonomy of failed episodes", "", f"{total} failed episodes; labels: {how}.", "",
            "| category | episodes | share |", "|---|---:|---:|"]
    for category, n in counts.items():
        rows.append(f"| {category} | {n} | {100.0 * n / total if total else 0.0:.1f}% |")
    return "\n".join(rows) + "\n"


def model_config(name: str) -> Any:
    """``conf/model/NAME.yaml`` as a judge's `ModelConfig`; `ConfigError` when there is no such file
    or its API key is not set."""
    from comma_env.rl.partners import model_config as load
    from comma_env.run.checks import ConfigError, check_key

    try:
        config = load(name, what="model")
    except ValueError as error:
        raise ConfigError(str(error)) from None
    check_key("judge", config)
    return config


def judge_model(name: str, program: str = "comma_env.agents.judge") -> Any:
    """`model_config` for a judge's command line: a missing model or key exits 2, before anything is written."""
    import sys

    from comma_env.run.checks import ConfigError
    from comma_env.run.exits import EXIT_CONFIG_ERROR

    try:
        return model_config(name)
    except ConfigError as error:
        print(f"{program}: {error}", file=sys.stderr)
        sys.exit(EXIT_CONFIG_ERROR)


def judge_arguments(description: str, argv: Sequence[str] | None, model_required: bool) -> Any:
    """The judges' shared command line: OUT_DIR, --model, --concurrency."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("out_dir")
    parser.add_argument("--model", required=model_required, help="a conf/model name (kind litellm) to use as the judge")
    parser.add_argument("--concurrency", type=int, default=8)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m comma_env.agents.judge OUT_DIR [--model gpt4o]``: label OUT_DIR's failed episodes."""
    from comma_env.run.results import saved_records

    args = judge_arguments(str(main.__doc__), argv, model_required=False)
    judge_cfg = judge_model(args.model) if args.model else None
    records = saved_records(args.out_dir)
    labels = asyncio.run(judge_records(records, judge_cfg, args.concurrency))
    path = write_judgements(labels, args.out_dir)
    failed = sum(1 for r in records if is_failure(r))
    print(taxonomy_markdown(labels, judged=judge_cfg is not None, failed=failed))
    print(f"labels written to {path}")
    from comma_env.run.merge import merge

    merge([args.out_dir], quiet=True)  # results.json / results.md now include the labels
    print(f"tables updated in {args.out_dir}")


if __name__ == "__main__":
    main()
