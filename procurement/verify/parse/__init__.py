"""Parsers of the tools' outputs (no I/O, nothing run): `smi_xml` (nvidia-smi -q -x), `topo` (nvidia-smi topo -m),
`health` (Xid/NVRM kernel log, nvlink -s/-e, ibstat and sysfs InfiniBand ports, lspci, AER, Fabric Manager) and
`load` (the acceptance load run: DCGM, NCCL tests, nvbandwidth, gpu_burn, p2pBandwidthLatencyTest, ipmitool)."""
