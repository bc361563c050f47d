"""The cluster's 'same on every node' checks never count an unread value as equal (a journey's acceptance PDF
said NODE-SAME-VBIOS PASS, "Every node has the same VBIOS", with '? / ?' for every node)."""

from __future__ import annotations

from typing import Any

from procurement.verification_report import parse_report
from procurement.verify.merge import merge_reports


def _node(host: str, vbios: str | None, driver: str | None = "580.105.08") -> dict[str, Any]:
    return {"schema_version": 2, "created": "2026-11-30T10:00:00+00:00",
            "host": {"hostname": host, "dmi_serial": f"SN-{host}"}, "driver_version": driver, "cuda_version": "13.0",
            "gpus": [{"index": i, "name": "NVIDIA H100 80GB HBM3", "serial": f"{host}-S{i}", "uuid": f"GPU-{host}-{i}",
                      "vbios_version": vbios, "board_part_number": "692-2G520-0200-000"} for i in range(2)],
            "checks": [{"id": "GPU-COUNT", "status": "pass", "expected": "2", "actual": "2", "message": ""}],
            "error": None}


def _checks(*nodes: dict[str, Any]) -> dict[str, Any]:
    merged = merge_reports([parse_report(n) for n in nodes], None, "en")
    return {c.id: c for c in merged.checks}


def test_unread_vbios_is_unknown_not_the_same() -> None:
    checks = _checks(_node("gpu01", None), _node("gpu02", None))
    assert checks["NODE-SAME-VBIOS"].status == "unknown"
    assert "could not be read" in checks["NODE-SAME-VBIOS"].message
    one_unread = _checks(_node("gpu01", "96.00.99.00.01"), _node("gpu02", None))
    assert one_unread["NODE-SAME-VBIOS"].status == "unknown"
    assert _checks(_node("gpu01", "96.00.99.00.01"), _node("gpu02", "96.00.99.00.01"))["NODE-SAME-VBIOS"].status \
        == "pass"
    assert _checks(_node("gpu01", "96.00.99.00.01"), _node("gpu02", "96.00.99.00.02"))["NODE-SAME-VBIOS"].status \
        == "warn"


def test_an_unread_driver_is_unknown() -> None:
    checks = _checks(_node("gpu01", "96.00.99.00.01"), _node("gpu02", "96.00.99.00.01", driver=None))
    assert checks["NODE-SAME-DRIVER"].status == "unknown"
    assert "1 node could not be read" in checks["NODE-SAME-DRIVER"].message
