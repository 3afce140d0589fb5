"""Bounded reading of untrusted byte streams."""
from __future__ import annotations

from dataclasses import dataclass, field

from harness.safe_text import safe_bytes as clean_text

__all__ = ["BoundedBuffer", "clean_text"]


@dataclass
class BoundedBuffer:
    """Keeps the first ``limit`` bytes written to it and counts the rest."""

    limit: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.limit - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    @property
    def overflowed(self) -> bool:
        return self.dropped > 0

    def text(self) -> str:
        """The kept bytes as clean text, with a visible marker when output was cut."""
        text = clean_text(bytes(self.data))
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of output not kept]"
        return text
