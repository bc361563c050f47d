"""Vendors' quotes compared (三家比价): matching an imported quote's lines, the rules on each vendor's variant, the
lowest compliant offer (a waived finding accepted), tri-state sums, and the chosen offer."""

from __future__ import annotations

import datetime as dt

import openpyxl
import pytest

from procurement.budgets.cost import plan_cost
from procurement.plan import OfferLine, Plan, VendorQuote, load_plan
from procurement.pricing.compare import choose, compare, propose_lines, quote_from, variant, with_quote, without_quote
from procurement.pricing.import_prices import import_for_plan
from procurement.waivers import waive
from tests.conftest import EXAMPLES

GPU, PSU = "a100-pcie-40gb", "supermicro-2000w-titanium"


@pytest.fixture
def plan(catalog) -> Plan:
    return load_plan(EXAMPLES / "mid-size-training.gpuplan.yaml", catalog)


def offer(plan: Plan, catalog, vendor: str, unit: float, *, extra: float | None = None,
          **changes: OfferLine | None) -> VendorQuote:
    """An offer pricing every line of the plan at ``unit`` (VAT included), with ``changes`` by part id (None
    leaves that part out), and an installation line."""
    lines = []
    for cl in plan_cost(plan, catalog).lines:
        if cl.unit_cny == 0:
            continue  # free software: no vendor quotes it
        if cl.part_id in changes:
            change = changes[cl.part_id]
            if change is not None:
                lines.append(change)
            continue
        lines.append(OfferLine(text=cl.name, for_part=cl.part_id, quantity=cl.count * plan.requirements.nodes,
                               unit_price_cny=unit, with_vat=True))
    # a change for a part that is not a line of its own (the PSUs that ship in the chassis): a substitute
    lines += [c for pid, c in changes.items() if c is not None and c not in lines and c.for_part == pid]
    if extra is not None:
        lines.append(OfferLine(text="上门安装调试", quantity=1, unit_price_cny=extra, with_vat=False))
    return VendorQuote(vendor=vendor, number=f"{vendor}-1", date=dt.date(2026, 11, 30), delivery="4 周",
                       warranty="3 年", payment_terms="验收后付款", lines=lines)


def attach(plan: Plan, *quotes: VendorQuote) -> Plan:
    for q in quotes:
        plan = with_quote(plan, q)
    return plan


def test_a_substitute_that_breaks_power_and_pcie_is_flagged_and_not_compliant(plan, catalog, policy):
    sxm = OfferLine(text="H100 SXM5 80GB", for_part=GPU, offered="h100-sxm5-80gb", quantity=4, unit_price_cny=1,
                    with_vat=True)
    cheap = offer(plan, catalog, "Cheap", 100, **{GPU: sxm})
    fair = offer(plan, catalog, "Fair", 1000)
    result = compare(attach(plan, cheap, fair), catalog, policy, lang="en")
    bad = result.offer("Cheap")
    assert bad is not None and bad.compliance == "fails"
    assert {"PCIE-FORM-FACTOR", "POWER-PSU-CAPACITY"} <= {f.rule for f in bad.findings}
    assert [r.substitution for r in bad.substitutions] == ["catalog"]
    assert "substitute: NVIDIA H100 80GB SXM5" in " ".join(bad.substitutions[0].notes)
    assert variant(plan, cheap).gpu.model == "h100-sxm5-80gb" and plan.gpu.model == GPU
    # the cheapest offer fails the rules: the lowest compliant is the other one
    assert result.lowest == ("Fair",) and not result.provisional
    assert result.lowest_text("en") == "lowest compliant offer"


def test_a_compatible_substitute_is_compliant_and_can_be_lowest(plan, catalog, policy):
    l40s = OfferLine(text="L40S", for_part=GPU, offered="l40s", quantity=4, unit_price_cny=50, with_vat=True)
    result = compare(attach(plan, offer(plan, catalog, "A", 100, **{GPU: l40s}), offer(plan, catalog, "B", 100)),
                     catalog, policy, lang="en")
    a = result.offer("A")
    assert a is not None and a.compliance == "compliant" and a.substitutions
    assert result.lowest == ("A",)


