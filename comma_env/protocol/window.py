"""``render_mode="human"``: the solver's picture in a matplotlib window."""

from __future__ import annotations

from typing import Any

import numpy as np


class HumanWindow:
    """A matplotlib figure, opened at the first picture and shown again at each step."""

    def __init__(self, title: str) -> None:
        try:
            import matplotlib.pyplot  # noqa: F401
        except ImportError as error:
            from comma_env.protocol.resources import install_hint

            raise ImportError(f'render_mode="human" needs matplotlib: {install_hint("human")}') from error
        self.title = title
        self.figure: Any = None

    def show(self, image: np.ndarray) -> None:
        import matplotlib.pyplot as plt

        if self.figure is None:
            self.figure = plt.figure(self.title)
        plt.figure(self.figure.number)
        plt.clf()
        plt.imshow(image)
        plt.axis("off")
        plt.pause(0.001)

    def close(self) -> None:
        if self.figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self.figure)
            self.figure = None
