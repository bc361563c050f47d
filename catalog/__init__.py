"""What can be bought and installed: part models, the shipped YAML data and its loader (no Qt)."""

from catalog.loader import Catalog, CatalogError, default_catalog, load_catalog

__all__ = ["Catalog", "CatalogError", "default_catalog", "load_catalog"]
