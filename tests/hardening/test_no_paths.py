"""A plan or a verification report cannot point the app at files: no field is a path, path-like text stays text."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from catalog.loader import Catalog
from procurement.checklist import build_checklists
from procurement.plan import Plan, dump_plan, parse_plan, plan_to_data, unknown_references
from procurement.reports import render_checklist_pdf, render_quote_pdf, suggested_filename
from procurement.rules import evaluate
from procurement.verify import VerificationReport, load_reports, merge_reports, parse_report
from tests.hardening.conftest import OpenWatch

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support propagateSizeHints")
PATHLIKE = re.compile(r"path|file|dir|folder|url|uri|exe|command|cmd|script|include|import|template|src")
HOSTILE = ["../../etc/passwd", "/etc/passwd", "file:///etc/passwd", "~/.ssh/id_rsa", "..\\..\\windows\\win.ini",
           "$(cat /etc/passwd)", "`id`", "%APPDATA%", "\\\\server\\share\\x"]


def _names(schema: dict[str, Any]) -> set[str]:
    """Every property name anywhere in a JSON schema (nested models under $defs included)."""
    out: set[str] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            out.update(node.get("properties", {}))
            stack += node.values()
        elif isinstance(node, list):
            stack += node
    return out


def _formats(schema: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            stack += node.values()
        elif isinstance(node, list):
            stack += node
    return found


@pytest.mark.parametrize("model", [Plan, VerificationReport], ids=["plan", "report"])
def test_no_field_is_a_path(model: type) -> None:
    schema = model.model_json_schema()  # type: ignore[attr-defined]
    names = _names(schema)
    assert len(names) > 20
    assert sorted(n for n in names if PATHLIKE.search(n)) == []
    assert _formats(schema) <= {"date", "date-time"}, "no field is typed as a path, URI or file"


def _report(value: str) -> dict[str, Any]:
    return {"schema_version": 1, "created": value, "host": {"hostname": value, "os": value, "kernel": value,
                                                            "cpu_model": value},
            "driver_version": value, "cuda_version": value, "error": value,
            "gpus": [{"index": 0, "name": value, "catalog_id": value, "uuid": value, "serial": value}],
            "checks": [{"id": "GPU-COUNT", "status": "fail", "expected": value, "actual": value, "message": value}]}


def _hostile_plan(value: str) -> Plan:
    """Every string in the plan set to ``value`` (part ids included: unknown ids are findings, not files)."""
    data = plan_to_data(Plan())
    data.update(title=value[:500], notes=value)
    data["requirements"]["model_preset"] = value
    data["gpu"] = {"model": value, "count": 8}
    data["server"].update(chassis=value, cpu=value, memory={"part": value, "count": 4},
                          storage=[{"role": "data", "part": value, "count": 2}], nics=[{"part": value, "count": 1}])
    data["server"]["psu"]["part"] = value
    data["software"] = dict.fromkeys(("os", "driver", "cuda", "framework", "image"), value)
    data["checklist"] = {value: {"checked": True, "note": value}, "ram": {"note": value}}
    data["quote"] = {"number": value, "buyer": dict.fromkeys(("name", "contact", "address"), value),
                     "vendor": dict.fromkeys(("name", "contact", "address"), value)}
    data["verification"] = [_report(value)]
    return Plan.model_validate(data)


@pytest.mark.parametrize("value", HOSTILE)
def test_path_like_text_is_only_text_in_the_core(catalog: Catalog, open_watch: OpenWatch, value: str) -> None:
    plan = parse_plan(dump_plan(_hostile_plan(value)), "hostile.gpuplan.yaml")  # through the file format
    unknown = unknown_references(plan, catalog)
    # gpu, chassis, cpu, psu, memory, 1 storage, 1 NIC and 5 software ids: 12 references, all unknown; and the
    # model preset and the checklist item id, unknown too
    parts = [msg for _, msg in unknown if "(not in the catalog)" in msg]
    assert len(parts) == 12 and all(f"'{value}' (not in the catalog)" in msg for msg in parts)
    assert sorted(loc[0] for loc, msg in unknown if msg not in parts) == ["checklist", "requirements"]
    findings = evaluate(plan, catalog, None, "en")  # the rules treat an unknown id as nothing chosen
    build_checklists(plan, catalog, findings, None, "en")
    quote = render_quote_pdf(plan, catalog, findings=findings, lang="en")
    checklist = render_checklist_pdf(plan, catalog, findings=findings, lang="en")
    assert quote.startswith(b"%PDF-") and checklist.startswith(b"%PDF-")
    report = parse_report(_report(value), "node.json")
    merged = merge_reports([report, report], plan, "en")
    assert merged.checks
    for kind in ("quote", "checklist"):
        name = suggested_filename(plan, kind, "en")  # type: ignore[arg-type]
        assert "/" not in name and "\\" not in name and not name.startswith(".."), name


def test_report_files_with_path_like_text_merge_as_text(tmp_path: Path, open_watch: OpenWatch) -> None:
    paths = []
    for i, value in enumerate(HOSTILE):
        p = tmp_path / f"node{i}.json"
        p.write_text(json.dumps(_report(value)), encoding="utf-8")
        paths.append(p)
    reports, sources, errors = load_reports(paths)
    assert errors == [] and len(reports) == len(HOSTILE)
    assert [r.host.hostname for r in reports] == HOSTILE
    assert [Path(s) for s in sources] == paths, "the only files read are the ones chosen"


def test_the_window_shows_path_like_text_and_suggests_safe_names(qtbot, make_window, dialog_calls, tmp_path: Path,
                                                                 monkeypatch, open_watch: OpenWatch) -> None:
    """Open the hostile plan in the real window, visit every page, ask for every export: suggested file names
    stay in the folder the dialog starts in, and nothing outside what the user picks is touched."""
    from gui import workers

    source = tmp_path / "hostile.gpuplan.yaml"
    source.write_text(dump_plan(_hostile_plan("../../etc/passwd")), encoding="utf-8")
    win = make_window()
    dialog_calls.answer("show_error", None)
    assert not win.open_path(source), "unknown part ids: the window refuses the file with a located error"
    assert "unknown gpu '../../etc/passwd'" in dialog_calls.calls[-1][1][2]
    win.controller.new(parse_plan(source.read_text(encoding="utf-8"), source))  # as if the ids were known
    suggested: list[Path] = []
    monkeypatch.setattr(workers, "ask_export_path", lambda _p, _t, path, _f: suggested.append(path))
    for i in range(len(win.pages)):
        win.show_page(i)
        qtbot.waitExposed(win.pages[i])
    verify = win.page("VerifyPage")
    assert verify is not None and verify.nodes_table.item(0, 0).text() == "../../etc/passwd"
    win.named_actions["export_quote"].trigger()
    win.named_actions["export_checklist"].trigger()
    assert len(suggested) == 2
    for path in suggested:
        assert path.parent == Path("."), path  # a bare name: the dialog decides the folder
        assert "/" not in path.name and path.name not in ("..", ".")


def test_yaml_cannot_include_other_files() -> None:
    """YAML has no include; the tags that would read or run something are refused with the line."""
    for tag in ("!include /etc/passwd", "!!python/object/apply:builtins.open ['/etc/passwd']",
                "!!python/name:builtins.open"):
        text = f"schema_version: 1\nnotes: {tag}\n"
        with pytest.raises(Exception) as err:
            parse_plan(text, "inc.gpuplan.yaml")
        assert str(err.value).startswith("inc.gpuplan.yaml:2: tag '"), str(err.value)
        assert type(err.value).__name__ == "PlanError"
    assert yaml.safe_load("a: /etc/passwd") == {"a": "/etc/passwd"}  # a path in YAML is just a string
