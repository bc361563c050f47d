"""Renders every page of the window (with an example plan and its findings) in zh and en to PNG files."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QItemSelectionModel, QSettings
from PySide6.QtWidgets import QApplication

from catalog.loader import load_catalog
from gui.app import make_app, use_cjk_font
from gui.autosave import RecoveryStore
from gui.controller import PlanController
from gui.i18n import Translators
from gui.main_window import MainWindow, examples_dir
from gui.settings import Settings
from procurement.messages import languages
from procurement.plan import Plan, load_plan, with_value

SIZE = (1280, 800)
SLUGS = ("1-requirements", "2-gpu", "3-server", "4-image", "5-verify", "6-checklist", "7-quote")


# The shipped examples leave the model size open; the screenshots show a sized workload so that the VRAM
# estimate, the ranking and a VRAM finding are visible: Llama 2 13B (its config.json shape, as the preset
# fills it) fine-tuned at batch 4 with a 40万元 budget.
SHOWCASE_REQUIREMENTS: dict[str, object] = {
    "workload": "fine_tuning", "model_preset": "llama-2-13b", "model_params_b": 13, "layers": 40,
    "hidden_size": 5120, "kv_heads": 40, "head_dim": 128, "batch_size": 4, "budget_cny": 400_000,
}


# Step 5 shows a delivery-day report: a real capture (4 × A100 SXM4 80GB, one GPU reported, MIG on) checked
# against the example's 4 × A100 40GB PCIe, so the page shows what failing checks look like.
SHOWCASE_CAPTURE = (Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "nvidia-smi"
                    / "telegraf_a100-sxm4-80gb-mig_535.54.03_v12.xml")


def attach_showcase_report(plan: Plan) -> Plan:
    """The plan with a verification report made from SHOWCASE_CAPTURE (unchanged where it is missing)."""
    if not SHOWCASE_CAPTURE.is_file():
        return plan
    from procurement.verify import report_from_outputs, report_to_dict

    report = report_from_outputs(SHOWCASE_CAPTURE.read_text(encoding="utf-8"), load_catalog(), plan, "en")
    data = report_to_dict(report)
    data["host"] = {**data.get("host", {}), "hostname": "gpu-node-01"}
    return with_value(plan, "verification", [data])


def attach_showcase_offers(plan: Plan) -> Plan:
    """The plan with three illustrative vendor offers for the comparison window (8-comparison): one substitutes
    an SXM module for the PCIe GPU (the rules flag it), one offers the 80 GB card (which the showcase model
    needs), one leaves the GPU unpriced. The
    vendors and their figures are made up for the picture (named 示例, 'example'); they are no prices of record."""
    from procurement.budgets.cost import plan_cost
    from procurement.plan import OfferLine, VendorQuote
    from procurement.pricing.compare import choose, with_quote

    catalog = load_catalog()
    lines = plan_cost(plan, catalog).lines
    if not lines:
        return plan
    gpu = lines[0].part_id
    nodes = plan.requirements.nodes

    def offer(vendor: str, factor: float, terms: tuple[str, str, str], change: OfferLine | None,
              extra: tuple[str, float] | None) -> VendorQuote:
        out = [change if change is not None and cl.part_id == gpu else
               OfferLine(text=cl.name, for_part=cl.part_id, quantity=cl.count * nodes,
                         unit_price_cny=round(10_000 * factor), with_vat=True) for cl in lines]
        if extra is not None:
            out.append(OfferLine(text=extra[0], quantity=1, unit_price_cny=extra[1], with_vat=True))
        return VendorQuote(vendor=vendor, number=f"EX-{vendor[-1]}", delivery=terms[0], warranty=terms[1],
                           payment_terms=terms[2], lines=out)

    sxm = OfferLine(text="H100 SXM5 80GB", for_part=gpu, offered="h100-sxm5-80gb", quantity=lines[0].count * nodes,
                    unit_price_cny=9_000, with_vat=True)
    big = OfferLine(text="A100 80GB PCIe", for_part=gpu, offered="a100-pcie-80gb", quantity=lines[0].count * nodes,
                    unit_price_cny=12_000, with_vat=True)
    open_gpu = OfferLine(text=lines[0].name, for_part=gpu, quantity=lines[0].count * nodes)
    for quote in (offer("示例供应商 A", 0.9, ("6 周", "3 年", "验收后付款"), sxm, ("上门安装调试", 3_000)),
                  offer("示例供应商 B", 1.0, ("2 周", "3 年", "预付 30%"), big, ("运费", 800)),
                  offer("示例供应商 C", 0.8, ("现货", "1 年", "货到付款"), open_gpu, None)):
        plan = with_quote(plan, quote)
    return choose(plan, "示例供应商 B")


def pick_example(plan_path: Path | None) -> Plan:
    """The plan to show: the one given, else the shipped mid-size example with the showcase requirements."""
    if plan_path is not None:
        return load_plan(plan_path)
    examples = sorted(examples_dir().glob("*.yaml")) if examples_dir().is_dir() else []
    chosen = next((p for p in examples if "mid-size" in p.name), examples[0] if examples else None)
    plan = load_plan(chosen) if chosen else Plan()
    for key, value in SHOWCASE_REQUIREMENTS.items():
        plan = with_value(plan, f"requirements.{key}", value)
    return attach_showcase_tco(attach_showcase_offers(attach_showcase_report(plan)))


def attach_showcase_tco(plan: Plan) -> Plan:
    """Cost-of-ownership inputs for the picture, each marked as an example (docs/tco.md: no default is assumed;
    PUE 1.3 is the published target, docs/sources.md §T)."""
    from procurement.plan import TcoInputs

    tco = TcoInputs(electricity_cny_per_kwh=0.8, electricity_source="示例 / example", pue=1.3,
                    pue_source="docs/sources.md §T T1 T3", service_life_years=5)
    return with_value(with_value(plan, "tco", tco), "requirements.utilisation_pct", 70)


def shrink_png(path: Path) -> None:
    """Re-save as a 256-colour PNG (a third of the size; UI pixels have few colours). Pillow comes with
    reportlab; without it the file stays as Qt wrote it."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover
        return
    with Image.open(path) as img:
        small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    small.save(path, optimize=True)


