"""How well the scripted partners (``oracle_nl``) understand plain English, on sets of test
language written by people who never saw the readers (issue 56).

Each set is a folder of JSONL files, one per puzzle (format: tests/data/nl/dev/README-A1.md
and README-A2.md). Two kinds of item:

- ``describe``: a solver's messages; the scripted expert answers them in a real environment
  (the action lines of earlier messages are executed, the expert answers each message) and its
  answer to the last one is judged;
- ``advise``: an expert's messages; the scripted solver, looking at the instance after
  ``reset(seed)`` and the ``prefix`` actions, answers them, and the lines it types are executed.

An item is *understood and correct* when the partner did what the item expects, judged by
outcome: the advice (carried out on the true state, the puzzle's own ``expand_advice`` for
lines such as "release when the timer shows a 4") or the typed actions make no mistake and
leave the puzzle as the expected ones do (the same picture and progress, or both solved, or
solved after passing where the expected ones end; the timer of Button and Dog is left out, so
any right moment counts). An *ask* item (ambiguous or
incomplete) is answered correctly by a question; advising or acting on it is *wrong*. An
expert's advice also has to say in prose what it decided: the scripted solver reads the
expert's words back on the true state, and a mismatch is wrong. On an act item, a question
is *asked back*: not wrong, not understood.

    python examples/partner_eval.py --data tests/data/nl/dev --set dev
    python examples/partner_eval.py --data HELD_OUT_A1 HELD_OUT_A2 --set held-out

writes the set's counts to docs/_generated/partners/<set>.json and the table of every set
there to docs/_generated/partners.md (docs/partners.md shows it).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import platform
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from doc_tables import measured_at

import comma_env
from comma_env.agents.oracle import OraclePolicy
from comma_env.protocol.clock import parse_wait

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "docs" / "_generated"
SET_ORDER = ("dev", "held-out", "independent")
"""The sets in the order the table shows them (others follow, by name)."""
CORRECT, WRONG, ASKED = "correct", "wrong", "asked"


@dataclass
class Outcome:
    item: str
    puzzle: str
    direction: str
    ambiguous: bool
    verdict: str
    why: str = ""


def load_items(folders: list[Path]) -> list[dict[str, Any]]:
    """Every item of every ``*.jsonl`` file in `folders` (and their subfolders), in file order."""
    items = []
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    items.append(json.loads(line))
    return items


# -- carrying advice out on a copy of the true puzzle ---------------------------------------------
def carry_out(puzzle: Any, lines: list[str]) -> str | None:
    """Execute advice `lines` on `puzzle` (action names, ``wait N``, or advice lines the puzzle
    expands); returns why it failed, or None."""
    for line in lines:
        valid = puzzle.valid_actions()
        if line in valid or (puzzle.uses_clock and parse_wait(line) is not None):
            actions = [line]
        else:
            actions = type(puzzle).expand_advice(line, puzzle.visible_state())
            if not actions or actions == [line]:
                return f"{line!r} is neither an action here nor advice the puzzle expands"
        for action in actions:
            wait = parse_wait(action) if puzzle.uses_clock else None
            if wait is not None:
                puzzle.elapse(wait)
                if puzzle.time_up:
                    return "the timer ran out"
                continue
            if action not in puzzle.valid_actions():
                return f"{action!r} is not a valid action here"
            if not puzzle.apply(action):
                return f"{action!r} is a mistake"
    return None


def picture(puzzle: Any) -> dict[str, Any]:
    """What the outcome is compared on: the visible state (timer left out) and the progress."""
    state = {k: v for k, v in puzzle.visible_state().items() if not (puzzle.uses_clock and k == "timer")}
    return {"state": state, "progress": puzzle.progress, "solved": puzzle.solved}


def same_outcome(puzzle: Any, lines: list[str], expected: list[list[str]]) -> str | None:
    """None when carrying `lines` out on a copy of `puzzle` is as good as one of `expected`."""
    ours = copy.deepcopy(puzzle)
    passed = [picture(ours)]  # where ours stood after each line: going on from the expected end to solve is right
    for line in lines:
        failure = carry_out(ours, [line])
        if failure:
            return failure
        passed.append(picture(ours))
    for option in expected:
        theirs = copy.deepcopy(puzzle)
        if carry_out(theirs, option) is not None:
            continue
        a, b = picture(ours), picture(theirs)
        if (a["solved"] and (b["solved"] or b in passed)) or a == b:
            return None
    return f"{lines} does not end where {expected[0]} does"


def typed_lines(text: str, puzzle: Any) -> list[str]:
    """The lines of a solver message the environment would execute, in order, stopping at the
    first mistake as the protocol does (executed on `puzzle`)."""
    typed = []
    for raw in text.splitlines():
        line = raw.strip()
        if puzzle.uses_clock and parse_wait(line) is not None:
            typed.append(line)
            puzzle.elapse(parse_wait(line) or 0)
            continue
        if line in puzzle.valid_actions():
            typed.append(line)
            if not puzzle.apply(line) or puzzle.solved:
                break
    return typed


# -- the two directions ----------------------------------------------------------------------------
async def judge_describe(item: dict[str, Any], policy: OraclePolicy) -> Outcome:
    env = comma_env.make(item["puzzle"], solver_view="text")
    env.reset(seed=item["seed"])
    expert = policy.player("expert", env, item["seed"])
    reply = None
    for number, message in enumerate(item["messages"]):
        env.step(message)
        observation, _, _, _, info = env.last()
        reply = await expert.act(observation, info)
        if number < len(item["messages"]) - 1:
            env.step(reply.text)
    assert reply is not None
    understood = reply.understood or {}
    outcome = Outcome(item["id"], item["puzzle"], "describe", "ask" in item["expect"], WRONG)
    advice = understood.get("advice")
    puzzle = env.unwrapped.puzzle
    if not advice:
        outcome.verdict = CORRECT if outcome.ambiguous else ASKED
        outcome.why = f"asked: {understood.get('ask')}"
        return outcome
    if outcome.ambiguous:
        # a careful expert may leave the choice to what the solver sees (ATM's balance rule)
        deferred = not any(line in puzzle.valid_actions() for line in advice)
        failure = same_outcome(puzzle, advice, [advice]) if deferred else "advised"
        outcome.verdict = CORRECT if failure is None and deferred else WRONG
        outcome.why = f"advised {advice}"
        return outcome
    expected = [item["expect"]["advice"], *item["expect"].get("alternatives", [])]
    failure = same_outcome(puzzle, advice, expected)
    if failure is None and item.get("goal_row_column"):  # Maze: any mistake-free route to the goal
        failure = None
    if failure is None:
        failure = await read_back(policy, env, reply.text, advice)
    outcome.verdict = CORRECT if failure is None else WRONG
    outcome.why = failure or ""
    return outcome


async def read_back(policy: OraclePolicy, env: Any, text: str, advice: list[str]) -> str | None:
    """The scripted solver reads the expert's words on the true state: they must come to what
    the expert decided (checked by outcome). Advice the solver can only finish once it sees
    the next picture (log in, then apply the balance rule) is read again on each new picture,
    as a customer would reread it, until it comes to that, up to four times."""
    start = copy.deepcopy(env.unwrapped.puzzle)
    view = SimpleNamespace(puzzle=copy.deepcopy(start), puzzle_cls=env.unwrapped.puzzle_cls)
    view.unwrapped = view
    info = {"dialogue": [{"speaker": "expert", "text": text}]}
    typed: list[str] = []
    for _ in range(4):
        reply = await policy.player("solver", view, env.unwrapped.seed_used).act({}, info)
        more = typed_lines(reply.text, view.puzzle)
        typed += more
        failure = same_outcome(start, typed, [advice])
        if failure is None or not more or view.puzzle.solved:
            break
    return None if failure is None else f"the words say {typed}, the advice was {advice}"


async def judge_advise(item: dict[str, Any], policy: OraclePolicy) -> Outcome:
    env = comma_env.make(item["puzzle"], solver_view="text")
    env.reset(seed=item["seed"])
    puzzle = env.unwrapped.puzzle
    failure = carry_out(puzzle, item["prefix"])  # the picture the expert's words are about
    assert failure is None, (item["id"], failure)
    solver = policy.player("solver", env, item["seed"])
    info = {"dialogue": [{"speaker": "expert", "text": message} for message in item["messages"]]}
    reply = await solver.act({}, info)
    outcome = Outcome(item["id"], item["puzzle"], "advise", "ask" in item["expect"], WRONG)
    typed = typed_lines(reply.text, copy.deepcopy(puzzle))
    if not typed:
        outcome.verdict = CORRECT if outcome.ambiguous else ASKED
        outcome.why = f"asked: {(reply.understood or {}).get('ask')}"
        return outcome
    if outcome.ambiguous:
        outcome.why = f"typed {typed}"
        return outcome
    failure = same_outcome(puzzle, typed, [item["expect"]["actions"]])
    outcome.verdict = CORRECT if failure is None else WRONG
    outcome.why = failure or ""
    return outcome


def evaluate(items: list[dict[str, Any]], policy_seed: int = 0) -> list[Outcome]:
    policy = OraclePolicy("natural", seed=policy_seed)

    async def run() -> list[Outcome]:
        judge = {"describe": judge_describe, "advise": judge_advise}
        return [await judge[item["direction"]](item, policy) for item in items]

    return asyncio.run(run())


# -- tables ----------------------------------------------------------------------------------------
def counts(outcomes: list[Outcome]) -> dict[str, dict[str, dict[str, int]]]:
    """puzzle -> direction -> {items, ambiguous, correct, wrong, asked, wrong_on_ambiguous}."""
    table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for o in outcomes:
        for puzzle in (o.puzzle, "all"):
            row = table[puzzle][o.direction]
            row["items"] += 1
            row["ambiguous"] += o.ambiguous
            row[o.verdict] += 1
            row["wrong_on_ambiguous"] += o.ambiguous and o.verdict == WRONG
    keys = ("items", "ambiguous", CORRECT, WRONG, ASKED, "wrong_on_ambiguous")
    return {p: {d: {k: int(row[k]) for k in keys} for d, row in dirs.items()} for p, dirs in table.items()}


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "–"


def render(sets: dict[str, dict[str, Any]]) -> str:
    """The docs table: one section per set, one row per puzzle and direction."""
    lines = ["*Written by `examples/partner_eval.py`; one section per set it was run on.*", ""]
    for name in sorted(sets, key=lambda s: (SET_ORDER.index(s) if s in SET_ORDER else len(SET_ORDER), s)):
        data = sets[name]
        lines += [f"**{name}** ({data['items']} items; {data['machine']}; measured at git "
                  f"{data.get('revision', '?')})", "",
                  "| puzzle | direction | items (ambiguous) | understood and correct | wrong | asked back "
                  "| wrong on ambiguous |", "|---|---|---|---|---|---|---|"]
        table = data["counts"]
        for puzzle in [*sorted(p for p in table if p != "all"), "all"]:
            for direction in ("describe", "advise"):
                row = table[puzzle].get(direction)
                if not row:
                    continue
                name_cell = f"**{puzzle}**" if puzzle == "all" else puzzle
                lines.append(f"| {name_cell} | {direction} | {row['items']} ({row['ambiguous']}) "
                             f"| {row[CORRECT]} ({_percent(row[CORRECT], row['items'])}) | {row[WRONG]} "
                             f"| {row[ASKED]} | {row['wrong_on_ambiguous']} |")
        lines.append("")
    return "\n".join(lines)


def write(set_name: str, outcomes: list[Outcome], out: Path) -> dict[str, Any]:
    """Store the set's counts beside the table and rewrite the table of every stored set."""
    results = out.with_suffix("")  # docs/_generated/partners/
    results.mkdir(parents=True, exist_ok=True)
    data = {"items": len(outcomes), "counts": counts(outcomes),
            "machine": f"{platform.machine()}, Python {platform.python_version()}, comma_env {comma_env.__version__}",
            "revision": measured_at()}
    (results / f"{set_name}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sets = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in sorted(results.glob("*.json"))}
    out.write_text(render(sets), encoding="utf-8")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs="+", type=Path, required=True, help="folders of <puzzle>.jsonl files")
    parser.add_argument("--set", default="dev", help="the set's name in the table (dev, held-out, independent)")
    parser.add_argument("--out", type=Path, default=GENERATED / "partners.md")
    parser.add_argument("--show", choices=("wrong", "asked", "all", "none"), default="wrong",
                        help="which items to list on stdout")
    parser.add_argument("--puzzle", nargs="*", help="only these puzzles (the table is then not written)")
    args = parser.parse_args(argv)
    items = [i for i in load_items(args.data) if not args.puzzle or i["puzzle"] in args.puzzle]
    outcomes = evaluate(items)
    for o in outcomes:
        if args.show == "all" or o.verdict == args.show or (args.show == "asked" and o.verdict == WRONG):
            print(f"{o.verdict:7} {o.item}: {o.why}")
    data = {"counts": counts(outcomes)} if args.puzzle else write(args.set, outcomes, args.out)
    for direction in ("describe", "advise"):
        row = data["counts"]["all"].get(direction)
        if row:
            print(f"{direction}: {row[CORRECT]}/{row['items']} understood and correct, {row[WRONG]} wrong "
                  f"({row['wrong_on_ambiguous']} on ambiguous items), {row[ASKED]} asked back")
    return 0


if __name__ == "__main__":
    sys.exit(main())
