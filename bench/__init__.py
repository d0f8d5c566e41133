"""Benchmarks, run by ``make bench``: figures are ratios measured side by
side in one run, because the machine they run on is shared and noisy."""
