"""Plays a human seat's page in a real browser by clicking what it offers."""

from __future__ import annotations

from typing import Any

ANY_CONTROL = ("#result:not([hidden]), #actions button[data-action]:not([disabled]), "
               "#hand button.card.legal")


def marriage_pairs(hand: list[str]) -> set[str]:
    return {c for c in hand if (("Q" if c[0] == "K" else "K") + c[1]) in hand and c[0] in "KQ"}


def play_to_the_end(page: Any, limit: int = 600) -> dict[str, Any]:
    """Click until the result shows. Prefers passing; bids once with +.
    Returns what it saw: clicks, decisions where some cards were dimmed, the
    marriage cards it saw marked and those it should have."""
    seen: dict[str, Any] = {"clicks": 0, "dimmed": 0, "dots": set(), "pairs": set(), "plus": 0, "choices": 0}
    for _ in range(limit):
        page.wait_for_selector(ANY_CONTROL, timeout=60_000)
        if page.locator("#result:not([hidden])").count():
            seen["sent"] = int(page.locator("#seat-page").get_attribute("data-sent") or 0)
            return seen
        hand = page.locator("#hand .card[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        seen["pairs"] |= marriage_pairs(hand)
        seen["dots"] |= set(page.locator("#hand .card.marriage").evaluate_all(
            "els => els.map(e => e.dataset.card)"))
        clock = page.locator("#clock:not([hidden]):not(.other)")  # its own, not another seat's
        if clock.count() and "clock" not in seen:
            seen["clock"] = clock.inner_text()
        legal = page.locator("#hand button.card.legal")
        if page.locator("#hand .card.dimmed").count() and legal.count():
            seen["dimmed"] += 1
        plus = page.locator("#bid-plus:not([disabled])")
        if plus.count() and not seen["plus"]:
            plus.click()
            seen["plus"] += 1
            page.locator("#bid-go").click()
        elif page.locator('#actions button[data-action="pass"]').count():
            page.locator('#actions button[data-action="pass"]').click()
        elif page.locator("#contract-go").count():
            page.locator("#contract-go").click()
        elif legal.count():
            legal.first.click()
            if page.locator("#actions[data-choice]").count():  # play KH, or play KH marriage
                seen["choices"] += 1
                page.locator("#actions[data-choice] button[data-action]").first.click()
        else:
            page.locator("#actions button[data-action]:not([disabled])").first.click()
        seen["clicks"] += 1
    raise AssertionError(f"no result after {limit} clicks")


def step(page: Any) -> bool:
    """One click on `page` if it offers one now (pass first); False if it offers none."""
    ctl = page.locator('#actions button[data-action="pass"], #contract-go, #bid-go, '
                       '#hand button.card.legal, #actions button[data-action]:not([disabled])')
    if not ctl.count():
        return False
    ctl.first.click()
    if page.locator("#actions[data-choice]").count():
        page.locator("#actions[data-choice] button[data-action]").first.click()
    return True


def play_all_to_the_end(pages: list[Any], limit: float = 240.0) -> None:
    """Several people's pages at one table, each clicked when it is its turn."""
    import time

    end = time.monotonic() + limit
    while time.monotonic() < end:
        done = [p.locator("#result:not([hidden])").count() > 0 for p in pages]
        if all(done):
            return
        if not any(step(p) for p, d in zip(pages, done, strict=True) if not d):
            time.sleep(0.05)
    raise AssertionError("the pages did not all show a result in time")
