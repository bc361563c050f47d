"""One vendor's offer compared with the plan: what it offers decides its compliance (procurement.pricing.compare)."""

def test_an_offer_that_prices_no_part_is_of_unknown_compliance() -> None:
    """A price file with only its header row was attached as an offer and listed '¥0.00 · compliant'."""
    from catalog.loader import load_catalog
    from procurement.plan import VendorQuote, load_plan
    from procurement.pricing.compare import compare_offer
    from tests.conftest import EXAMPLES

    catalog = load_catalog(())
    plan = load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)
    empty = compare_offer(plan, VendorQuote(vendor="Empty"), catalog, lang="en")
    assert empty.compliance == "unknown"
    assert "no line of the offer prices a part of the plan" in empty.reasons
