"""How things look: the colour maps and the colour scale, the looks (themes), the fonts."""
