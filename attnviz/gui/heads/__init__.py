"""The heads: one heatmap per head, its painter, the colour bar."""
