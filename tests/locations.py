"""Where the tests find their files (imported by name: tests/ is on sys.path)."""

from __future__ import annotations

from pathlib import Path

#: The repository's root.
ROOT = Path(__file__).resolve().parents[1]
#: Small corpora that live with the tests.
FIXTURES = ROOT / "tests" / "fixtures"
#: ../shared next to the repository: real corpora for tests that skip without them.
SHARED = ROOT.parent / "shared"
CORPORA = SHARED / "corpora"
