"""``python -m harness`` is the ``gamegrader`` command."""
from __future__ import annotations

import sys

from harness.cli import main

sys.exit(main())
