"""Plan text fields typed or pasted into the window (procurement.plan.one_line)."""


def test_a_pasted_title_is_one_line_without_control_characters() -> None:
    """A title pasted with CR/LF, an escape sequence and a right-to-left override kept them in the plan and the
    window title (the robustness journey); a file's own text is kept and shown escaped on paper."""
    from procurement.plan import one_line

    assert one_line("Lab box\r\nFAKE: all checks passed\u202e\x1b[2J\tphase\u20282") == (
        "Lab box FAKE: all checks passed[2J phase 2")
    assert one_line("实验室 ٢٠٢٦ — 第二期") == "实验室 ٢٠٢٦ — 第二期"  # text is kept