def test_a_waived_error_counts_as_accepted(plan, catalog, policy):
    weak = OfferLine(text="750W", for_part=PSU, offered="intel-ac450nx-750w", quantity=4, unit_price_cny=1,
                     with_vat=True)
    quote = offer(plan, catalog, "Weak PSU", 10, **{PSU: weak})
    fair = offer(plan, catalog, "Fair", 1000)
    before = compare(attach(plan, quote, fair), catalog, policy, lang="en")
    weak_offer = before.offer("Weak PSU")
    assert weak_offer is not None and weak_offer.compliance == "fails"
    assert before.lowest == ("Fair",)
    # waive the finding the substitute raises (as the buyer would on that vendor's variant)
    finding = next(f for f in weak_offer.findings if f.rule == "POWER-PSU-CAPACITY")
    waived = waive(attach(plan, quote, fair), finding, "the site limits GPU power to 250 W", "王工",
                   dt.date(2026, 12, 1))
    after = compare(waived, catalog, policy, lang="en")
    still = after.offer("Weak PSU")
    assert still is not None
    assert not [f for f in still.findings if f.rule == "POWER-PSU-CAPACITY"]
    assert still.compliance == "compliant" and still.reasons == ()
    assert after.lowest == ("Weak PSU",)


def test_an_incomplete_offer_is_a_lower_bound_and_makes_the_lowest_provisional(plan, catalog, policy):
    partial = offer(plan, catalog, "Partial", 10, **{GPU: OfferLine(text="A100", for_part=GPU, quantity=4)})
    whole = offer(plan, catalog, "Whole", 1000, extra=500)
    result = compare(attach(plan, partial, whole), catalog, policy, lang="en")
    p, w = result.offer("Partial"), result.offer("Whole")
    assert p is not None and w is not None
    assert not p.complete and [r.plan_part for r in p.unpriced] == [GPU]
    assert p.verdict().status in ("unknown", "no_budget") and not p.verdict().complete
    assert w.complete
    # every plan line at ¥1000 incl. VAT × quantity, plus ¥500 installation + 13 % VAT
    quantities = sum(cl.count for cl in plan_cost(plan, catalog).lines if cl.unit_cny != 0) * plan.requirements.nodes
    assert w.gross_cny == pytest.approx(1000 * quantities + 500 * 1.13)
    assert w.net_cny == pytest.approx(1000 * quantities / 1.13 + 500)
    assert result.lowest == ("Whole",) and result.provisional == ("Partial",)
    assert "provisional" in result.lowest_text("en")


def test_an_unknown_substitute_makes_compliance_unknown_never_compliant(plan, catalog, policy):
    odd = OfferLine(text="海力士 32G DDR4 RDIMM", for_part="samsung-ddr4-3200-rdimm-32gb", substitute_unknown=True,
                    quantity=16, unit_price_cny=1, with_vat=True)
    result = compare(attach(plan, offer(plan, catalog, "Odd", 1, **{"samsung-ddr4-3200-rdimm-32gb": odd})),
                     catalog, policy, lang="en")
    o = result.offer("Odd")
    assert o is not None and o.compliance == "unknown"
    assert "catalog does not know" in o.reasons[0]
    assert result.lowest == () and "no offer" in result.lowest_text("en")


def test_a_quantity_that_differs_from_the_plan_is_said(plan, catalog, policy):
    short = OfferLine(text="A100", for_part=GPU, quantity=2, unit_price_cny=1000, with_vat=True)
    o = compare(attach(plan, offer(plan, catalog, "Short", 1000, **{GPU: short})), catalog, policy,
                lang="en").offers[0]
    row = next(r for r in o.rows if r.plan_part == GPU)
    assert row.quantity == 4 and "the vendor quotes 2, the plan needs 4" in row.notes


