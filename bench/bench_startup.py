"""`make bench` entry for the startup benchmark (bench/startup.py): reports, does not fail on the targets."""

from __future__ import annotations

import sys

from startup import main  # bench/ is sys.path[0] when run as a script

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
