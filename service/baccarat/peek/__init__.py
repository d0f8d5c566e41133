"""Peek Baccarat (docs/bets.md): cards shown, then a choice to raise or fold.

A peek round, its fees and its choices (:mod:`.round`), and the exact
odds of each choice (:mod:`.odds`). It is built on the round it plays and
may import every room below the requests; nothing but the requests
imports it.
"""
