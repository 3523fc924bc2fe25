"""What crosses a process boundary: the messages the server sends, and their layouts as bytes."""
