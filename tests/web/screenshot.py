"""A picture of the web board after some moves:
python3 screenshot.py URL OUT.png [MOVE...]

Plays the moves through the page's own API (as the page's clicks would), selects the
piece or hand piece named by `--select SQUARE` or `--select-hand SYMBOL` if given (so
the picture shows its targets), and saves the window, or with `--element SELECTOR` that
element alone (the rules panel's cards). Used by tests/web.rs's ignored
test `screenshots`, which writes docs/img/web_*.png."""

import argparse

from browser import By, post, start, stop, wait_for


def main():
    args = argparse.ArgumentParser()
    args.add_argument("url")
    args.add_argument("out")
    args.add_argument("moves", nargs="*")
    args.add_argument("--select")
    args.add_argument("--select-hand")
    args.add_argument("--width", type=int, default=1280)
    args.add_argument("--height", type=int, default=900)
    args.add_argument("--element")
    a = args.parse_args()
    for m in a.moves:
        post(a.url, "/move", {"move": m})
    driver, profile = start(a.width, a.height)
    try:
        driver.get(a.url)
        wait_for(driver, "the board", lambda d: d.find_elements(By.CSS_SELECTOR, "#board [data-square]"))
        if a.select:
            pieces = driver.find_elements(By.CSS_SELECTOR, f'#board [data-square="{a.select}"][data-piece]')
            pieces[0].click()
        if a.select_hand:
            hand = driver.find_elements(By.CSS_SELECTOR, f'#board [data-hand][data-piece="{a.select_hand}"]')
            hand[0].click()
        if a.select or a.select_hand:
            wait_for(driver, "the marks", lambda d: d.find_elements(By.CSS_SELECTOR, "#board .vs-marks"))
        if a.element:
            wait_for(driver, a.element, lambda d: d.find_elements(By.CSS_SELECTOR, a.element))
            element = driver.find_elements(By.CSS_SELECTOR, a.element)[0]
            driver.execute_script("arguments[0].scrollIntoView()", element)
            element.screenshot(a.out)
        else:
            driver.save_screenshot(a.out)
    finally:
        stop(driver, profile)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
