"""The main window as an assembly of the features, and the application's start."""
