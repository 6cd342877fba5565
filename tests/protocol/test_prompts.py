"""The one rendering (`comma_env.protocol.prompts`): what each role's model is sent, built from
its own observation and info."""

from __future__ import annotations

import asyncio
import base64
import io

import numpy as np
from PIL import Image

import comma_env
from comma_env.agents.chat import PngCache, message_text
from comma_env.protocol.prompts import (
    ACTIONS_TITLE,
    DESCRIPTION_TITLE,
    ENVIRONMENT_HEADER,
    EXPERT_SYSTEM_PROMPT,
    MANUAL_TITLE,
    SOLVER_SYSTEM_PROMPT,
    expert_messages,
    solver_messages,
)


def has_image(messages) -> bool:
    return any(isinstance(m["content"], list) and any(p["type"] == "image_url" for p in m["content"])
               for m in messages)


def _step(env, text: str) -> None:
    env.step(text)


def _play_turn(env, solver_text: str, expert_text: str) -> None:
    _step(env, solver_text)
    _step(env, expert_text)


def _last_user_parts(messages):
    content = messages[-1]["content"]
    assert messages[-1]["role"] == "user"
    return content if isinstance(content, list) else [{"type": "text", "text": content}]


def test_solver_first_turn_has_static_prefix_state_and_image():
    env = comma_env.make("wire")
    env.reset(seed=3)
    obs, _, _, _, info = env.last()
    cache = PngCache()
    messages = solver_messages(info, asyncio.run(cache.data_url(obs["image"])))
    assert messages[0] == {"role": "system", "content": messages[0]["content"]}
    assert messages[0]["content"].startswith(SOLVER_SYSTEM_PROMPT)
    assert info["task"] in messages[1]["content"][0]["text"]
    parts = _last_user_parts(messages)
    texts = "\n".join(p.get("text", "") for p in parts)
    assert ACTIONS_TITLE in texts and all(a in texts for a in info["valid_actions"])
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == 1 and images[0]["image_url"]["url"].startswith("data:image/png;base64,")
    # the image round-trips to exactly the observation
    png = base64.b64decode(images[0]["image_url"]["url"].split(",", 1)[1])
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), obs["image"])
    assert DESCRIPTION_TITLE not in texts  # image view: no written description


def test_text_view_sends_description_and_no_image():
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=3)
    _, _, _, _, info = env.last()
    messages = solver_messages(info, None)
    assert not has_image(messages)
    text = message_text(messages)
    assert DESCRIPTION_TITLE in text and info["description"] in text
    assert "serial number" in info["description"]


def test_png_data_url_is_the_picture_of_the_current_state():
    env = comma_env.make("wire")
    env.reset(seed=5)
    cache = PngCache()
    first = asyncio.run(cache.data_url(env.last()[0]["image"]))
    _play_turn(env, "hello, I see wires", "describe them")  # no action: state unchanged
    assert asyncio.run(cache.data_url(env.last()[0]["image"])) == first
    wrong = next(a for a in env.last()[4]["valid_actions"] if a != f"cut_wire_{env.unwrapped.puzzle.answer}")
    _play_turn(env, wrong, "oops")  # a cut changes the picture
    second = asyncio.run(cache.data_url(env.last()[0]["image"]))
    assert second != first
    png = base64.b64decode(second.split(",", 1)[1])
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")), env.last()[0]["image"])


def test_dialogue_roles_and_prefix_stability():
    env = comma_env.make("wire", solver_view="text")
    env.reset(seed=1)
    first = solver_messages(env.last()[4])
    _play_turn(env, "I see five wires.", "Which colours?")
    info = env.last()[4]
    second = solver_messages(info)
    # static prefix unchanged: system prompt, then the task text (on turn 1 the state
    # follows in the same user message, so the prompt text still starts the same way)
    assert second[0] == first[0]
    assert first[1]["content"].startswith(second[1]["content"])
    roles = [m["role"] for m in second]
    assert roles == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == "I see five wires."
    assert "Expert wrote:\n> Which colours?" in second[3]["content"]
    # feedback from the environment goes to the solver as a user message
    wrong = next(a for a in info["valid_actions"] if a != f"cut_wire_{env.unwrapped.puzzle.answer}")
    _play_turn(env, wrong, "Hmm.")
    third = solver_messages(env.last()[4])
    assert third[:3] == second[:3]
    assert ENVIRONMENT_HEADER in third[-1]["content"] and "mistake" in third[-1]["content"]


def test_expert_sees_manual_and_dialogue_only():
    env = comma_env.make("wire")
    env.reset(seed=2)
    _step(env, "I see three wires: red, white, blue. Serial ends in 4.")
    _, _, _, _, info = env.last()
    assert env.agent_selection == "expert"
    messages = expert_messages(info)
    assert messages[0] == {"role": "system", "content": EXPERT_SYSTEM_PROMPT}
    assert messages[1]["role"] == "user" and messages[1]["content"].startswith(MANUAL_TITLE)
    assert info["manual"] in messages[1]["content"]
    assert "Solver wrote:\n> I see three wires" in messages[1]["content"]
    assert not has_image(messages)
    # feedback entries never reach the expert, even if an info carried them
    info = dict(info, dialogue=info["dialogue"] + [{"speaker": "environment", "text": "SECRET FEEDBACK"}])
    assert "SECRET FEEDBACK" not in message_text(expert_messages(info))


def test_expert_own_messages_are_assistant_and_last_memory_windows():
    env = comma_env.make("wire", memory="last")
    env.reset(seed=2)
    _play_turn(env, "first description", "first advice")
    _step(env, "second description")
    info = env.last()[4]
    messages = expert_messages(info)
    text = message_text(messages)
    assert "second description" in text and "first description" not in text  # "last" memory
    full = comma_env.make("wire")
    full.reset(seed=2)
    _play_turn(full, "first description", "first advice")
    _step(full, "second description")
    messages = expert_messages(full.last()[4])
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == "first advice"
