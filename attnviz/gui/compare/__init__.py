"""Two scenarios or two layers side by side (File → Compare with…)."""
