"""The architecture page's picture is the data flow a newcomer needs, drawn by its script
(issue 58: it was the import graph, unreadable at page width)."""

from __future__ import annotations

from PIL import Image

from tests.support.docs_blocks import DOCS, ROOT
from tests.support.script_files import load_script


def test_the_picture_follows_one_episode_through_existing_rooms(tmp_path):
    script = load_script(ROOT / "examples" / "architecture.py")
    stages = [stage for stage, _, _ in script.FLOW]
    assert stages == ["rules", "visible state", "picture / prompt", "agents", "run", "results"]
    assert set(script.rooms_exist()) >= {"puzzles", "protocol", "drawing", "agents", "run", "web", "rl"}
    drawn = script.draw(tmp_path / "architecture.png")
    with Image.open(drawn) as picture, Image.open(DOCS / "images" / "architecture.png") as shown:
        assert picture.size == shown.size  # the page shows what the script draws
        width, height = picture.size
    assert width >= 2.4 * height and width <= 1400  # one wide row: readable at page width
    assert "python examples/architecture.py" in (DOCS / "architecture.md").read_text(encoding="utf-8")
