"""``python -m harness.batch.warm_process``: a warm process (see ``harness.batch.warm``)."""
from __future__ import annotations

import sys

from harness.batch.warm import main

sys.exit(main(sys.argv[1:]))
