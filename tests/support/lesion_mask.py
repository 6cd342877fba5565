"""Where a synthetic lesion photo shows the lesion, for tests of what the photo depicts."""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from comma_env.drawing.lesions import _render


def lesion_mask(features: dict[str, Any], size: int = 320, level: float = 0.5) -> np.ndarray:
    """Where the lesion covers more than `level` of `render_lesion(features, size)` (boolean)."""
    alpha = _render(features, size)[1]
    scaled = Image.fromarray((alpha * 255).astype(np.uint8), "L").resize((size, size), Image.Resampling.BILINEAR)
    return np.asarray(scaled) > round(255 * level)
