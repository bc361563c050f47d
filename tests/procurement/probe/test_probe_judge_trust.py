"""`judge REPORT --plan` trusts a judged report only as this plan's verdict: judged against this very plan, and
its checks agreeing with its own GPU list.

It accepted a report judged for another plan (exit 3, no plan check) and a report claiming one RTX 4090 with
every check passed (exit 0; handover then accepted the node).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog.loader import Catalog
from procurement.commands.cli import build_parser
from procurement.commands.judge import run_judge
from procurement.plan import canonical_digest, with_value
from procurement.probe.nodes import read_node
from procurement.verify.report import ReportError, write_report
from tests.procurement.probe.helpers import fake_server
from tests.procurement.probe.test_probe_judge_identity import probe_there
from tests.procurement.verify.conftest import H100_TOPO, H100_XML, h100_plan


def _judge(*argv: str, catalog: Catalog) -> int:
    return run_judge(build_parser().parse_args(["judge", *argv]), catalog)


@pytest.fixture
def judged(tmp_path: Path, vcat: Catalog) -> Path:
    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    raw_file = probe_there(tmp_path, bin_dir, root)
    report = read_node(raw_file, h100_plan(), vcat, "en")
    assert report.plan_digest == canonical_digest(h100_plan())
    out = tmp_path / "judged.json"
    write_report(report, out)
    return out


def _plan_file(tmp_path: Path, plan) -> Path:  # type: ignore[no-untyped-def]
    from procurement.plan import save_plan

    path = tmp_path / "plan.gpuplan.yaml"
    save_plan(plan, path)
    return path


def test_a_report_judged_for_another_plan_is_refused_unless_told(tmp_path: Path, judged: Path, vcat: Catalog,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    other = with_value(h100_plan(), "requirements.nodes", 4)  # another plan: another digest
    with pytest.raises(ReportError, match="judged against another plan"):
        read_node(judged, other, vcat, "en", any_plan=False)
    plan_file = _plan_file(tmp_path, other)
    assert _judge(str(judged), "--plan", str(plan_file), catalog=vcat) == 2
    assert "judged against another plan" in capsys.readouterr().err
    # told to: read as judged
    assert _judge(str(judged), "--plan", str(plan_file), "--any-plan", catalog=vcat) in (0, 1, 3)
    # the plan it was judged against reads it
    assert read_node(judged, h100_plan(), vcat, "en", any_plan=False).plan_digest == canonical_digest(h100_plan())


def test_a_forged_report_whose_checks_contradict_its_gpus_is_refused(tmp_path: Path, judged: Path,
                                                                      vcat: Catalog,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(judged.read_text())
    doc["gpus"] = [dict(doc["gpus"][0], name="NVIDIA GeForce RTX 4090")]  # one 4090, the plan's digest kept
    for check in doc["checks"]:
        check["status"] = "pass"
    doc["status"] = "pass"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    with pytest.raises(ReportError) as err:
        read_node(forged, h100_plan(), vcat, "en", any_plan=False)
    text = str(err.value)
    assert "GPU-COUNT check says pass" in text and "1 GPU listed, the plan buys 8" in text
    assert "GPU-MODEL check says pass" in text and "RTX 4090" in text
    plan_file = _plan_file(tmp_path, h100_plan())
    assert _judge(str(forged), "--plan", str(plan_file), catalog=vcat) == 2
    assert "edited or made for other hardware" in capsys.readouterr().err
    # in Chinese too
    with pytest.raises(ReportError, match="GPU-COUNT"):
        read_node(forged, h100_plan(), vcat, "zh", any_plan=False)


def test_a_report_listing_one_gpu_for_all_its_gpus_is_refused(tmp_path: Path, judged: Path, vcat: Catalog,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Eight GPUs, one UUID: GPU-COUNT fails on that in raw facts (gpu_count.duplicate_uuid), so a judged report
    whose GPU-COUNT passed over it was edited (the handover set the power limit on that one card eight times)."""
    doc = json.loads(judged.read_text())
    one = doc["gpus"][0]["uuid"]
    doc["gpus"] = [dict(g, uuid=one) for g in doc["gpus"]]
    assert len(doc["gpus"]) == 8 and next(c for c in doc["checks"] if c["id"] == "GPU-COUNT")["status"] == "pass"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(doc))
    with pytest.raises(ReportError, match=f"GPU-COUNT check says pass.*GPU {one} listed more than once"):
        read_node(forged, h100_plan(), vcat, "en", any_plan=False)
    assert _judge(str(forged), "--plan", str(_plan_file(tmp_path, h100_plan())), catalog=vcat) == 2
    assert "edited or made for other hardware" in capsys.readouterr().err
    with pytest.raises(ReportError, match="被列出不止一次"):
        read_node(forged, h100_plan(), vcat, "zh", any_plan=False)


