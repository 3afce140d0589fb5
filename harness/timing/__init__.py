"""How long a case may take: host speed, reference times, the shared budget, lanes."""
