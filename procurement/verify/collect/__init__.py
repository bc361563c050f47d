"""What runs on the node: `raw` (the standard-library collector, Python 3.6+, bundled into the probe .pyz by
procurement.probe.bundle) and `runner` (running one program with a timeout, cancellation and an output cap)."""
