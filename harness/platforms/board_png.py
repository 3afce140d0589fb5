"""A board drawn in text, as a PNG image (Pillow): what PrairieLearn shows beside the text.

Each character is drawn centred in its own cell of a fixed grid, so the board keeps its columns
whatever font is found (DejaVu Sans Mono where the image has it, Pillow's own font otherwise).
"""
from __future__ import annotations

import base64
import functools
import io
from typing import Any

CELL_WIDTH, CELL_HEIGHT, MARGIN = 11, 20, 8
MAX_COLUMNS, MAX_ROWS = 120, 80
"""A picture is cut to this many characters and lines (a board with its legend takes ~40x20)."""
FONT_SIZE = 16


@functools.lru_cache(maxsize=1)
def _font() -> Any:
    from PIL import ImageFont
    try:
        return ImageFont.truetype("DejaVuSansMono.ttf", FONT_SIZE)
    except OSError:
        return ImageFont.load_default(FONT_SIZE)


@functools.lru_cache(maxsize=1)
def available() -> bool:
    """Whether Pillow is installed (the ``prairielearn`` extra; the image the build writes
    installs it): without it, boards stay text only."""
    try:
        import PIL.Image  # noqa: F401
    except ImportError:
        return False
    return True


def png(text: str) -> bytes:
    """``text`` (a board drawn in characters) as greyscale PNG bytes, dark on white."""
    from PIL import Image, ImageDraw
    lines = [line[:MAX_COLUMNS] for line in text.rstrip("\n").split("\n")[:MAX_ROWS]] or [""]
    columns = max(1, max(len(line) for line in lines))
    size = (2 * MARGIN + columns * CELL_WIDTH, 2 * MARGIN + len(lines) * CELL_HEIGHT)
    image = Image.new("L", size, 255)
    draw = ImageDraw.Draw(image)
    font = _font()
    for row, line in enumerate(lines):
        for column, char in enumerate(line):
            if not char.isspace():
                centre = (MARGIN + (column + 0.5) * CELL_WIDTH,
                          MARGIN + (row + 0.5) * CELL_HEIGHT)
                draw.text(centre, char, fill=20, font=font, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def data_url(text: str) -> str:
    """``text`` drawn as a PNG, as a ``data:image/png;base64,...`` URL."""
    return "data:image/png;base64," + base64.b64encode(png(text)).decode("ascii")
