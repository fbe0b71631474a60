"""Where the tests find their files (imported by name: tests/ is on sys.path)."""

from __future__ import annotations

import os
from pathlib import Path

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]
#: Small corpora that live with the tests.
FIXTURES = ROOT / "tests" / "fixtures"
#: ../shared next to the repository (or $PAPERTERM_SHARED): real corpora for tests that skip
#: without them.
SHARED = Path(os.environ.get("PAPERTERM_SHARED") or ROOT.parent / "shared")
CORPORA = SHARED / "corpora"
