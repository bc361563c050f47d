"""Chinese and English text of the judge, probe-bundle and handover commands."""

from __future__ import annotations

from procurement.messages import register

register(
    {
        "probe.judge.read_error": {"zh": "无法读取：{error}", "en": "Cannot read: {error}"},
        "probe.judge.no_input": {
            "zh": "没有可评判的原始数据或报告（{paths}）",
            "en": "No raw facts or reports to judge in {paths}",
        },
        "probe.judge.written": {"zh": "报告已写入 {path}", "en": "Report written to {path}"},
        "probe.judge.pdf_written": {"zh": "集群验收报告已写入 {path}",
                                    "en": "Cluster acceptance report written to {path}"},
        "probe.judge.pdf_needs_plan": {"zh": "--pdf 需要 --plan：验收报告要对照方案",
                                       "en": "--pdf needs --plan: an acceptance report is checked against a plan"},
        "probe.judge.bad_nodes": {"zh": "--nodes 无法解析：{error}", "en": "--nodes cannot be read: {error}"},
        "probe.judge.missing": {"zh": "{n} 个节点没有报告：{nodes}", "en": "No report yet from {n} node(s): {nodes}"},
        "probe.judge.nodes_written": {
            "zh": "{n} 个节点报告已写入 {path}",
            "en": "{n} node report(s) written to {path}",
        },
        "probe.handover.written": {
            "zh": "已为 {n} 个验收通过的节点写入交接文件到 {path}",
            "en": "Handover files for {n} accepted node(s) written to {path}",
        },
        "probe.handover.none": {
            "zh": "没有验收通过的节点：不生成监控与配置文件",
            "en": "No node passed acceptance: no monitoring or setup files written",
        },
        "probe.handover.slowdown_unknown": {
            "zh": "以下节点的报告没有 GPU 降频温度阈值，未生成降频温度告警：{nodes}",
            "en": "No slowdown-temperature alert for these nodes (their reports hold no slowdown threshold): {nodes}",
        },
        "probe.handover.rejected": {
            "zh": "未通过验收，不纳入交接：{nodes}",
            "en": "Not accepted, left out of the handover:{nodes}",
        },
    }
)
