"""Log-probabilities in a server's answer (`comma_env.protocol.logprobs`): read with exact bytes
and alternatives, or None with a reason when absent or malformed; the config's checks (over HTTP
into the export and aligned to token ids: tests/rl/test_logprob_align.py)."""

from __future__ import annotations

import json

import pytest

from comma_env.agents.llm_settings import LLMSettings
from comma_env.protocol.logprobs import MAX_TOKENS, TokenLogprobs, from_openai, from_record
from comma_env.run import rollout
from comma_env.run.checks import ConfigError
from comma_env.run.config import ModelConfig
from comma_env.run.plan import model_fingerprint


def entry(token: str, logprob: float, **more) -> dict:
    return {"token": token, "logprob": logprob, **more}


# -- reading a server's answer ------------------------------------------------------------
def test_a_well_formed_answer_is_read_with_exact_bytes_and_alternatives():
    answer = {"content": [entry("Hi", -0.1, bytes=[72, 105], top_logprobs=[entry("Hi", -0.1), entry("Hey", -2.5)]),
                          entry("\\xf0\\x9f", -1.0, bytes=[240, 159], top_logprobs=[]),
                          entry("\\x99\\x82", -0.0, bytes=[153, 130], top_logprobs=None)]}
    found, problem = from_openai(answer, want_top=True)
    assert problem is None and found is not None
    assert found.tokens[0] == "Hi" and found.logprobs == [-0.1, -1.0, 0.0]
    assert b"".join(found.bytes_of(i) for i in range(3)).decode() == "Hi🙂"
    assert sorted(found.token_bytes) == [1, 2]  # only the split character's bytes are kept
    assert found.top == [[("Hi", -0.1), ("Hey", -2.5)], [], []]
    again, problem = from_record(json.loads(json.dumps(found.as_record())))
    assert problem is None and again == found
    assert from_openai(answer)[0].top is None  # alternatives only when asked for


class Attributes:
    """A response object as LiteLLM builds them (fields as attributes)."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


@pytest.mark.parametrize("answer,why", [
    (None, "no logprobs"),
    ({}, "no content"),
    ({"content": None}, "no content"),
    ({"content": "Hi"}, "not a list"),
    ({"content": [None]}, "content[0]"),
    ({"content": [{"token": "a"}]}, "content[0]"),
    ({"content": [entry("a", "-0.5")]}, "content[0]"),
    ({"content": [entry("a", True)]}, "content[0]"),
    ({"content": [entry("a", float("nan"))]}, "content[0]"),
    ({"content": [entry("a", float("-inf"))]}, "content[0]"),
    ({"content": [entry("a", 0.5)]}, "content[0]"),
    ({"content": [entry("a", -1.0), entry(7, -1.0)]}, "content[1]"),
    ({"content": [entry("x" * 5000, -1.0)]}, "content[0]"),
    ({"content": [entry("a", -1.0, bytes=[300])]}, "bytes"),
    ({"content": [entry("a", -1.0, bytes="a")]}, "bytes"),
    ({"content": [entry("a", -1.0, top_logprobs=[entry("a", "x")])]}, "top_logprobs"),
    ({"content": [entry("a", -1.0, top_logprobs=[entry("a", -1.0)] * 21)]}, "top_logprobs"),
    ({"content": [entry("a", -1.0)] * (MAX_TOKENS + 1)}, "more than"),
])
def test_absent_or_malformed_logprobs_are_none_with_a_reason(answer, why):
    found, problem = from_openai(answer, want_top=True)
    assert found is None and why in problem


def test_response_objects_and_a_huge_valid_answer():
    found, _ = from_openai(Attributes(content=[Attributes(token="a", logprob=-0.25, bytes=None, top_logprobs=None)]))
    assert found == TokenLogprobs(["a"], [-0.25], {}, None)
    big, problem = from_openai({"content": [entry("ab", -1.5, bytes=[97, 98])] * MAX_TOKENS})
    assert problem is None and len(big.tokens) == MAX_TOKENS and not big.token_bytes


@pytest.mark.parametrize("record", [
    None, [], {"tokens": ["a"]}, {"tokens": ["a"], "logprobs": [-1.0, -2.0]}, {"tokens": [1], "logprobs": [-1.0]},
    {"tokens": ["a"], "logprobs": [1.0]}, {"tokens": ["a"], "logprobs": [-1.0], "bytes": {"5": [97]}},
    {"tokens": ["a"], "logprobs": [-1.0], "bytes": {"0": [-1]}}, {"tokens": ["a"], "logprobs": [-1.0], "top": [7]},
    {"tokens": ["a"], "logprobs": [-1.0], "top": [[["b"]]]},
])
def test_a_damaged_record_reads_as_none(record):
    found, problem = from_record(record)
    assert found is None and problem


def test_config_checks_and_the_options_do_not_change_the_settings_fingerprint(tmp_path):
    base = ModelConfig(kind="litellm", name="m", model="openai/m", api_base="http://127.0.0.1:9/v1")
    asked = ModelConfig(kind="litellm", name="m", model="openai/m", api_base="http://127.0.0.1:9/v1",
                        logprobs=True, top_logprobs=5)
    assert model_fingerprint(base) == model_fingerprint(asked)  # a run resumes with or without them
    model = {"kind": "litellm", "name": "m", "model": "openai/m", "api_base": "http://127.0.0.1:9/v1"}
    for bad, why in [({"logprobs": True, "top_logprobs": 21}, "between 0 and 20"),
                     ({"top_logprobs": 2}, "needs logprobs=true")]:
        with pytest.raises(ConfigError, match=why):
            rollout.run({"puzzles": ["wire"], "episodes": 1, "out_dir": str(tmp_path / "x"), "progress_bar": False,
                         "model": model | bad}, quiet=True)
    with pytest.raises(ValueError, match="top-level field `logprobs`"):
        LLMSettings.from_config(model | {"extra": {"logprobs": True}})
    with pytest.raises(ValueError, match="between 0 and 20"):
        LLMSettings.from_config(model | {"logprobs": True, "top_logprobs": -1})
