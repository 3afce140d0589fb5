"""The wire between the trusted side and student processes: messages, values, safe text."""
