"""The distribution's own name as a package, so that `python -m gpu_procure` runs the same as `gpu-procure`."""

from procurement import __version__

__all__ = ["__version__"]
