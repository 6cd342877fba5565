"""``python -m comma_env.rollout`` before Hydra takes over: answers ``--help`` and checks ``key=value``
overrides against the schema (exit code 2, naming the key, never the value)."""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Sequence
from enum import Enum
from pathlib import Path

from comma_env.run.exits import EXIT_CONFIG_ERROR, EXIT_OK, EXIT_RUN_ERROR  # noqa: F401 - re-exported

GROUPS = ("model", "solver", "expert", "protocol")
_OVERRIDE = re.compile(r"(\+\+|\+|~)?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)=(.*)", re.DOTALL)
_SIMPLE_VALUE = re.compile(r"[^,\[\]{}$()'\"]*")  # no sweep, list, dict, interpolation or quoting

USAGE = """python -m comma_env.rollout [overrides]   (python -m comma_env.rollout -m ... for sweeps)

Runs COMMA episodes with a solver and an expert model and writes episodes.jsonl,
results.json and results.md (the paper's tables, with its published rows beside yours)
into out_dir. Rerun the same command to resume. Examples:
  python -m comma_env.rollout model=oracle puzzles=[wire,who] episodes=20
  python -m comma_env.rollout solver=qwen2vl expert=gpt4o memory=last
  python -m comma_env.rollout model=gpt4o +model.extra.top_p=0.9
  python -m comma_env.rollout +puzzle_options.telehealth.lesion_source=padufes

A key the schema does not define is an error, with or without a leading +; only the keys
under puzzle_options.<puzzle>. and <role>.extra. are free-form. --cfg job prints the
composed configuration without running.

Exit codes: 0 done; 2 configuration error (nothing ran); 1 run error (finished episodes
are saved); 128+N stopped by signal N (rerun to resume)."""


def group_options(group: str) -> list[str]:
    """The option names of a config group (the YAML files of ``conf/<group>/``)."""
    from comma_env.protocol.resources import conf_dir

    return sorted(p.stem for p in (Path(conf_dir()) / group).glob("*.yaml"))


def help_text() -> str:
    import textwrap

    from comma_env.run.config import render_field_help

    groups = "\n".join(textwrap.fill(f"{g}: {', '.join(group_options(g))}", 100, initial_indent="  ",
                                     subsequent_indent="      ") for g in GROUPS)
    return (f"{USAGE}\n\n== Fields (field=value; model.<field>, solver.<field>, expert.<field>) ==\n"
            f"{render_field_help()}\n\n== Configuration groups (group=option) ==\n{groups}\n")


def _puzzle_problem(value: str) -> str | None:
    from comma_env.registry import VERSIONS

    if re.fullmatch(r"[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*", value):
        return f"puzzles takes a list in brackets: puzzles=[{value}]"
    if not re.fullmatch(r"\[[A-Za-z0-9_, ]*\]", value):
        return None
    names = [v.strip() for v in value[1:-1].split(",") if v.strip()]
    unknown = [n for n in names if n not in VERSIONS]
    if unknown:
        return f"unknown puzzle(s) {unknown}; choose from {', '.join(VERSIONS)}"
    return None if names else "puzzles is empty"


def _type_problem(key: str, kind: object, value: str) -> str | None:
    """Why `value` cannot be the field's type (None: it can, or we leave it to Hydra)."""
    if value in ("null", "None") or not _SIMPLE_VALUE.fullmatch(value):
        return None
    if kind is int or kind == "int":
        try:
            int(value.replace("_", ""))
        except ValueError:
            return f"{key} takes a whole number"
    if kind is float or kind == "float":
        try:
            float(value)
        except ValueError:
            return f"{key} takes a number"
    if isinstance(kind, type) and issubclass(kind, Enum) and value not in [m.value for m in kind]:
        return f"{key}: choose one of {', '.join(m.value for m in kind)}"
    return None


def check_override(token: str) -> str | None:
    """What is wrong with one command-line override (None: fine, or Hydra's to judge)."""
    from comma_env.run.config import Memory, schema_field, unknown_key

    match = _OVERRIDE.fullmatch(token)
    if match is None:
        return None
    prefix, key, value = match.groups()
    path = key.split(".")
    if path[0] == "hydra":
        return None
    if len(path) == 1 and path[0] in GROUPS and prefix in (None, "+", "++"):
        options = group_options(path[0])
        wanted = [v.strip() for v in value.split(",")] if _SIMPLE_VALUE.fullmatch(value.replace(",", "")) else []
        unknown = [v for v in wanted if v not in options and not (v == "null" and path[0] in ("solver", "expert"))]
        if unknown:
            # never echo what may be a pasted key
            shown = f" {unknown[0]!r}" if re.fullmatch(r"[A-Za-z0-9_]{1,40}", unknown[0]) else ""
            closest = difflib.get_close_matches(unknown[0], options, n=1) if shown else []
            hint = f" (did you mean {closest[0]}?)" if closest else ""
            return f"{key}: no option{shown} in {path[0]}/{hint}; choose from {', '.join(options)}"
        return None
    field = schema_field(path)
    if field is None:
        return unknown_key(key)
    if field == "free" or prefix == "~":
        return None
    if key == "puzzles":
        return _puzzle_problem(value)
    kind = Memory if field.name == "memory" else field.type
    return _type_problem(key, kind, value)


def precheck(argv: Sequence[str]) -> str | None:
    """The first problem among the overrides, or None (flags other than -m are Hydra's)."""
    if any(a.startswith("-") and a not in ("-m", "--multirun") for a in argv):
        return None
    problems = (check_override(token) for token in argv if not token.startswith("-"))
    return next((problem for problem in problems if problem), None)


def main(argv: Sequence[str] | None = None) -> None:
    """The command: fast answers first, then Hydra (`comma_env.run.rollout.main`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("--help", "-h") for a in args):
        print(help_text())
        sys.exit(EXIT_OK)
    problem = precheck(args)
    if problem:
        print(f"comma_env.rollout: {problem}", file=sys.stderr)
        sys.exit(EXIT_CONFIG_ERROR)
    from comma_env.run import rollout

    try:
        rollout.main()
    except SystemExit as stop:
        if stop.code == 1 and not rollout.ENTERED:  # Hydra could not compose the configuration
            sys.exit(EXIT_CONFIG_ERROR)
        raise

