"""``python -m engine``: simulate, play and replay (see engine.cli)."""

import sys

from engine.cli import main

sys.exit(main())
