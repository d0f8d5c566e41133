"""``python -m service.cli``: the same as the ``baccarat`` command."""

import sys

from . import main

sys.exit(main())
