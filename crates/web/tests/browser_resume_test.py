"""Drives the page in headless Chromium with selenium against a server that forgets idle games
within seconds: after the server has dropped the page's game, the next move starts the game
there again from the moves the page holds, and is played.
Usage: browser_resume_test.py BASE_URL SHOT_DIR CHROMIUM CHROMEDRIVER
"""
import os
import sys
import time

from browser_test import browser, click, moves, status_text, wait

BASE, SHOTS = sys.argv[1:3]


def main():
    d = browser()
    try:
        d.get(BASE)
        wait(d, "a new game", lambda: "to move" in status_text(d))
        click(d, "h8")
        wait(d, "the AI's reply", lambda: len(moves(d)) == 2)
        first_id = d.execute_script("return game.id")
        # The server drops games idle for 2 s when it makes room for a new one.
        time.sleep(3)
        status = d.execute_async_script(
            "const done = arguments[0];"
            "fetch('/api/games', {method: 'POST', headers: {'content-type': 'application/json'},"
            " body: JSON.stringify({ai: 'none'})})"
            ".then(() => fetch('/api/games/' + game.id)).then(r => done(r.status))")
        assert status == 404, f"the page's game should be gone, got {status}"
        before = moves(d)
        reply = "h9" if "h9" not in before else "g9"
        click(d, reply)
        wait(d, "the move and the reply in the game started again", lambda: len(moves(d)) == 4)
        assert moves(d)[:3] == before + [reply], moves(d)
        assert d.execute_script("return game.id") != first_id
        d.save_screenshot(os.path.join(SHOTS, "page-resumed.png"))
        print("BROWSER RESUME OK")
    finally:
        d.quit()


if __name__ == "__main__":
    main()
