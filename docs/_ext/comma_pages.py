"""Sphinx extension: the pages written from the code at build time (a page per puzzle, the API
reference's pages).

Each page (``docs/puzzles/<name>.md``, not under version control) is assembled from what
the package itself knows, so it cannot drift from the code: the versioned module's
docstring (its PettingZoo-style card and the visible state), the solver's picture of
instance 0 drawn by the environment, the puzzle's skills, actions and options, the paper's
numbers from `comma_env.run.fidelity`, and the expert's manual exactly as the expert reads
it. The ``puzzles/index.md`` page lists them.
"""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path
from typing import Any

SKILL_NAMES = {"MG": "multimodal grounding", "MR": "memory recall", "MSR": "multi-step reasoning",
               "PR": "privacy", "RT": "real-time reaction"}


def _shift_headings(markdown: str) -> str:
    """The manual under this page's own headings: its title dropped, ``##`` becomes ``###``."""
    lines = markdown.strip().splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(("#" + line) if re.match(r"#{2,5} ", line) else line for line in lines).strip()


def _options(puzzle_cls: Any) -> list[tuple[str, str]]:
    parameters = list(inspect.signature(puzzle_cls.__init__).parameters.values())[2:]  # after self, rng
    return [(p.name, "required" if p.default is inspect.Parameter.empty else repr(p.default)) for p in parameters]


def _paper_numbers(name: str) -> list[str]:
    from comma_env.run import fidelity

    rows = []
    if name in fidelity.PAPER_RANDOM:
        psr, sr = fidelity.PAPER_RANDOM[name]
        psr_se, sr_se = fidelity.PAPER_RANDOM_SE[name]
        rows.append(f"| COMMA (final): random baseline, PSR / SR | {psr:g} ± {psr_se:g} / {sr:g} ± {sr_se:g} |")
    if name in fidelity.PAPER_HUMAN_GPT4O:
        rows.append(f"| COMMA (final): human solver + GPT-4o expert, PSR | {fidelity.PAPER_HUMAN_GPT4O[name]:g} |")
    if name in fidelity.PAPER_V1_RANDOM_PSR:
        v1 = fidelity.PAPER_V1_RANDOM_PSR[name]
        rows.append(f"| COMMA v1 (20 turns, no mistake limit): random baseline, PSR | {v1:g} |")
    if not rows:
        return ["The papers print no number for this puzzle."]
    return ["| table | value |", "|---|---|", *rows]


def puzzle_page(name: str, image_dir: Path) -> str:
    """The Markdown page of one puzzle; writes its picture into `image_dir`."""
    from PIL import Image

    import comma_env
    from comma_env.protocol.resources import read_manual
    from comma_env.registry import env_id, env_module

    module = env_module(name)
    env = comma_env.make(name, render_mode="rgb_array")
    env.reset(seed=0)
    Image.fromarray(env.render()).save(image_dir / f"{name}.png", optimize=True)
    puzzle = env.unwrapped.puzzle
    cls = env.unwrapped.puzzle_cls
    actions = puzzle.valid_actions()
    audio = f"{cls.audio_samples} samples at {cls.sample_rate} Hz" if cls.audio_samples else "none"
    env.close()

    card = inspect.cleandoc(module.__doc__ or f"# {cls.title}")
    title, _, body = card.partition("\n")
    options = _options(cls)
    lines = [title, "",
             "```{image} " + f"images/{name}.png", f":alt: {cls.title}, instance 0, as the solver sees it",
             f":width: {min(400, cls.image_size[0])}px", "```", "",
             f"*Instance 0 (`env.reset(seed=0)`), drawn by the environment: "
             f"{cls.image_size[0]}x{cls.image_size[1]} pixels.*", "",
             body.strip(), "",
             "## At a glance", "",
             "| property | value |", "|---|---|",
             f"| PettingZoo id | `{env_id(name)}` |",
             f"| Gymnasium ids (one role) | `comma/{cls.title}-solver-v0`, `comma/{cls.title}-expert-v0` |",
             f"| Skills | {', '.join(f'{s} ({SKILL_NAMES.get(s, s)})' for s in cls.skills)} |",
             f"| Scored all or nothing (PSR equals SR) | {'yes' if cls.single_step else 'no'} |",
             f"| Simulated clock | {'yes' if cls.uses_clock else 'no'} |",
             f"| Audio clip | {audio} |",
             f"| Valid actions in instance 0 at the start | {', '.join(f'`{a}`' for a in actions)} |", "",
             "## Options", ""]
    if options:
        lines += ["Pass them as `puzzle_options={...}` to `env()`, or "
                  f"`+puzzle_options.{name}.<option>=...` to the rollout:", "",
                  "| option | default |", "|---|---|", *[f"| `{k}` | `{v}` |" for k, v in options], ""]
    else:
        lines += ["No puzzle options; the protocol's options apply to every puzzle "
                  "([protocol](../protocol.md#options)).", ""]
    lines += ["## The paper's numbers", "", *_paper_numbers(name), "",
              "Our measurements against them: [fidelity](../fidelity.md).", "",
              "## The expert's manual", "",
              f"The file `manuals/{name}.md`, exactly as the expert reads it:", "",
              _shift_headings(read_manual(f"{name}.md")), ""]
    return "\n".join(lines)


