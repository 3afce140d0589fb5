"""``python -m harness.parallel.warm_process``: a warm process (see ``harness.parallel.warm``)."""
from __future__ import annotations

import sys

from harness.parallel.warm import main

sys.exit(main(sys.argv[1:]))
