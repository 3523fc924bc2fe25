"""What crosses a process boundary, as bytes: the layouts the server builds by hand."""
