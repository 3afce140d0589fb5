"""The ``gamegrader`` command line."""
