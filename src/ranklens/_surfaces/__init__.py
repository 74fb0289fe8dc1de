"""The surfaces: evaluate, compare, report, fusion, agreement, pools, chunks."""
