"""Reports and moderation (PROTOCOL §2h): players report players, moderators read the
reports and a player's file and act, every action written to an append-only audit log."""
