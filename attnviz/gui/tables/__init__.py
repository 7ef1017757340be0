"""The q, k, v tables and the controls that edit the scenario (settings bar, q sliders)."""
