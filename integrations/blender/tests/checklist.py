"""Printing a plain-Python check script's results: one line per check, then the count."""

from __future__ import annotations

from typing import Callable


def run(label: str, checks: Callable[[], list[dict]]) -> int:
    """Runs `checks`, prints `status label check: detail` per result and
    `N passed, N failed`; returns the exit status (1 on a failure)."""
    results = checks()
    for item in results:
        print(f"{item['status']:<4} {label} {item['check']}: {item['detail']}")
    failed = sum(item["status"] == "fail" for item in results)
    print(f"\n{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
