"""`python -m paperterm.tui.cli`: the `paperterm` command as installed (`run`)."""

import sys

from paperterm.tui.cli import run

sys.exit(run())