def _prepare(page: object, compare: bool = False) -> None:
    """Show a page in use: on step 2, the best-ranked GPU selected (its reasons under the table), or with
    ``compare`` the two best-ranked selected and the Compare tab open."""
    table = getattr(page, "table", None)
    if type(page).__name__ == "GpuPage" and table is not None and table.rowCount() >= 2:
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        table.selectionModel().select(table.model().index(0, 0), flags)
        if compare:
            flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
            table.selectionModel().select(table.model().index(1, 0), flags)
        page.tabs.setCurrentIndex(1 if compare else 0)  # type: ignore[attr-defined]


def _settle() -> None:
    for _ in range(6):  # layouts settle in a few rounds (wrapped rows, then the page's height)
        QApplication.processEvents()


def render(out_dir: Path, plan_path: Path | None = None, langs: Sequence[str] = ("zh", "en")) -> list[Path]:
    app = make_app()
    use_cjk_font(app)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(QSettings(str(Path(tmp) / "settings.ini"), QSettings.Format.IniFormat))
        translators = Translators()
        controller = PlanController(load_catalog(), lang="zh")
        win = MainWindow(controller, settings, translators, RecoveryStore(Path(tmp) / "recovery"))
        controller.new(pick_example(plan_path))
        win.resize(*SIZE)
        win.show()
        for lang in langs:
            win.set_language(lang)
            for i, slug in enumerate(SLUGS[: len(win.pages)]):
                win.show_page(i)
                _prepare(win.pages[i])
                _settle()
                target = out_dir / f"{lang}-{slug}.png"
                win.grab().save(str(target))
                shrink_png(target)
                written.append(target)
                if slug == "2-gpu":  # the comparison has its own tab: one more picture
                    _prepare(win.pages[i], compare=True)
                    _settle()
                    target = out_dir / f"{lang}-{slug}-compare.png"
                    win.grab().save(str(target))
                    shrink_png(target)
                    written.append(target)
                    _prepare(win.pages[i])
                if slug == "7-quote":  # the commercial terms and the cost of ownership: one more picture
                    tabs = win.pages[i].details_tabs  # type: ignore[attr-defined]
                    tabs.setCurrentIndex(3)
                    _settle()
                    target = out_dir / f"{lang}-{slug}-tco.png"
                    win.grab().save(str(target))
                    shrink_png(target)
                    written.append(target)
                    tabs.setCurrentIndex(0)
            written.append(_comparison(win, out_dir / f"{lang}-8-comparison.png"))
        win.close()
        win.deleteLater()
        QApplication.processEvents()
    return written


def _comparison(win: MainWindow, target: Path) -> Path:
    """The vendors' quotes compared (the quote page's Compare vendor quotes… window)."""
    page = win.pages[SLUGS.index("7-quote")]
    dialog = page.compare_quotes()  # type: ignore[attr-defined]
    dialog.resize(*SIZE)
    dialog.view.select("示例供应商 A")
    for _ in range(6):
        QApplication.processEvents()
    dialog.grab().save(str(target))
    shrink_png(target)
    dialog.close()
    return target


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gui.screenshots")
    p.add_argument("out_dir", type=Path, nargs="?", default=Path("docs/screenshots"))
    p.add_argument("--plan", type=Path, help="the plan to show (default: a shipped example)")
    p.add_argument("--lang", action="append", choices=languages())
    args = p.parse_args(argv)
    for path in render(args.out_dir, args.plan, args.lang or languages()):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
