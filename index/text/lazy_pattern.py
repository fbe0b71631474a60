"""`compile_later`: a regular expression compiled on its first use.

The reader's start imports some sixty of paperterm's modules and needs none of their
patterns before its first frame (the rows and the detail come from the row store, already
made displayable): compiled at import they were a noticeable part of it. Patterns at module
level in the modules the start imports are therefore made with `compile_later`
(tests/tui/test_reader_startup.py checks that none is compiled before the first frame).
"""

from __future__ import annotations

import re
from typing import Any, cast


class LazyPattern:
    """A regular expression compiled on first use. Its methods are those of the compiled
    pattern: the first call of one (`PATTERN.search`) compiles the pattern and keeps the
    compiled pattern's method on the object, so later calls go straight to it."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:  # only for names not set yet: `search`, ...
        if name.startswith("_"):
            raise AttributeError(name)
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        method = getattr(self._compiled, name)
        setattr(self, name, method)
        return method


def compile_later(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)` when first used: a `LazyPattern`, typed as the pattern
    it stands for (only its methods are used)."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))
