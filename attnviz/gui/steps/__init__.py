"""One query row's arithmetic: the step table, the formula, the guided steps."""