def write_pages(app: Any) -> None:
    """builder-inited: (re)write ``docs/puzzles/`` from the registry."""
    if not app.config.comma_generated_pages:
        return
    os.environ.setdefault("COMMA_ENV_NUMBA", "0")  # a picture, not a benchmark: skip compiling kernels
    from comma_env.registry import COMMA_PUZZLES, V1_PUZZLES, puzzle_title

    out = Path(app.srcdir) / "puzzles"
    image_dir = out / "images"
    image_dir.mkdir(parents=True, exist_ok=True)
    for name in COMMA_PUZZLES + V1_PUZZLES:
        _write_if_changed(out / f"{name}.md", puzzle_page(name, image_dir))
    index = ["# Puzzles", "",
             "One page per puzzle, generated from the code when the site is built (`docs/_ext/comma_pages.py`).", "",
             "The ten puzzles of the final COMMA paper:", "",
             *[f"- [{puzzle_title(p)}]({p}.md)" for p in COMMA_PUZZLES], "",
             "The first version's puzzles that the final paper dropped (real-time reaction and sound; "
             "registered, not in the default ten):", "",
             *[f"- [{puzzle_title(p)}]({p}.md)" for p in V1_PUZZLES], "",
             "AsymPuzl, a two-agent testbed with its own agents, has a page of its own: "
             "[AsymPuzl](../asympuzl.md).", "",
             "```{toctree}", ":hidden:", "", *COMMA_PUZZLES, *V1_PUZZLES, "```", ""]
    _write_if_changed(out / "index.md", "\n".join(index))


def _write_if_changed(path: Path, text: str) -> None:
    """Unchanged sources keep their mtime, so Sphinx does not rebuild them."""
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    # off (``-D comma_generated_pages=0``) for a site of a few pages, such as the test that
    # shows the strict build failing: the API pages' autodoc is most of a full build's time
    app.add_config_value("comma_generated_pages", True, "env", bool)
    app.connect("builder-inited", write_pages)
    app.connect("builder-inited", write_api_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


API_ROOMS: dict[str, str] = {
    "comma_env": "The package: `make`, the registry of puzzles and their ids.",
    "comma_env.protocol": "The turn protocol (the AEC environment), the puzzle interface, spaces, prompts, "
                          "metrics, rewards, the simulated clock and the policy interface.",
    "comma_env.puzzles": "The rules of each puzzle.",
    "comma_env.drawing": "Pictures: each puzzle's drawing, a function of its visible state.",
    "comma_env.audio": "Sound's clips and their WAV encoding.",
    "comma_env.run": "The rollout pipeline: typed config, checks, results tables, merging, locks, provenance.",
    "comma_env.privacy": "The rule-based leak detector.",
    "comma_env.agents": "Policies: random, scripted oracles, chat models, servers, judges, the runner.",
    "comma_env.rl": "Single-role Gymnasium environments, group rollouts, rewards, export, trainers' glue.",
    "comma_env.openenv": "Single-role episodes served over OpenEnv, and the client.",
    "comma_env.web": "The static report and human play in the browser.",
    "comma_env.leaderboard": "The leaderboard: every submitted episode replayed and checked, ranks, the static site.",
    "comma_env.asympuzl": "The AsymPuzl testbed.",
}
"""The rooms of the package, in reading order, each with one line on what it holds."""


def api_modules(room: str) -> list[tuple[str, bool]]:
    """Public modules of a room, each with whether it is a package: the room itself, then its
    submodules at every depth (no ``_private``, no ``__main__``, no versioned entry modules, which are
    documented per puzzle). Found on disk; a subpackage is imported to walk into it (autodoc
    imports every module later anyway), so an annotation naming a nested module's class resolves."""
    import importlib.util
    import pkgutil

    if room == "comma_env":
        return [("comma_env", True), ("comma_env.registry", False)]
    spec = importlib.util.find_spec(room)  # runs comma_env's __init__ only, never the room's
    names = [(room, True)]
    for info in pkgutil.walk_packages(spec.submodule_search_locations or [], room + ".", onerror=lambda _: None):
        if not any(part.startswith("_") for part in info.name.split(".")):
            names.append((info.name, info.ispkg))
    return names


def write_api_pages(app: Any) -> None:
    """builder-inited: ``docs/api/`` holds one page per room with autodoc directives."""
    if not app.config.comma_generated_pages:
        return
    out = Path(app.srcdir) / "api"
    out.mkdir(parents=True, exist_ok=True)
    for room, summary in API_ROOMS.items():
        lines = [f"# `{room}`", "", summary, ""]
        for module, is_package in api_modules(room):
            # A package's own page shows its docstring; its members are documented where they
            # are defined (its submodules), so re-exported names are not described twice.
            members = not is_package
            if module != room:
                lines += [f"## `{module}`", ""]
            lines += ["```{eval-rst}", f".. automodule:: {module}", *(["   :members:"] if members else []), "```", ""]
        _write_if_changed(out / f"{room}.md", "\n".join(lines))
    index = ["# API reference", "",
             "Generated from the docstrings by Sphinx's autodoc, one page per room of the package "
             "(see [architecture](../architecture.md) for how they fit together).", "",
             *[f"- [`{room}`]({room}.md): {summary}" for room, summary in API_ROOMS.items()], "",
             "```{toctree}", ":hidden:", "", *API_ROOMS, "```", ""]
    _write_if_changed(out / "index.md", "\n".join(index))
