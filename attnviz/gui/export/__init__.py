"""Figures for slides and papers, and the files they are written to."""
