"""The layer from X to O as one picture (seed 002): the diagram, its numbers, the residual."""