def test_choosing_and_removing_offers(plan, catalog):
    p = attach(plan, offer(plan, catalog, "A", 1), offer(plan, catalog, "B", 2))
    assert choose(p, "B").chosen_vendor == "B"
    with pytest.raises(ValueError):
        choose(p, "C")
    again = with_quote(choose(p, "B"), offer(plan, catalog, "B", 3))
    assert [q.vendor for q in again.vendor_quotes] == ["A", "B"] and again.vendor_quotes[1].lines[0].unit_price_cny == 3
    gone = without_quote(choose(p, "B"), "B")
    assert gone.chosen_vendor is None and [q.vendor for q in gone.vendor_quotes] == ["A"]


def _xlsx(path, rows):
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)
    return path


def test_matching_an_imported_quote_plan_parts_substitutes_unpriced_and_extra_lines(tmp_path, plan, catalog):
    path = _xlsx(tmp_path / "beta.xlsx", [
        ["Beta 报价单"],
        ["序号", "品名", "型号", "数量", "含税单价"],
        [1, "GPU", "NVIDIA L40S 48GB", 4, 52_000],           # another GPU: a substitute for the plan's A100
        [2, "CPU", "AMD EPYC 7543", 2, 21_800],               # the plan's CPU, exactly
        [3, "准系统", "Supermicro AS-4124GS-TNR", 1, "询价"],  # the plan's chassis, not priced
        [4, "安装调试", "上门安装", 1, 2_000],                 # an extra line
        [5, "延保", "第 4-5 年延保", 1, 6_000],                # an extra line
    ])
    result = import_for_plan(path, plan, catalog, kind="vendor_quote", lang="en")
    proposals = {p.row: p for p in propose_lines(result, plan, catalog, lang="en")}
    assert (proposals[3].for_part, proposals[3].offered) == (GPU, "l40s")
    assert proposals[3].confidence in ("exact", "likely") and proposals[3].reason
    assert (proposals[4].for_part, proposals[4].confidence) == ("epyc-7543", "exact")
    assert proposals[5].for_part == "supermicro-as-4124gs-tnr" and proposals[5].unit_price_cny is None
    assert proposals[6].for_part is None and proposals[7].for_part is None and proposals[7].unit_price_cny == 6000
    quote = quote_from(proposals.values(), "Beta", number="B-1", document="beta.xlsx")
    assert [line.offered for line in quote.lines if line.offered] == ["l40s"]
    assert len([line for line in quote.lines if line.for_part is None]) == 2, "extra lines are kept, not lost"
    stored = with_quote(plan, quote)
    assert stored.vendor_quotes[0].lines[-1].text.startswith("延保")


