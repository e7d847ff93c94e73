"""Reusable widgets of the Judge's window (the action card, small editors)."""
