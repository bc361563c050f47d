"""What can be bought and installed: part models, the shipped YAML data and its loader (no Qt).

The loader is imported on first use of a name below, not with the package: ``catalog.paths`` (where the log
and the caches live) is read before the app's first paint, and importing the loader with it pulled pydantic,
every part model and PyYAML in front of the window (~200 ms).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from catalog.loader import Catalog, CatalogError, default_catalog, load_catalog

__all__ = ["Catalog", "CatalogError", "default_catalog", "load_catalog"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from catalog import loader

        return getattr(loader, name)
    raise AttributeError(f"module 'catalog' has no attribute {name!r}")
