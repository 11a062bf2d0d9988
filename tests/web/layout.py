"""The web board fits one screen of 1280x720: python3 layout.py URL RULE_FILE

On Monkey Queen after one move (so that the pie rule's `swap` is offered): the board,
the move buttons and the panel stand inside the window without overlapping; a message
appearing (an illegal click) does not move the board; a broken rule file's
diagnostics appear inside the window too. Run by tests/web.rs against `varsand serve`."""

import json
import sys
import time
import urllib.request

from browser import click, css, piece, post, square, start, stop, text, wait_for


def rect(driver, el):
    return driver.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return {left: r.left, top: r.top, right: r.right, bottom: r.bottom};",
        el,
    )


def inside(driver, what, r):
    width, height = driver.execute_script("return [window.innerWidth, window.innerHeight];")
    assert r["left"] >= 0 and r["top"] >= 0, f"{what} starts outside the window: {r}"
    assert r["right"] <= width + 0.5 and r["bottom"] <= height + 0.5, (
        f"{what} ends outside the {width}x{height} window: {r}"
    )


def apart(a, b):
    return a["right"] <= b["left"] or b["right"] <= a["left"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]


def main(url, rule_file):
    began = time.monotonic()
    state = json.load(urllib.request.urlopen(url.rstrip("/") + "/state"))
    first = state["moves"][0]["text"]
    post(url, "/move", {"move": first})
    driver, profile = start(1280, 900)
    try:
        # The page's own area (the viewport) is 1280x720, whatever the window's frame.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.get(url)
        wait_for(driver, "the swap button", lambda d: any("swap" in b.text for b in css(d, "#other-moves button")))
        width, height = driver.execute_script("return [window.innerWidth, window.innerHeight];")
        assert (width, height) == (1280, 720), (width, height)
        board = rect(driver, driver.find_element("id", "board"))
        inside(driver, "the board", board)
        for b in css(driver, "#other-moves button") + css(driver, "nav button"):
            inside(driver, f"the button {b.text!r}", rect(driver, b))
        swap = [b.text for b in css(driver, "#other-moves button") if "swap" in b.text]
        assert swap == ["swap: take over the first player's side"], swap
        aside = rect(driver, driver.find_element("css selector", "aside"))
        assert apart(board, aside), f"the board {board} and the panel {aside} overlap"
        assert aside["left"] >= board["right"], "the panel stands beside the board"
        print(f"{width}x{height}: the board, the buttons and the panel fit, side by side")

        # A message appears: the board stays where it was.
        before = rect(driver, driver.find_element("id", "board"))
        click(driver, square(driver, "a1"))
        wait_for(driver, "a message", lambda d: text(d, "message") != "")
        after = rect(driver, driver.find_element("id", "board"))
        assert abs(after["top"] - before["top"]) < 0.5, f"the board moved: {before} -> {after}"
        print(f"a message ({text(driver, 'message')[:40]}...) leaves the board in place")

        # The rule file broken: the diagnostics are inside the window.
        with open(rule_file, encoding="utf-8") as f:
            good = f.read()
        with open(rule_file, "w", encoding="utf-8") as f:
            f.write(good.replace("piece ", "piece 9", 1))
        wait_for(driver, "the diagnostics", lambda d: d.find_element("id", "problems").is_displayed(), 15)
        problems = rect(driver, driver.find_element("id", "problems"))
        inside(driver, "the diagnostics", problems)
        print("the diagnostics of a broken file are inside the window")
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
