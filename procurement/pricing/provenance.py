"""Where a price comes from, in the reader's words: the kind of a plan's own price (entered, vendor quote, company
list) or a catalog price's family and VAT status. The quote's PDF, its page and step 3's running total say it
the same way."""

from __future__ import annotations

from procurement.messages import Lang, register, t

PLAN_PRICE_KINDS = ("entered", "vendor_quote", "company")


def catalog_price_kind(kind: str, includes_vat: bool | None, lang: Lang) -> str:
    """A catalog price's kind in ``lang``: the catalog's own English words in English; in Chinese its family
    (vendor MSRP, press report, other reference) and its VAT status, from the part's fields."""
    if lang != "zh":
        return kind
    lowered = kind.lower()
    family = "msrp" if "msrp" in lowered or "retail" in lowered else "press" if "press" in lowered else "other"
    vat = "vat_unknown" if includes_vat is None else "vat_in" if includes_vat else "vat_out"
    return f"{t(f'price.catalog.{family}', lang)}（{t(f'price.catalog.{vat}', lang)}）"


def price_kind_text(kind: str | None, includes_vat: bool | None, lang: Lang) -> str | None:
    """The kind of a bill-of-materials line's price as the quote prints it (None: a bare catalog reference)."""
    if kind in PLAN_PRICE_KINDS:
        return t(f"price.kind.{kind}", lang)
    return catalog_price_kind(kind, includes_vat, lang) if kind and kind != "reference" else None


register(
    {
        "price.kind.entered": "entered by the buyer",
        "price.kind.vendor_quote": "vendor quote",
        "price.kind.company": "company price list",
        # a catalog price's kind in Chinese, from its family and its VAT status (the catalog writes its kinds
        # and citations in English; the Chinese quote printed them as they are)
        "price.catalog.msrp": "vendor MSRP",
        "price.catalog.press": "press report",
        "price.catalog.other": "catalog reference price",
        "price.catalog.vat_in": "VAT included",
        "price.catalog.vat_out": "VAT excluded",
        "price.catalog.vat_unknown": "VAT status not stated",
    }
)
