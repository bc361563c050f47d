"""`gpu-procure export`: atomic PDF writes; unreadable plans and unwritable paths exit 2, leave nothing."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pypdf
import pytest

from catalog.loader import Catalog, load_catalog
from procurement.commands.cli import build_parser
from procurement.commands.export import run_export
from procurement.reports.fonts import FontNotFoundError, candidates, find_font
from tests.conftest import unprivileged

DATA = Path(__file__).parent.parent / "data"
PLAN = DATA / "reports_plan.gpuplan.yaml"


@pytest.fixture(scope="module")
def cat() -> Catalog:
    return load_catalog(data_dir=DATA / "reports_catalog")


def export(cat: Catalog, *argv: object) -> int:
    args = build_parser().parse_args(["export", *map(str, argv)])
    return run_export(args, cat)


def pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages)


def test_writes_quote_and_checklist(cat: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    q, c = tmp_path / "quote.pdf", tmp_path / "checklist.pdf"
    assert export(cat, PLAN, "--quote", q, "--checklist", c, "--lang", "zh") == 0
    # the test plan has a line on request: the quote document is a request for quotation, and says so
    assert "询价单" in pdf_text(q) and "硬件检查清单" in pdf_text(c)
    out = capsys.readouterr().out
    assert f"已写入 询价单：{q}" in out and f"已写入 检查清单：{c}" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checklist.pdf", "quote.pdf"]  # no temp files left


def test_english_and_letter(cat: Catalog, tmp_path: Path) -> None:
    q = tmp_path / "q.pdf"
    assert export(cat, PLAN, "--quote", q, "--lang", "en", "--paper", "letter") == 0
    reader = pypdf.PdfReader(io.BytesIO(q.read_bytes()))
    assert [round(float(x)) for x in reader.pages[0].mediabox[2:]] == [612, 792]
    assert "Request for quotation" in pdf_text(q)


def test_replaces_an_existing_file(cat: Catalog, tmp_path: Path) -> None:
    q = tmp_path / "q.pdf"
    q.write_bytes(b"old")
    assert export(cat, PLAN, "--quote", q, "--lang", "en") == 0
    assert q.read_bytes().startswith(b"%PDF-")


def test_nothing_to_export(cat: Catalog, capsys: pytest.CaptureFixture[str]) -> None:
    assert export(cat, PLAN, "--lang", "en") == 2
    assert "give --quote FILE, --rfq FILE, --checklist FILE, --acceptance FILE and/or --comparison FILE" in \
        capsys.readouterr().err


@pytest.mark.parametrize(
    ("content", "expect"),
    [
        (None, "does not exist"),
        ("schema_version: 1\ngpu: [unclosed\n", "not valid YAML"),
        ("schema_version: 1\ngpu:\n  model: no-such-gpu\n  count: 1\n", "unknown gpu 'no-such-gpu'"),
    ],
)
def test_unreadable_plan_exits_2(
    cat: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, expect: str
) -> None:
    plan = tmp_path / "bad.gpuplan.yaml"
    if content is not None:
        plan.write_text(content, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    assert export(cat, plan, "--quote", out / "q.pdf", "--lang", "en") == 2
    err = capsys.readouterr().err
    assert "cannot read the plan" in err
    if content is None:
        assert "bad.gpuplan.yaml" in err
    else:
        assert expect in err, err
    assert list(out.iterdir()) == []


def test_missing_folder_or_directory_target(cat: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "q.pdf"
    assert export(cat, PLAN, "--quote", good, "--checklist", tmp_path / "nope" / "c.pdf", "--lang", "en") == 2
    err = capsys.readouterr().err
    assert f"cannot write {tmp_path / 'nope' / 'c.pdf'}" in err and "does not exist" in err
    assert not good.exists()  # checked before anything is written
    assert export(cat, PLAN, "--quote", tmp_path, "--lang", "zh") == 2
    assert "是一个目录" in capsys.readouterr().err


def test_read_only_folder(cat: Catalog, open_tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ro = open_tmp / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with unprivileged():  # as root, the folder would take the file
            status = export(cat, PLAN, "--quote", ro / "q.pdf", "--lang", "en")
        assert status == 2
        assert "cannot write" in capsys.readouterr().err
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o700)


def test_failure_while_writing_leaves_no_partial_file(
    cat: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "q.pdf"
    target.write_bytes(b"previous version")

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    assert export(cat, PLAN, "--quote", target, "--lang", "en") == 2
    err = capsys.readouterr().err
    assert f"cannot write {target}: No space left on device" in err
    assert target.read_bytes() == b"previous version"
    assert [p.name for p in tmp_path.iterdir()] == ["q.pdf"]


def test_same_file_twice(cat: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert export(cat, PLAN, "--quote", tmp_path / "x.pdf", "--checklist", tmp_path / "x.pdf", "--lang", "en") == 2
    assert "different files" in capsys.readouterr().err


def test_font_search_order_and_missing_font_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    not_a_font = tmp_path / "fake.ttf"
    not_a_font.write_bytes(b"not a font")
    monkeypatch.setenv("GPU_PROCURE_CJK_FONT", str(not_a_font))
    assert candidates()[0] == (str(not_a_font), 0)
    with pytest.raises(FontNotFoundError) as info:
        find_font([(str(tmp_path / "missing.ttc"), 0), (str(not_a_font), 0)])
    msg = str(info.value)
    assert "fonts-wqy-zenhei" in msg and "GPU_PROCURE_CJK_FONT" in msg and "fake.ttf" in msg


def test_cli_exports_every_shipped_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from procurement.commands.cli import main
    from tests.conftest import EXAMPLES

    plans = sorted(EXAMPLES.glob("*.gpuplan.yaml"))
    assert plans
    for plan in plans:
        q, c = tmp_path / f"{plan.stem}-q.pdf", tmp_path / f"{plan.stem}-c.pdf"
        assert main(["export", str(plan), "--quote", str(q), "--checklist", str(c), "--lang", "en"]) == 0
        # a quotation only where every line is priced, else a request for quotation: never a total over unknowns
        assert ("Quotation" in pdf_text(q) or "Request for quotation" in pdf_text(q)) and \
            "Hardware checklist" in pdf_text(c)
        assert "Total (incl. VAT)" not in pdf_text(q) or "Request for quotation" not in pdf_text(q)
    assert capsys.readouterr().out.count("wrote ") == 2 * len(plans)


def test_the_documents_read_the_one_evaluation(cat: Catalog, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """export reads the findings of procurement.evaluation.evaluate() (as check does): the rules run once for
    every document together, and no document evaluates the plan a second time."""
    import procurement.commands.export as command
    import procurement.rules

    seen: list[object] = []
    real_rules, real_evaluate = procurement.rules.evaluate, command.evaluate
    monkeypatch.setattr(procurement.rules, "evaluate", lambda *a, **k: seen.append("rules") or real_rules(*a, **k))
    monkeypatch.setattr(command, "evaluate", lambda *a, **k: seen.append(e := real_evaluate(*a, **k)) or e)
    out = [tmp_path / f"{what}.pdf" for what in ("quote", "checklist", "acceptance")]
    assert export(cat, PLAN, "--quote", out[0], "--checklist", out[1], "--acceptance", out[2], "--lang", "en") == 0
    assert seen[0] == "rules" and len(seen) == 2, "one evaluation, and no document evaluates the plan again"
