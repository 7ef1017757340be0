"""The real model in the window: run on a worker thread, the text dialog, the next-token panel."""
