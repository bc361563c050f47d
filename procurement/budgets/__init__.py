"""Budgets: the figures a plan adds up to, each computed once per evaluation, below the rules and sizing.

power (draw against PSU capacity), heat (airflow, rack density), lanes (PCIe), cost (priced lines),
balance (CPU cores and system RAM the GPUs call for). Rules, sizing, the checklist, the reports and the GUI
read them; none recomputes them. Inside ``resolved_once(plan, catalog)`` each budget function computes
its figure once and hands the same object to every later caller.
"""
