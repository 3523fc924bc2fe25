"""Clubs, club tournaments and team battles (PROTOCOL §2e)."""
