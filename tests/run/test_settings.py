"""The header of results.md, results.json's meta and config.yaml report the settings each
game actually ran with (its environment's own attributes), for every family of environment:
COMMA's puzzles under the rollout's protocol, AsymPuzl under its own rules, and both at once."""

from __future__ import annotations

import json

import yaml

import comma_env
from comma_env.run import rollout
from comma_env.run.settings import summary


def _env_settings(puzzle: str, options: dict, cfg: dict) -> dict:
    """What the environment itself says it runs with, built the way the rollout builds it."""
    if puzzle == "asympuzl":
        env = comma_env.make("asympuzl", **options).unwrapped
        return {"solver_view": env.view, "max_turns": env.max_turns, "max_mistakes": None, "memory": env.memory}
    env = comma_env.make(puzzle, max_turns=cfg.get("max_turns", 10), max_mistakes=cfg.get("max_mistakes", 3),
                         memory=cfg.get("memory", "full"),
                         solver_view="text" if puzzle == "wire" else "image").unwrapped
    return {"solver_view": env.solver_view, "max_turns": env.max_turns, "max_mistakes": env.max_mistakes,
            "memory": env.memory}


def _run(tmp_path, puzzles: list[str], options: dict, model: dict, **extra) -> tuple[dict, str, dict]:
    cfg = {"puzzles": puzzles, "episodes": 2, "progress_bar": False, "out_dir": str(tmp_path), "model": model,
           "puzzle_options": {"asympuzl": options} if options else {}, **extra}
    results = rollout.run(cfg, quiet=True)
    header = next(line for line in (tmp_path / "results.md").read_text().splitlines() if line.startswith("Settings:"))
    config = yaml.safe_load((tmp_path / "config.yaml").read_text())
    assert json.loads((tmp_path / "results.json").read_text())["meta"] == results["meta"]
    return results["meta"], header, config


def test_asympuzl_header_reports_the_game_not_the_protocol(tmp_path) -> None:
    options = {"n": 4, "feedback": "both"}
    model = {"kind": "asympuzl", "name": "share_all", "extra": {"strategy": "share_all"}, "vision": True}
    meta, header, config = _run(tmp_path, ["asympuzl"], options, model)
    own = _env_settings("asympuzl", options, {})
    assert own == {"solver_view": "text", "max_turns": 12, "max_mistakes": None, "memory": "last"}
    assert {key: meta[key] for key in own} == own
    for key, value in own.items():
        assert f"{key}={value}" in header
    assert config["ran_with"]["asympuzl"] == own
    assert "max_turns=10" not in header and "memory=full" not in header and "solver_view=image" not in header


def test_comma_and_game_together_list_each_family(tmp_path) -> None:
    model = {"kind": "random", "name": "random", "vision": False}
    meta, header, config = _run(tmp_path, ["wire", "asympuzl"], {"n": 3}, model, max_turns=7)
    wire, game = _env_settings("wire", {}, {"max_turns": 7}), _env_settings("asympuzl", {"n": 3}, {})
    assert config["ran_with"] == {"wire": wire, "asympuzl": game}
    expected = summary({"wire": wire, "asympuzl": game})
    assert {key: meta[key] for key in expected} == expected
    assert meta["max_turns"] == "7 (wire); 9 (asympuzl)" and meta["memory"] == "full (wire); last (asympuzl)"
    assert f"max_turns={meta['max_turns']}" in header


def test_summary_keeps_one_shared_value_as_is() -> None:
    same = {"solver_view": "image", "max_turns": 20, "max_mistakes": 21, "memory": "full"}
    assert summary({"button": same, "dog": same}) == same
    assert summary({})== {}
