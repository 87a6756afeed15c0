"""``python -m backend.terminal``: the same as ``lounge play``."""

import sys

from .app import main

sys.exit(main())
