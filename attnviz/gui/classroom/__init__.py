"""The classroom: presentation mode, language, zoom, looks, guided steps, help."""
