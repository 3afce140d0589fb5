"""Package attributes imported on first use (PEP 562): a command pays only for the modules it
uses, and can start work (probing the sandbox) before the heavy ones load."""
from __future__ import annotations

import importlib
import sys
from typing import Any, Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` giving each name of ``homes`` (name -> module
    defining it), imported once and then kept in the package like a normal attribute."""
    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value
    return __getattr__
