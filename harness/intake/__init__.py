"""Taking a submission in: reading it bounded, finding its files, checking it imports."""
