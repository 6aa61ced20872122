"""Drives the approvals inbox page in a real browser: the machine's Debian
Chromium, headless, through chromium-driver and Selenium (pinned in
tests/mcp_client/venv.sh), with JavaScript switched off, as an approver
without scripts would see it. For tests/inbox_browser.rs.

    python inbox.py URL

Reads one JSON command a line on stdin and answers each with one JSON line:

- {"op": "open"}: loads the inbox; answers what it shows (below);
- {"op": "decide", "id": ..., "decision": "grant"|"deny", "reason": ...}:
  types the reason into that request's form and clicks the button, on the
  page as loaded last (which may be stale); answers the page it lands on;
- {"op": "cross_site", "id": ..., "csrf": ...}: opens a page on another
  origin (a second local server) whose form posts a grant of `id` to the
  inbox, with `csrf` as its token, and clicks it; answers the page it lands on;
- {"op": "screenshot", "path": ...}: saves a PNG of the page as loaded last;
- {"op": "quit"}.

A command the browser fails is answered {"error": "OP: Exception: message"}.

What a page shows: {"title", "url", "alert" (the text of a refusal, or null),
"notice": {"kind", "id", "text"} or null, "pending": [{"id", "tool", "does",
"caller", "reason", "arguments" (the text of the <pre>), "digest", "left",
"csrf", "buttons": [[name, value], ...]}], "decided": [{"id", "text"}],
"elements": {"script", "img", "iframe"} (how many the DOM holds),
"markup_in_arguments" (elements found inside any arguments <pre>)}.
"""

import http.server
import json
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    ElementNotInteractableException,
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    # A fresh machine's /dev/shm may be small; a renderer that runs out of it
    # crashes the tab mid-test.
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1100,1000",
]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument("--user-data-dir=" + tempfile.mkdtemp(prefix="inbox-chromium-"))
    # The page must work without scripts: none run here.
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def text_or_none(driver, css):
    found = driver.find_elements(By.CSS_SELECTOR, css)
    return found[0].text if found else None


def shown(driver):
    # After a submit the browser follows the server's redirect; an element
    # found on the page before that load completes is stale after it (seen
    # under load), so the page is read again whole.
    for _ in range(5):
        try:
            return read_page(driver)
        except (StaleElementReferenceException, NoSuchElementException):
            continue
    return read_page(driver)


def read_page(driver):
    pending = []
    for article in driver.find_elements(By.CSS_SELECTOR, "[data-approval-id]"):
        form = article.find_element(By.TAG_NAME, "form")
        pending.append(
            {
                "id": article.get_attribute("data-approval-id"),
                "tool": article.find_element(By.CSS_SELECTOR, "h3 code").text,
                "does": article.find_element(By.CSS_SELECTOR, ".does").text,
                "caller": article.find_element(By.CSS_SELECTOR, ".caller").text,
                "reason": article.find_element(By.CSS_SELECTOR, ".reason").text,
                "arguments": article.find_element(By.CSS_SELECTOR, "pre.arguments").text,
                "digest": article.find_element(By.CSS_SELECTOR, ".digest").text,
                "left": article.find_element(By.CSS_SELECTOR, ".left").text,
                "csrf": form.find_element(By.NAME, "csrf").get_attribute("value"),
                "reason_field": len(form.find_elements(By.NAME, "reason")),
                "buttons": [
                    [b.get_attribute("name"), b.get_attribute("value")]
                    for b in form.find_elements(By.TAG_NAME, "button")
                ],
            }
        )
    notice = None
    for n in driver.find_elements(By.CSS_SELECTOR, "[data-notice]"):
        notice = {"kind": n.get_attribute("data-notice"), "id": n.get_attribute("data-notice-id"), "text": n.text}
    return {
        "title": driver.title,
        "url": driver.current_url,
        "alert": text_or_none(driver, "[role=alert]"),
        "notice": notice,
        "pending": pending,
        "decided": [
            {"id": r.get_attribute("data-decided-id"), "text": r.text}
            for r in driver.find_elements(By.CSS_SELECTOR, "[data-decided-id]")
        ],
        "elements": {t: len(driver.find_elements(By.TAG_NAME, t)) for t in ["script", "img", "iframe"]},
        "markup_in_arguments": len(driver.find_elements(By.CSS_SELECTOR, "pre.arguments *")),
    }


class Attacker(http.server.BaseHTTPRequestHandler):
    """Another site: one page whose form posts a grant to the inbox."""

    page = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(Attacker.page)

    def log_message(self, *args):
        pass


def cross_site(driver, inbox, id, csrf):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Attacker.page = (
        '<!doctype html><title>Win a prize</title>'
        f'<form method="post" action="{inbox}">'
        f'<input type="hidden" name="id" value="{id}">'
        f'<input type="hidden" name="csrf" value="{csrf}">'
        '<input type="hidden" name="reason" value="free prize">'
        '<button id="go" name="decision" value="grant">Claim your prize</button></form>'
    ).encode()
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        go = driver.find_element(By.ID, "go")
        go.click()
        WebDriverWait(driver, 20).until(expected_conditions.staleness_of(go))
        return shown(driver)
    finally:
        server.shutdown()


# What the browser says when it did not press the button: the page was
# still settling (an element found, then replaced, or not yet usable), or
# the press would have landed on something else. None of them sent the
# decision, so the form is found and filled again; at the third time the
# failure is answered. Any other failure is answered at once, since the
# decision may have been sent.
NOT_PRESSED = (
    StaleElementReferenceException,
    ElementNotInteractableException,
    ElementClickInterceptedException,
    NoSuchElementException,
)


def decide(driver, id, decision, reason):
    for attempt in range(3):
        try:
            article = driver.find_element(By.CSS_SELECTOR, f'[data-approval-id="{id}"]')
            field = article.find_element(By.NAME, "reason")
            field.clear()
            field.send_keys(reason)
            button = article.find_element(By.CSS_SELECTOR, f"button[name=decision][value={decision}]")
            if attempt == 0:
                button.click()
            else:
                # A key press on the button, where a click was refused: it
                # needs no free point on the screen.
                button.send_keys(Keys.ENTER)
            break
        except NOT_PRESSED:
            if attempt == 2:
                raise
    # The press starts a navigation (the POST, then the redirect); the old
    # page goes away only once the new one arrives. Read the page after
    # that, not the old one on its way out.
    WebDriverWait(driver, 20).until(expected_conditions.staleness_of(article))
    return shown(driver)


def run(driver, url, op, cmd):
    if op == "open":
        driver.get(url)
        return shown(driver)
    if op == "decide":
        return decide(driver, cmd["id"], cmd["decision"], cmd.get("reason", ""))
    if op == "cross_site":
        return cross_site(driver, url, cmd["id"], cmd["csrf"])
    if op == "screenshot":
        driver.save_screenshot(cmd["path"])
        return {"saved": cmd["path"]}
    return {"error": f"unknown op {op}"}


def main(url):
    driver = browser()
    try:
        for line in sys.stdin:
            cmd = json.loads(line)
            op = cmd["op"]
            if op == "quit":
                break
            try:
                out = run(driver, url, op, cmd)
            except WebDriverException as e:
                # Answered, not raised: the test's failure then names what
                # the browser said, where a dead driver leaves an empty line.
                first = (e.msg or "").strip().splitlines()
                out = {"error": f"{op}: {type(e).__name__}: {first[0] if first else ''}"}
            print(json.dumps(out), flush=True)
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1])
