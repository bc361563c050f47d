"""`python -m gpu_procure [ARGS]`: the `gpu-procure` command (CLI sub-commands, the app otherwise)."""

import sys

from gui.launch import main

if __name__ == "__main__":
    sys.exit(main())
