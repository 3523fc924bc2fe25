"""People (PROTOCOL §2c): friends, blocks, challenges and one's own account."""
