"""`gpu-procure size`: flags, JSON keys, exit status (0 fits, 1 does not, 2 bad input, 3 no GPU given)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from procurement.commands.size import main

KEYS = {"per_gpu_gb", "per_gpu_with_margin_gb", "breakdown", "fits", "scheme", "kv_tokens", "max_concurrency"}
PARTS = {"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"}


def size(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = main(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def size_json(*argv: str) -> tuple[int, dict[str, Any]]:
    rc, out, err = size(*argv, "--json")
    assert err == ""
    return rc, json.loads(out)


def test_json_keys_and_breakdown_per_gpu() -> None:
    rc, data = size_json("--model", "qwen2.5-7b", "--precision", "int4", "--seq", "32768",
                         "--gpu-memory-gb", "24")
    assert rc == 0
    assert KEYS <= set(data) and set(data["breakdown"]) == PARTS
    assert data["per_gpu_gb"] == pytest.approx(sum(data["breakdown"].values()), abs=0.01)
    assert data["per_gpu_with_margin_gb"] == pytest.approx(data["per_gpu_gb"] * 1.2, abs=0.01)
    assert data["fits"] is True
    assert data["kv_tokens"] > 100_000 and data["max_concurrency"] == pytest.approx(
        data["kv_tokens"] / 32768, abs=0.01)


def test_issue_7b_full_finetune_batch_8_fsdp_on_8_a100_does_not_fit() -> None:
    rc, data = size_json("--model", "llama-2-7b", "--mode", "full", "--precision", "mixed", "--batch", "8",
                         "--gpus", "8", "--scheme", "fsdp", "--gpu", "a100-sxm4-80gb")
    assert rc == 1 and data["fits"] is False
    assert data["scheme"] == "ZeRO-3/FSDP×8"
    assert data["breakdown"]["activations"] > 73
    assert data["per_gpu_gb"] > 85.9


def test_searched_scheme_fits_and_says_its_communication() -> None:
    rc, data = size_json("--model", "llama-2-7b", "--mode", "full", "--batch", "8", "--gpus", "8",
                         "--gpu", "a100-sxm4-80gb")
    assert rc == 0 and data["fits"] is True
    assert data["parallel"]["gpus"] == 8
    assert "NVLink" in data["communication"]
    assert data["gpus_needed"] >= 1


def test_lora_7b_on_a_4090_fits_with_checkpointing_by_default() -> None:
    rc, data = size_json("--model", "llama-2-7b", "--mode", "lora", "--gpu", "rtx-4090")
    assert rc == 0 and data["checkpointing"] is True
    rc, data = size_json("--model", "llama-2-7b", "--mode", "lora", "--gpu", "rtx-4090", "--checkpointing",
                         "off", "--batch", "4", "--seq", "4096")
    assert rc == 1


def test_qlora_rank_and_targets() -> None:
    _, all_linear = size_json("--model", "llama-2-7b", "--mode", "qlora")
    _, qv = size_json("--model", "llama-2-7b", "--mode", "qlora", "--lora-rank", "8", "--lora-targets",
                      "q_proj,v_proj")
    assert all_linear["trainable_params"] == 32 * 64 * (4 * 8192 + 3 * 15104)
    assert qv["trainable_params"] == 32 * 8 * 2 * 8192


def test_no_gpu_given_is_undecided() -> None:
    rc, data = size_json("--model", "llama-3-8b")
    assert rc == 3 and data["fits"] is None and data["kv_tokens"] is None


def test_shape_flags_and_config_file(tmp_path: Path) -> None:
    rc, flags = size_json("--params-b", "7.62", "--layers", "28", "--hidden", "3584", "--heads", "28",
                          "--kv-heads", "4", "--vocab", "152064", "--seq", "4096")
    assert rc == 3  # no GPU given: sized, fit undecided
    _, pre = size_json("--model", "qwen2.5-7b", "--seq", "4096")
    assert flags["per_gpu_gb"] == pytest.approx(pre["per_gpu_gb"], rel=0.02)
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({"hidden_size": 3584, "intermediate_size": 18944, "num_attention_heads": 28,
                               "num_hidden_layers": 28, "num_key_value_heads": 4, "vocab_size": 152064,
                               "model_type": "qwen2"}), encoding="utf-8")
    _, conf = size_json("--config", str(cfg), "--seq", "4096")
    assert conf["per_gpu_gb"] == pytest.approx(pre["per_gpu_gb"], rel=1e-6)


@pytest.mark.parametrize("argv", [
    ("--model", "no-such-model"),
    ("--layers", "32"),
    ("--model", "llama-3-8b", "--gpus", "4", "--tp", "3"),
    ("--model", "llama-3-8b", "--batch", "0"),
    ("--model", "llama-3-8b", "--mode", "full", "--precision", "int4"),
    ("--model", "llama-3-8b", "--utilization", "1.5"),
    ("--model", "llama-3-8b", "--gpu", "no-such-gpu"),
    ("--model", "llama-3-8b", "--lora-targets", "bogus"),
    ("--config", "/nonexistent/config.json"),
    ("--model", "llama-3-8b", "--mode", "sideways"),
])
def test_bad_input_exits_2(argv: tuple[str, ...]) -> None:
    assert size(*argv)[0] == 2


def test_tp_checks_heads_and_p2p() -> None:
    rc, data = size_json("--model", "qwen2.5-7b", "--gpus", "8", "--tp", "8", "--gpu-memory-gb", "80")
    assert rc == 1 and any(c["id"] == "SIZE-TP-HEADS" for c in data["checks"])
    _, data = size_json("--model", "qwen2.5-7b", "--gpus", "2", "--tp", "2", "--gpu", "rtx-4090")
    assert any(c["id"] == "SIZE-TP-NO-P2P" for c in data["checks"])
    rc, data = size_json("--model", "qwen2.5-7b", "--precision", "fp8", "--gpu", "a100-sxm4-80gb")
    assert rc == 1 and any(c["id"] == "SIZE-FP8-UNSUPPORTED" for c in data["checks"])


def test_text_output_in_both_languages() -> None:
    rc, out, _ = size("--model", "deepseek-v3", "--precision", "fp8", "--gpus", "8", "--gpu", "h200-sxm-141gb",
                      "--lang", "en")
    assert rc == 0 and "KV cache" in out and "concurrent requests" in out and "MLA" in out
    rc, out, _ = size("--model", "deepseek-v3", "--precision", "fp8", "--gpus", "8", "--gpu", "h200-sxm-141gb",
                      "--lang", "zh")
    assert "每个 GPU" in out and "并发" in out


def test_list_models() -> None:
    rc, out, _ = size("--list-models")
    assert rc == 0 and "deepseek-r1" in out and "glm-4-9b" in out


def test_check_json_reports_the_per_gpu_breakdown(tmp_path: Path) -> None:
    from procurement.commands.cli import main as cli

    plan = Path(__file__).resolve().parents[3] / "resources" / "examples" / "llm-cluster-node.gpuplan.yaml"
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        cli(["check", str(plan), "--json", "--lang", "en"])
    records = json.loads(out.getvalue())
    per_gpu = [r for r in records if r["rule"] == "VRAM-PER-GPU"]
    assert len(per_gpu) == 1 and tuple(per_gpu[0]) == ("rule", "family", "severity", "step", "fields", "message",
                                                       "fix")
    text = per_gpu[0]["message"]
    for part in ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"):
        assert f"{part} " in text
    assert "64 GPUs" in text and "fits" in text
