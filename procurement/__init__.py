"""What the buyer decides and how it is checked: plan, sizing, rules, checklists, reports, verify (no Qt)."""

__version__ = "0.1.0"