def test_raw_facts_from_before_the_run_are_refused(tmp_path: Path, vcat: Catalog,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A file an earlier run left on a node came back as this run's facts; `judge --since "$RUN"` (the stamp the
    guide's lines keep) refuses facts collected before the run began, with an allowance for clock skew."""
    import datetime as dt

    from procurement.probe.nodes import SINCE_SKEW, parse_since

    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    raw_file = probe_there(tmp_path, bin_dir, root)
    doc = json.loads(raw_file.read_text())
    collected = dt.datetime.fromisoformat(doc["created"])
    stale = tmp_path / "stale.json"
    doc["created"] = (collected - dt.timedelta(days=2)).isoformat()
    stale.write_text(json.dumps(doc))
    run = (collected - dt.timedelta(minutes=1)).astimezone().strftime("%Y%m%d-%H%M%S")  # as `date` prints it
    assert parse_since(run) <= collected
    plan_file = _plan_file(tmp_path, h100_plan())
    assert _judge(str(raw_file), "--plan", str(plan_file), "--since", run, catalog=vcat) in (0, 1, 3)
    capsys.readouterr()
    assert _judge(str(stale), "--plan", str(plan_file), "--since", run, catalog=vcat) == 2
    assert "before this run began" in capsys.readouterr().err
    # a node whose clock is a few minutes behind is not refused
    behind = tmp_path / "behind.json"
    doc["created"] = (parse_since(run) - SINCE_SKEW / 2).isoformat()
    behind.write_text(json.dumps(doc))
    assert _judge(str(behind), "--plan", str(plan_file), "--since", run, catalog=vcat) in (0, 1, 3)
    assert _judge(str(raw_file), "--since", "yesterday", catalog=vcat) == 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_raw_facts_of_no_time_or_of_the_future_are_refused_with_their_reason(
        tmp_path: Path, vcat: Catalog, capsys: pytest.CaptureFixture[str], lang: str) -> None:
    """`created: yesterday` was refused as 'collected at yesterday, before this run began' (it is no time at
    all), and 9999-12-31 passed any --since: a clock far ahead or an edited file is not this run's facts."""
    import datetime as dt

    bin_dir, root = fake_server(tmp_path, H100_XML, H100_TOPO)
    raw_file = probe_there(tmp_path, bin_dir, root)
    doc = json.loads(raw_file.read_text())
    run = (dt.datetime.fromisoformat(doc["created"]) - dt.timedelta(minutes=1)).astimezone().isoformat()
    plan_file = _plan_file(tmp_path, h100_plan())
    said = {"en": ("is not a time (ISO 8601)", "later than now"), "zh": ("不是有效时间", "比现在")}[lang]
    for created, words in (("yesterday", said[0]), ("9999-12-31T00:00:00+00:00", said[1])):
        doc["created"] = created
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(doc))
        assert _judge(str(bad), "--plan", str(plan_file), "--since", run, "--lang", lang, catalog=vcat) == 2
        err = capsys.readouterr().err
        assert words in err and created in err and "before this run began" not in err and "早于" not in err
    # without --since the time is not judged (a judged report from an archive keeps its date)
    assert _judge(str(bad), "--plan", str(plan_file), catalog=vcat) in (0, 1, 3)
