"""python3 -m haptix.sweep: hxsweep's command line."""

import sys

from .cli import main

sys.exit(main(sys.argv[1:]))
