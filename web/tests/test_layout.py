"""The page's layout at common window sizes, in headless Chromium (as in test_web.py).

At each size every visible control of the side panel and of the header (inputs, selects,
buttons, labels, links and the boxes that hold them) lies within its panel's width,
before and after a model is loaded; the panel only scrolls up and down. A screenshot of
each size, with a model loaded, is saved to look at: under $RIGPORT_SCREENSHOTS when
set, else in pytest's tmp dir.
"""

import os
from pathlib import Path

import pytest

from test_web import FIXTURES, open_files

READY = "document.getElementById('export-format').options.length"
SIZES = [(1280, 800), (1920, 1080), (390, 844)]
MODEL = [FIXTURES / "md5" / "spec_mesh.md5mesh", FIXTURES / "md5" / "spec_anim.md5anim"]

# Each finding names the element, its left and right edges and the panel's.
OVERFLOWS = """() => {
    const slack = 0.5;
    const controls = 'input, select, button, label, a, '
        + 'fieldset, legend, .row, #info, #error';
    const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
        + (typeof e.className === 'string' && e.className ? '.' + e.className : '');
    const edges = (r) => `[${r.left.toFixed(1)}, ${r.right.toFixed(1)}]`;
    const found = [];
    const page = document.documentElement;
    if (page.scrollWidth > page.clientWidth) {
        found.push(`the page is ${page.scrollWidth} px wide, the window ${innerWidth}`);
    }
    for (const panel of document.querySelectorAll('header, aside')) {
        const p = panel.getBoundingClientRect();
        if (p.left < -slack || p.right > innerWidth + slack) {
            found.push(`${name(panel)} ${edges(p)} past the window, ${innerWidth} px`);
        }
        if (panel.scrollWidth > panel.clientWidth) {
            const wide = `${panel.scrollWidth} > ${panel.clientWidth}`;
            found.push(`${name(panel)} scrolls sideways: content ${wide} px`);
        }
        for (const e of panel.querySelectorAll(controls)) {
            if (!e.checkVisibility()) continue;
            const r = e.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;
            if (r.left < p.left - slack || r.right > p.right + slack) {
                found.push(`${name(e)} ${edges(r)} past ${name(panel)} ${edges(p)}`);
            }
        }
    }
    return found;
}"""



@pytest.fixture()
def screenshots(tmp_path):
    folder = Path(os.environ.get("RIGPORT_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_controls_lie_within_their_panel(browser, server, screenshots, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    shot = screenshots / f"layout-{width}x{height}.png"
    errors = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server)
        page.wait_for_function(READY)
        empty = page.evaluate(OVERFLOWS)
        open_files(page, MODEL)
        page.wait_for_timeout(200)
        page.screenshot(path=str(shot), type="png")
        loaded = page.evaluate(OVERFLOWS)
    finally:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"
    where = f"{width}x{height} (screenshot: {shot})"
    assert not empty, f"{where}, no model loaded:\n" + "\n".join(empty)
    assert not loaded, f"{where}, a model loaded:\n" + "\n".join(loaded)
