"""Prices from outside the catalog: a company price list or a vendor's quote read into the plan."""
