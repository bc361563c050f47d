"""Handover to operations: per-node setup scripts, Prometheus scrape config and alert rules of accepted nodes."""
