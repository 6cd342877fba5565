"""One prompt: what each trainer adapter shows a model is what the rollout sends it.

Rollouts of a chat model (the loopback server's scripted pair over HTTP) log every request
body, in the text and the image view. For the same puzzles, seeds and dialogue:

- ``obs["text"]`` is the plain-text form (`prompts.as_text`) of each request;
- the export writes each request's messages, turn for turn, and the pictures the rollout sent;
- the TRL environment, with the learner's messages taken from the record and the partner the
  same model over HTTP, shows the first request as the prompt and, after each message, what
  the rollout's next request adds after it (verifiers' v1 environment: tests/vf).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

import comma_env
from comma_env.agents.chat import PngCache
from comma_env.protocol import prompts
from comma_env.rl.export import export
from tests.golden.record import rollout
from tests.support.loopback_server import Loopback, sanitized_body
from tests.support.rollout_requests import requests, sent

RUNS = {"text": ["model.vision=false", "puzzles=[wire,atm]"], "image": ["puzzles=[wire]"]}
"""The rollouts: a text-only model on Wire and ATM (private facts, a masked PIN), a vision model on Wire."""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    bodies = tmp_path_factory.mktemp("bodies") / "bodies.jsonl"
    with Loopback("--log-bodies", str(bodies)) as running:
        running.bodies = bodies
        yield running


def logged(server) -> list[dict[str, Any]]:
    return [json.loads(line)["body"] for line in server.bodies.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def runs(server, tmp_path_factory) -> dict[str, tuple[Path, list[dict[str, Any]], list[dict[str, Any]]]]:
    """Per view: the rollout folder, its records and its request bodies (their model name is the view)."""
    found = {}
    for view, overrides in RUNS.items():
        out = tmp_path_factory.mktemp(view) / "run"
        records = rollout(["model=openai_compat", f"model.api_base={server.api_base}", f"model.name={view}",
                           "episodes=1", "max_turns=4", *overrides], out)
        found[view] = (out, records, [b for b in logged(server) if b["model"] == view])
    return found


def png_hash(pixels: Any) -> str:
    """How the loopback logs a picture: the SHA-256 of its PNG data URL."""
    return "sha256:" + hashlib.sha256(asyncio.run(PngCache().data_url(np.asarray(pixels))).encode()).hexdigest()


def as_sent(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as the loopback logs them (image payloads hashed)."""
    return sanitized_body({"messages": messages})["messages"]


@pytest.mark.parametrize("view", RUNS)
def test_obs_text_is_the_plain_text_of_each_request(runs, view):
    _, records, bodies = runs[view]
    for record in records:
        env = comma_env.make(record["puzzle"], max_turns=4, solver_view=record["solver_view"])
        env.reset(seed=record["seed"])
        asked = {role: requests(bodies, role, record) for role in ("solver", "expert")}
        seen = {"solver": 0, "expert": 0}
        for turn in record["transcript"]:
            for role in ("solver", "expert"):
                if turn.get(role) is None:
                    continue
                assert env.agent_selection == role
                assert env.observe(role)["text"] == prompts.as_text(asked[role][seen[role]])
                seen[role] += 1
                env.step(turn.get(f"{role}_raw", turn[role]))
        assert seen == {role: len(asked[role]) for role in seen}


@pytest.mark.parametrize("view", RUNS)
def test_the_export_writes_the_requests(runs, view, tmp_path):
    run_dir, records, bodies = runs[view]
    export(run_dir, "sft", out=tmp_path / "sft.jsonl")
    rows = [json.loads(line) for line in (tmp_path / "sft.jsonl").read_text().splitlines()]
    for record in records:
        for role in ("solver", "expert"):
            mine = sorted((r for r in rows if r["puzzle"] == record["puzzle"] and r["role"] == role),
                          key=lambda r: r["turn"])
            asked = requests(bodies, role, record)
            assert len(mine) == len(asked) > 0
            for row, messages in zip(mine, asked, strict=True):
                assert row["messages"][:-1] == as_export_rows(messages)
                urls = [p["image_url"]["url"] for m in messages if isinstance(m["content"], list)
                        for p in m["content"] if p["type"] == "image_url"]
                pictures = [np.asarray(Image.open(tmp_path / name)) for name in row["images"]]
                assert [png_hash(p) for p in pictures] == urls


@pytest.mark.parametrize("view", RUNS)
def test_trl_shows_the_rollouts_prompt_and_turns(runs, server, view):
    from comma_env.rl.trl_env import CommaToolEnv, episode_dataset

    _, records, bodies = runs[view]
    for record in records:
        env = CommaToolEnv(record["puzzle"], partner="openai_compat", max_turns=4,
                           solver_view=record["solver_view"],
                           partner_overrides={"api_base": server.api_base, "name": f"{view}-partner"})
        asked = requests(bodies, "solver", record)
        row = next(iter(episode_dataset([record["puzzle"]], [record["seed"]])))
        first = env.reset(**row)
        assert trl_messages([row["prompt"][0], {"role": "user", "content": first}]) == asked[0]
        for k, message in enumerate(sent(record, "solver")):
            reply = env.send_message(message)
            if k + 1 < len(asked):
                assert trl_messages([{"role": "user", "content": reply}]) == prompts.after_own_message(asked[k + 1])
            else:
                assert reply == prompts.closing_message(env.info, "solver") and env.done
        env._close()


def as_export_rows(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chat messages a model was sent, in the export's one schema: every content a list of
    text parts and image placeholders (the pictures themselves are files beside the rows)."""
    def parts(content: Any) -> list[dict[str, Any]]:
        if isinstance(content, str):
            return [{"type": "text", "text": content}]
        return [{"type": "image", "text": None} if part["type"] == "image_url"
                else {"type": "text", "text": part["text"]} for part in content]
    return [{"role": m["role"], "content": parts(m["content"])} for m in messages]


def trl_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """TRL's messages in the rollout's logged form: PIL images as hashed ``image_url`` parts."""
    out = []
    for message in messages:
        content = message["content"]
        if isinstance(content, list):
            content = [{"type": "image_url", "image_url": {"url": png_hash(p["image"])}} if p["type"] == "image"
                       else p for p in content]
        out.append({"role": message["role"], "content": content})
    return out
