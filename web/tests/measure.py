"""Figures for web/README.md: the size of the built site and the time the page takes to show
a ~10 MB model (from choosing the file to the first frame drawn: read, convert in the worker,
three.js parse). Not a test; run by hand after `cargo xtask web`:

    target/web-venv/bin/python web/tests/measure.py
"""

import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from test_web import ARGS, CHROMIUM, SITE, QuietHandler  # noqa: E402

import functools  # noqa: E402
import http.server  # noqa: E402
import threading  # noqa: E402

from playwright.sync_api import sync_playwright  # noqa: E402


def synthetic_iqe(path, rings=700, sides=160, joints=16, frames=30):
    """A skinned, animated tube written as IQE text, about 10 MB."""
    out = ["# Inter-Quake Export"]
    for j in range(joints):
        out.append(f"joint j{j} {j - 1}")
        out.append(f"pq 0 0 {0 if j == 0 else 1.0 / joints * 10:.4f} 0 0 0 1")
    out.append("mesh tube")
    out.append("material skin.png")
    for r in range(rings):
        z = r / (rings - 1) * 10
        joint = min(int(z / 10 * joints), joints - 1)
        for s in range(sides):
            a = s / sides * 2 * math.pi
            out.append(f"vp {math.cos(a):.5f} {math.sin(a):.5f} {z:.5f}")
            out.append(f"vn {math.cos(a):.4f} {math.sin(a):.4f} 0")
            out.append(f"vt {s / sides:.4f} {r / rings:.4f}")
            out.append(f"vb {joint} 1")
    for r in range(rings - 1):
        for s in range(sides):
            a, b = r * sides + s, r * sides + (s + 1) % sides
            out.append(f"fm {a} {b} {b + sides}")
            out.append(f"fm {a} {b + sides} {a + sides}")
    out.append("animation bend")
    out.append("framerate 30")
    for f in range(frames):
        out.append("frame")
        for j in range(joints):
            angle = math.sin(f / frames * 2 * math.pi) * 0.1
            out.append(f"pq 0 0 {0 if j == 0 else 1.0 / joints * 10:.4f} {math.sin(angle / 2):.5f} 0 0 {math.cos(angle / 2):.5f}")
    path.write_text("\n".join(out) + "\n")


def folder_size(folder):
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main():
    print(f"site: {folder_size(SITE) / 2**20:.2f} MiB in {SITE}")
    for part in ["pkg", "vendor"]:
        print(f"  {part}/: {folder_size(SITE / part) / 2**20:.2f} MiB")
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "tube10.iqe"
        synthetic_iqe(model)
        print(f"model: {model.stat().st_size / 1e6:.1f} MB")
        handler = functools.partial(QuietHandler, directory=str(SITE))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{httpd.server_address[1]}/"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1000, "height": 600})
            start = time.perf_counter()
            page.goto(url)
            page.wait_for_function("document.querySelectorAll('#export-format option').length > 0")
            print(f"page ready (wasm compiled): {time.perf_counter() - start:.2f} s")
            for fresh in [True, False]:
                times = []
                inside = []
                for _ in range(3):
                    if fresh:
                        page.goto(url)
                        page.wait_for_function("document.querySelectorAll('#export-format option').length > 0")
                    start = time.perf_counter()
                    page.set_input_files("#open", [str(model)])
                    page.wait_for_function("document.body.dataset.loaded === 'true'", timeout=120_000)
                    times.append(time.perf_counter() - start)
                    # From the files read to the model shown, as the page measures it.
                    inside.append(float(page.evaluate("document.body.dataset.loadSeconds")))
                    page.evaluate("delete document.body.dataset.loaded")
                how = "in a freshly loaded page" if fresh else "again in the same page"
                print(f"model shown {how}: {', '.join(f'{t:.2f}' for t in times)} s (median {statistics.median(times):.2f} s)")
                print(f"  of which converting and showing: {', '.join(f'{t:.2f}' for t in inside)} s")
            browser.close()
        httpd.shutdown()


if __name__ == "__main__":
    main()
