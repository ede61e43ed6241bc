"""Agreeing a slot for a live match: the organiser opens a window, each player proposes times,
the other accepts one; no agreement by the window's end falls to the organiser's default rule;
check-in at the slot, and a no-show forfeits after N minutes. Every step is audited."""