def test_the_approval_covers_the_chosen_offer_and_changing_it_voids_approval_in_words(plan, catalog):
    from procurement.signoff import SignoffState, sign, signoff_status

    a, b = offer(plan, catalog, "ACME", 1000, extra=800), offer(plan, catalog, "Beta", 900)
    attached = attach(plan, a, b)
    # attaching offers while none is chosen leaves an approval signed before valid
    signed_before = sign(plan, "approval", "李娜", "使用部门", catalog, dt.date(2026, 12, 1))
    assert signoff_status(attach(signed_before, a, b), "approval", catalog).state == SignoffState.VALID
    signed = sign(choose(attached, "ACME"), "approval", "李娜", "使用部门", catalog, dt.date(2026, 12, 1))
    assert signoff_status(signed, "approval", catalog).state == SignoffState.VALID
    assert signed.signoffs["approval"].content["offer.vendor"] == "ACME"
    other = choose(signed, "Beta")
    st = signoff_status(other, "approval", catalog, lang="zh")
    assert st.state == SignoffState.VOID
    assert "所选供应商：ACME → Beta" in st.changes
    assert "所选报价编号：ACME-1 → Beta-1" in st.changes
    # a price in the chosen offer changing voids it too, naming the line
    repriced = with_quote(signed, offer(plan, catalog, "ACME", 1000, extra=900))
    en = signoff_status(repriced, "approval", catalog, lang="en").changes
    assert any(c.startswith("chosen offer, line ") and "¥800.00" in c and "¥900.00" in c for c in en), en
    # a long part name does not push the prices out of the (shortened) words; lines are listed in order
    def with_freight(quote, price: float):  # a tenth line: freight
        return quote.model_copy(update={"lines": [*quote.lines, OfferLine(text="运费", quantity=1,
                                                                          unit_price_cny=price)]})

    ten = with_freight(offer(plan, catalog, "ACME", 1000, extra=800), 200)
    signed = sign(choose(attach(plan, ten, b), "ACME"), "approval", "李娜", "使用部门", catalog, dt.date(2026, 12, 1))
    acme = with_freight(offer(plan, catalog, "ACME", 1100, extra=900), 250)
    assert len(acme.lines) >= 10
    dearer = signoff_status(with_quote(signed, acme), "approval", catalog, lang="en").changes
    chassis = next(c for c in dearer if "AS-4124GS-TNR" in c)
    assert "¥1,000.00" in chassis and "¥1,100.00" in chassis, chassis
    numbers = [int(c.split(":")[0].rsplit(" ", 1)[1]) for c in dearer if c.startswith("chosen offer, line ")]
    assert numbers == list(range(1, len(acme.lines) + 1)), "\n".join(dearer)  # line 10 after line 9, not 1


def pdf_text(path) -> str:
    """The PDF's text as pdftotext reads it (pypdf where poppler is not installed), white space collapsed so that
    a wrapped cell reads as one line."""
    import io
    import shutil
    import subprocess

    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True, text=True).stdout
    else:
        import pypdf

        text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages)
    return " ".join(text.split())


def test_export_comparison_from_the_command_line(tmp_path, plan, catalog, capsys):
    from procurement.commands.cli import build_parser
    from procurement.commands.export import run_export
    from procurement.plan import save_plan

    sxm = OfferLine(text="H100 SXM5 80GB", for_part=GPU, offered="h100-sxm5-80gb", quantity=4, unit_price_cny=1,
                    with_vat=True)
    unpriced = OfferLine(text="A100 40G", for_part=GPU, quantity=4)
    p = choose(attach(plan, offer(plan, catalog, "Alpha", 9000, extra=3000, **{GPU: sxm}),
                      offer(plan, catalog, "Beta", 10000, extra=2000),
                      offer(plan, catalog, "Gamma", 8000, **{GPU: unpriced})), "Beta")
    path = tmp_path / "three.gpuplan"
    save_plan(p, path)
    out = {lang: tmp_path / f"cmp-{lang}.pdf" for lang in ("zh", "en")}
    for lang, pdf in out.items():
        args = build_parser().parse_args(["export", str(path), "--comparison", str(pdf), "--lang", lang])
        assert run_export(args, catalog) == 0
    assert "wrote quote comparison" in capsys.readouterr().out
    en, zh = pdf_text(out["en"]), pdf_text(out["zh"])
    beta = next(o for o in compare(p, catalog, lang="en").offers if o.vendor == "Beta")
    assert beta.complete and f"¥{beta.gross_cny:,.2f}" in en
    assert "Lowest compliant offer: Beta." in en and "Provisional: the offer of Gamma is incomplete" in en
    assert "Chosen by the buyer: Beta." in en and "✔ chosen" in en
    assert "substitute: NVIDIA H100 80GB SXM5" in en and "PCIE-FORM-FACTOR" in en
    assert "Alpha: 上门安装调试" in en and "Beta: 上门安装调试" in en
    # Gamma left the GPU unpriced: its sum is a lower bound, never a total
    assert "Priced lines only (lower bound, 1 unpriced)" in en
    assert "最低合规报价：Beta。" in zh and "供应商报价比较表" in zh
    assert "已报价部分（下限，1项未报价）" in zh.replace(" ", "")
    assert "替代：NVIDIA H100 80GB SXM5" in zh and "不合规" in zh
