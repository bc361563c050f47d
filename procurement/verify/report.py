"""The report document (procurement.verification_report, below the plan and the checklist), re-exported where
the verification code has always imported it from."""

from procurement.verification_report import (
    KIND,
    MAX_JSON_VALUES,
    MERGED_KIND,
    SCHEMA_VERSION,
    STATUSES,
    CheckRecord,
    CheckStatus,
    Coded,
    GpuRecord,
    HostRecord,
    Param,
    ReportError,
    Scalar,
    VerificationReport,
    check_actual,
    check_expected,
    check_message,
    load_report,
    make_check,
    message_of,
    migrate_report,
    parse_report,
    render_value,
    report_to_dict,
    report_to_json,
    schema_text,
    strict_json,
    tool_version,
    values_of,
    write_report,
)

__all__ = [
    "KIND", "MAX_JSON_VALUES", "MERGED_KIND", "SCHEMA_VERSION", "STATUSES", "CheckRecord", "CheckStatus", "Coded",
    "GpuRecord", "HostRecord", "Param", "ReportError", "Scalar", "VerificationReport", "check_actual",
    "check_expected", "check_message", "load_report", "make_check", "message_of", "migrate_report", "parse_report",
    "render_value", "report_to_dict", "report_to_json", "schema_text", "strict_json", "tool_version", "values_of",
    "write_report",
]
