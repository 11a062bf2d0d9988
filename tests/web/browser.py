"""Shared by the browser scripts: a headless Chromium driven by selenium, with a clear
message and an install hint when a piece is missing (the tests fail then, never skip)."""

import json
import os
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request

# Found by the Rust tests (tests/common/tools.rs), wherever they are installed.
CHROMIUM = os.environ.get("VARSAND_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("VARSAND_CHROMEDRIVER", "/usr/bin/chromedriver")
HINT = (
    "install them with: apt-get install chromium chromium-driver && "
    "python3 -m pip install selenium   (.ci/run does both)"
)
# What a missing piece exits with, so that the Rust test can tell it from a failure.
MISSING = 3


def missing(what):
    print(f"cannot run the browser test: {what} is missing; {HINT}", file=sys.stderr)
    sys.exit(MISSING)


try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    missing("the python package selenium")



def start(width=1200, height=900):
    """A headless Chromium with a fresh profile, and the folder of that profile."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            missing(path)
    profile = tempfile.mkdtemp(prefix="varsand-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={width},{height}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    return driver, profile


def stop(driver, profile):
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def run(url, steps, width=1200, height=900):
    """Opens the page in a fresh browser, runs `steps(driver)`, closes the browser, and
    says the test passed (the Rust test looks for those words)."""
    began = time.monotonic()
    driver, profile = start(width, height)
    try:
        driver.get(url)
        steps(driver)
    finally:
        stop(driver, profile)
    print(f"browser test passed in {time.monotonic() - began:.1f} s")


def wait_for(driver, what, condition, seconds=10):
    """Waits until `condition(driver)` is true; fails naming `what` and the page's text."""
    # The page redraws the board twice a second: an element found a moment ago may be
    # gone when it is read (stale). That is no failure, only a reason to look again.
    try:
        return WebDriverWait(
            driver,
            seconds,
            poll_frequency=0.1,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
        ).until(lambda d: condition(d))
    except Exception:
        text = driver.find_element(By.TAG_NAME, "body").text
        raise AssertionError(f"timed out waiting for {what}; the page says:\n{text}") from None


def css(driver, selector):
    return driver.find_elements(By.CSS_SELECTOR, selector)


def piece(driver, square):
    found = css(driver, f'#board [data-square="{square}"][data-piece]')
    return found[0] if found else None


def square(driver, name):
    for el in css(driver, f'#board [data-square="{name}"]'):
        if el.get_attribute("data-piece") is None:
            return el
    raise AssertionError(f"no square element for {name}")


def text(driver, id_):
    return driver.find_element(By.ID, id_).text


def shown(driver, id_):
    return driver.find_element(By.ID, id_).is_displayed()


def click(driver, el):
    # A real click, in the middle of the element (WebDriver fails if another element
    # would receive it).
    el.click()


def post(url, path, body=None):
    """An action through the page's API, as the page's clicks would send it."""
    request = urllib.request.Request(
        url.rstrip("/") + path,
        data=json.dumps(body or {}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.load(reply)
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{path} {body}: {e.code} {e.read().decode()}") from None
